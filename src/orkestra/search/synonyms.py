"""The built-in synonym table (`synonyms.json`, data) and query expansion with it.

A query word (or a run of query words) that is a member of a group brings the group's other members
as expansions: looked for by a retriever of its own whose weight is lower than the original words'
(`rank.FUSION_WEIGHTS`), and counted at half weight in a relaxed query's coverage.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from orkestra.search.text import tokens

TABLE = Path(__file__).resolve().parent / "synonyms.json"
DISPLAY = "src/orkestra/search/synonyms.json"


@functools.cache
def groups() -> tuple[tuple[tuple[str, ...], ...], ...]:
    """The synonym groups, each member as its tokens (`("sign", "in")`), in the table's order.

    The table is JSON (read with the standard library: every `search` reads it, and a YAML
    parser would cost the command a tenth of its start-up); `groups` maps a topic to its groups.
    """
    from orkestra.core import jsonio
    from orkestra.core.errors import InputError

    text = jsonio.read_text(TABLE)
    data = jsonio.loads(text, source=DISPLAY)
    topics = data.get("groups") if isinstance(data, dict) else None
    if not isinstance(topics, dict):
        raise InputError("`groups` must map each topic to its groups", file=DISPLAY, line=1)
    out = []
    for topic, listed in topics.items():
        for group in listed if isinstance(listed, list) else [None]:
            line = _line_of(text, group)
            if not isinstance(group, list) or len(group) < 2:
                raise InputError(
                    f"{topic}: a synonym group lists at least two words", file=DISPLAY, line=line
                )
            members = tuple(tuple(tokens(str(m))) for m in group)
            if not all(members):
                raise InputError(
                    f"{topic}: a synonym group holds an empty word", file=DISPLAY, line=line
                )
            out.append(members)
    return tuple(out)


def _line_of(text: str, group: object) -> int:
    """The line of the table where `group` is written (each group stands on a line of its own)."""
    import json

    written = json.dumps(group, ensure_ascii=False)
    at = text.find(written)
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


def stem(word: str) -> str:
    """A light English stem for matching query words to members: `signed` -> `sign`, `logging`
    -> `log`, `makes` -> `make`, `crashes` -> `crash` (inflections only; words of 4 letters or
    fewer are kept as they are)."""
    if len(word) <= 4 or not word.isalpha():
        return word
    for suffix in ("ing", "ies", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            if suffix == "ies":
                return base + "y"
            if suffix == "es" and not base.endswith(("sh", "ch", "x", "ss", "z")):
                return base + "e"
            if suffix == "s" and base.endswith(("s", "u", "i")):
                return word  # `process`, `status`, `analysis`
            if suffix in ("ing", "ed") and len(base) >= 3 and base[-1] == base[-2]:
                return base[:-1] if base[-1] not in "ls" else base  # `logging`; `called`, `missed`
            return base
    return word


#: words skipped when a member is looked for in a query (`the site is down` holds `site down`)
FILLER = frozenset(
    {
        "a", "an", "the", "is", "are", "was", "were", "be", "been", "being",
        "get", "gets", "got", "getting", "keep", "keeps",
    }
)  # fmt: skip


def _spans(words: Sequence[str], member: Sequence[str]) -> list[range]:
    """Where `member` occurs in `words` (indices into `words`), filler words skipped."""
    kept = [i for i, w in enumerate(words) if w not in FILLER]
    out = []
    for seq in (list(range(len(words))), kept):
        size = len(member)
        for start in range(len(seq) - size + 1):
            at = seq[start : start + size]
            if all(words[i] == m for i, m in zip(at, member, strict=True)):
                out.append(range(at[0], at[-1] + 1))
    return out


@functools.cache
def _forms() -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Each group's members as their stemmed tokens."""
    return tuple(tuple(tuple(stem(w) for w in member) for member in group) for group in groups())


def expand_at(words: Sequence[str]) -> list[tuple[range, list[tuple[str, ...]]]]:
    """For each place a group's member occurs in the query's words (compared by `stem`, filler
    words skipped): the words it spans and the group's other members the query does not say."""
    stems = [stem(w) for w in words]
    present = set(stems)
    out: list[tuple[range, list[tuple[str, ...]]]] = []
    for group, forms in zip(groups(), _forms(), strict=True):
        if present.isdisjoint(form[0] for form in forms):
            continue  # no member starts with a word of the query
        found = [(span, form) for form in forms for span in _spans(stems, form)]
        if not found:
            continue
        said = {form for _, form in found}
        others = [m for m, form in zip(group, forms, strict=True) if form not in said]
        if others:
            out.extend((span, others) for span, _ in found)
    return out


def expand(words: Sequence[str]) -> list[tuple[str, ...]]:
    """Members of the groups the query's words belong to (compared by `stem`), minus what the
    query already says."""
    out: list[tuple[str, ...]] = []
    for _span, others in expand_at(words):
        out.extend(m for m in others if m not in out)
    return out
