"""Text as the model reads it: NFKC, invisible characters removed, look-alike letters folded.

Matching runs on these views, never on the raw bytes, so `ｉｇｎｏｒｅ`, `ig\u200bnore` and `іgnоrе`
(Cyrillic) all read `ignore`. Every view keeps the line count of the original, so a finding's line
number is the line a person opens.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from orkestra.core import jsonio

#: blank letters that show as a space (Hangul fillers, the braille blank): read as a space, so
#: `ignore\u3164all\u3164previous` is still three words (reported by `orkestra.intake.unicode`)
BLANKS = frozenset((0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0))
#: removed before matching (and reported by `orkestra.intake.unicode`): zero-width, joiners, word
#: joiner and invisible operators, BOM, Mongolian vowel separator, soft hyphen, combining grapheme
#: joiner, variation selectors, tag characters and bidi controls; blank letters become spaces
INVISIBLE = frozenset(
    (
        *(0x00AD, 0x034F, 0x180E, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F),
        *range(0x202A, 0x202F),
        *range(0x2060, 0x2065),
        *range(0x2066, 0x206A),
        *range(0xFE00, 0xFE10),
        *(0xFEFF,),
        *range(0xE0000, 0xE0080),
        *range(0xE0100, 0xE01F0),
        *BLANKS,
    )
)
_INVISIBLE_CHARS = frozenset(chr(c) for c in INVISIBLE)
_DROP: dict[int, str | None] = {**dict.fromkeys(INVISIBLE), **dict.fromkeys(BLANKS, " ")}


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
    chars = set(text)
    if not chars.isdisjoint(_INVISIBLE_CHARS):  # a set test: far faster than a regex scan
        text = text.translate(_DROP)
    plain = unicodedata.normalize("NFKC", text)
    if plain.isascii():
        return Views(plain, plain)
    if plain is not text:
        chars = set(plain)
    table = skeleton_table()
    present = {c for c in chars if ord(c) in table and _spoofs_latin(ord(c))}
    if not present:
        return Views(plain, plain)
    folding = re.compile("[" + "".join(re.escape(c) for c in sorted(present)) + "]")
    return Views(plain, folding.sub(lambda m: table[ord(m.group(0))], plain))


def _spoofs_latin(point: int) -> bool:
    """Letters used to imitate Latin: Latin extensions, IPA, Greek, Cyrillic, Armenian, Cherokee,
    letterlike symbols and the like. Arabic, Hebrew and CJK text is left as written."""
    return (
        point < 0x0590
        or 0x10A0 <= point < 0x1100  # Georgian
        or 0x13A0 <= point < 0x1400  # Cherokee
        or 0x1D00 <= point < 0x2000  # phonetic extensions, Latin and Greek extended
        or 0x2100 <= point < 0x2190  # letterlike symbols, Roman numerals
        or 0x2C00 <= point < 0x2E00  # Glagolitic, Latin extended-C, Coptic
        or 0xA640 <= point < 0xA800  # Cyrillic extended-B, Latin extended-D
        or 0xAB30 <= point < 0xABC0  # Latin extended-E, Cherokee supplement
        or 0xFF00 <= point < 0xFFF0  # fullwidth forms
        or 0x10400 <= point < 0x10500  # Deseret, Osmanya
        or point >= 0x1D400  # mathematical alphanumerics
    )


@cache
def skeleton_table() -> dict[int, str]:
    """Non-ASCII characters confusable with one ASCII letter or digit -> that character.

    Built from Unicode's confusables.txt as shipped by `confusable_homoglyphs` (MIT), loaded once
    and only when a file has non-ASCII text.
    """
    from importlib import resources

    data = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    table: dict[int, str] = {}
    parsed = jsonio.loads(data, source="confusable_homoglyphs/confusables.json")
    for char, targets in parsed.items():
        if len(char) != 1 or char.isascii():
            continue
        latin = [t["c"] for t in targets if len(t["c"]) == 1 and t["c"].isascii()]
        latin = [c for c in latin if c.isalnum()]
        if latin:
            # keep the case: Cyrillic `І` reads as `I`, `і` as `i` (not `l`)
            best = sorted(latin, key=lambda c: (c.isupper() != char.isupper(), c))[0]
            # the prototype of `I` is `l`: a capital look-alike of either reads as `I`
            table[ord(char)] = "I" if best == "l" and char.isupper() else best
    return table


#: a link's target or reference label and its brackets: `[ignore all][1] previous` reads as text
_LINK_PARTS = r"\]\((?:[^()\n]|\([^()\n]*\))*\)|\]\[[^\]\n]{0,40}\]|[\[\]]"
_LINKS = re.compile(_LINK_PARTS)
_MARKUP = re.compile(r"<[^<>\n]{1,40}>|[*_~`]+|" + _LINK_PARTS)
_TAGS = re.compile(r"<[^<>\n]{1,40}>")
_EMPHASIS_MARKS = "*_~`"
#: the block `_accents` maps (Latin-1 Supplement to Latin Extended-B letters)
_ACCENTED = re.compile("[\u00c0-\u024f]+")
_DIGITS = re.compile(r"[013457@$]+")
_LEET_MAP = str.maketrans("013457@$", "oieastas")


@cache
def _accents() -> dict[int, str]:
    """Latin letters with diacritics (U+00C0-024F) -> their ASCII base letter."""
    table: dict[int, str] = {}
    for point in range(0xC0, 0x250):
        base = unicodedata.normalize("NFD", chr(point))[0]
        if base.isascii() and base.isalpha():
            table[point] = base
    return table


def _unaccented(match: re.Match[str]) -> str:
    return match.group(0).translate(_accents())


def _leet(match: re.Match[str]) -> str:
    """Digits next to a letter read as letters (`1gn0re`); numbers on their own stay numbers."""
    text, start, end = match.string, match.start(), match.end()
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    if ("a" <= before <= "z") or ("a" <= after <= "z"):
        return match.group(0).translate(_LEET_MAP)
    return match.group(0)


def loose(plain: str) -> str | None:
    """A lower-case reading with markup inside phrases removed (`**ig**nore`, `ig<b></b>nore`),
    accents dropped (`ïgnöre`) and digits inside words read as letters (`1gn0re`).

    Only the lines it changes are kept (the others are left empty, so line numbers hold and the
    pre-filter has little to scan). None when it changes nothing.
    """
    lowered = plain.lower()
    text = _TAGS.sub("", lowered) if "<" in lowered else lowered
    for mark in _EMPHASIS_MARKS:  # deleted (a str.replace each: translate is slow off ASCII)
        if mark in text:
            text = text.replace(mark, "")
    if "[" in text:
        text = _LINKS.sub("", text)
    if not text.isascii():  # only the runs of accented letters are translated
        text = _ACCENTED.sub(_unaccented, text)
    text = _DIGITS.sub(_leet, text)
    if text == lowered:
        return None
    pairs = zip(lowered.split("\n"), text.split("\n"), strict=True)
    return "\n".join(new if new != old else "" for old, new in pairs)


def markup_only(raw: str, relaxed_line: str) -> bool:
    """Is the loose reading of this line just the line without its markup (no other disguise)?"""
    return _MARKUP.sub("", raw.lower()) == relaxed_line


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
        if len(scripts) == 2 and sum(c.isalpha() for c in word) >= 4:
            out.append(word)
    return out
