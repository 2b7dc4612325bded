"""Text as the model reads it: NFKC, invisible characters removed, look-alike letters folded.

Matching runs on these views, never on the raw bytes, so `ｉｇｎｏｒｅ`, `ig\u200bnore` and `іgnоrе`
(Cyrillic) all read `ignore`. Every view keeps the line count of the original, so a finding's line
number is the line a person opens.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import cache

#: removed before matching (and reported by `orkestra.intake.unicode`): zero-width, joiners, word
#: joiner and invisible operators, BOM, Mongolian vowel separator, soft hyphen, combining grapheme
#: joiner, Hangul fillers, tag characters and bidi controls
INVISIBLE = frozenset(
    (
        *(0x00AD, 0x034F, 0x115F, 0x1160, 0x180E, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F),
        *range(0x202A, 0x202F),
        *range(0x2060, 0x2065),
        *range(0x2066, 0x206A),
        *(0x3164, 0xFEFF, 0xFFA0),
        *range(0xE0000, 0xE0080),
    )
)
_DROP = dict.fromkeys(INVISIBLE)


@dataclass(frozen=True)
class Views:
    """The normalised text (`plain`) and its Latin skeleton; `folded` says the skeleton differs."""

    plain: str
    skeleton: str

    @property
    def folded(self) -> bool:
        return self.skeleton is not self.plain and self.skeleton != self.plain


def views(text: str) -> Views:
    """NFKC, invisible characters dropped, then the TR39-style skeleton (letters only).

    ASCII text (most files) is returned as is: nothing to fold.
    """
    if text.isascii():
        return Views(text, text)
    plain = unicodedata.normalize("NFKC", text.translate(_DROP))
    if plain.isascii():
        return Views(plain, plain)
    return Views(plain, plain.translate(skeleton_table()))


@cache
def skeleton_table() -> dict[int, str]:
    """Non-ASCII characters confusable with one ASCII letter or digit -> that character.

    Built from Unicode's confusables.txt as shipped by `confusable_homoglyphs` (MIT), loaded once
    and only when a file has non-ASCII text.
    """
    from importlib import resources

    data = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    table: dict[int, str] = {}
    for char, targets in json.loads(data).items():
        if len(char) != 1 or char.isascii():
            continue
        latin = [t["c"] for t in targets if len(t["c"]) == 1 and t["c"].isascii()]
        latin = [c for c in latin if c.isalnum()]
        if latin:
            table[ord(char)] = sorted(latin, key=lambda c: (not c.islower(), c))[0]
    return table


def disguised(raw: str) -> bool:
    """Does a line hide text: invisible characters, or letters NFKC turns into ASCII letters?"""
    for char in raw:
        if char.isascii():
            continue
        if ord(char) in INVISIBLE:
            return True
        if char.isalpha() and unicodedata.normalize("NFKC", char).isascii():
            return True
    return False


def mixed_script_words(line: str) -> list[str]:
    """Words mixing Latin letters with Cyrillic or Greek ones (a classic homograph trick)."""
    out = []
    for word in line.split():
        scripts = set()
        for char in word:
            if char.isascii():
                if char.isalpha():
                    scripts.add("latin")
                continue
            if char.isalpha():
                name = unicodedata.name(char, "")
                if name.startswith(("CYRILLIC", "GREEK")):
                    scripts.add("other")
        if len(scripts) == 2:
            out.append(word)
    return out
