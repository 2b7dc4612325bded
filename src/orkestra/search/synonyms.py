"""The built-in synonym table (`synonyms.yaml`, data) and query expansion with it.

A query word (or a run of query words) that is a member of a group brings the group's other members
as expansions: looked for by a retriever of its own whose weight is lower than the original words'
(`rank.FUSION_WEIGHTS`), and counted at half weight in a relaxed query's coverage.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from orkestra.search.text import tokens

TABLE = Path(__file__).resolve().parent / "synonyms.yaml"


@functools.cache
def groups() -> tuple[tuple[tuple[str, ...], ...], ...]:
    """The synonym groups, each member as its tokens (`("sign", "in")`)."""
    from orkestra.core import yamlio
    from orkestra.core.errors import InputError

    data = yamlio.load_mapping(TABLE, display="src/orkestra/search/synonyms.yaml")
    raw = data.get("groups")
    if not isinstance(raw, list):
        raise InputError("`groups` must be a list of lists", file=str(TABLE), line=1)
    out = []
    for index, group in enumerate(raw):
        line = yamlio.line_of(data, ("groups", index)) or 1
        if not isinstance(group, list) or len(group) < 2:
            raise InputError("a synonym group lists at least two words", file=str(TABLE), line=line)
        members = tuple(tuple(tokens(str(m))) for m in group)
        if not all(members):
            raise InputError("a synonym group holds an empty word", file=str(TABLE), line=line)
        out.append(members)
    return tuple(out)


def _contains(words: Sequence[str], member: tuple[str, ...]) -> bool:
    size = len(member)
    return any(tuple(words[i : i + size]) == member for i in range(len(words) - size + 1))


def expand(words: Sequence[str]) -> list[tuple[str, ...]]:
    """Members of the groups the query's words belong to, minus what the query already says."""
    out: list[tuple[str, ...]] = []
    for group in groups():
        if any(_contains(words, member) for member in group):
            for member in group:
                if not _contains(words, member) and member not in out:
                    out.append(member)
    return out
