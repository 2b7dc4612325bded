"""Literal strings a regular expression cannot match without: the per-pattern pre-filter.

`required("\\bdo\\s+not\\s+tell\\s+the\\s+user")` is `{"user"}` (the longest literal run every match
contains), so the pattern runs only on text containing "user". A branch gives one literal per
alternative (any of them); a pattern with no usable literal gives None (always run). Found from
the parsed pattern (`re._parser`), so nothing has to be kept in step by hand.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

# Python 3.11+: the parser is private, but stable in shape across 3.11-3.13; without it there
# is no pre-filter and every pattern simply runs
try:
    _p: Any = importlib.import_module("re._parser")
    _c: Any = importlib.import_module("re._constants")
except ImportError:  # pragma: no cover - another layout: no pre-filter, every pattern runs
    _p = None

MIN_LEN = 3
MIN_LEN_WIDE = 2  # CJK words are short


def required(pattern: str, flags: int = 0) -> frozenset[str] | None:
    """Lower-case literals, one of which every match contains; None when there is none."""
    if _p is None:
        return None
    try:
        parsed = _p.parse(pattern, flags)
    except re.error:  # the caller compiles (and reports) the pattern itself
        return None
    return _seq(list(parsed))


def _useful(text: str) -> bool:
    return len(text) >= (MIN_LEN if text.isascii() else MIN_LEN_WIDE)


def _better(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    if a is None:
        return b
    if b is None:
        return a
    return a if (min(map(len, a)), -len(a)) >= (min(map(len, b)), -len(b)) else b


def _seq(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    best: frozenset[str] | None = None
    run = ""
    for op, value in items:
        if op is _c.LITERAL:
            run += chr(value).lower()
            continue
        if _useful(run):
            best = _better(best, frozenset({run}))
        run = ""
        best = _better(best, _item(op, value))
    if _useful(run):
        best = _better(best, frozenset({run}))
    return best


def _item(op: Any, value: Any) -> frozenset[str] | None:
    if op is _c.SUBPATTERN:
        return _seq(list(value[-1]))
    if op is _c.BRANCH:
        out: set[str] = set()
        for alternative in value[1]:
            found = _seq(list(alternative))
            if found is None:
                return None
            out |= found
        return frozenset(out)
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT) and value[0] >= 1:
        return _seq(list(value[2]))
    if op is _c.ASSERT and value[0] == 1:  # a lookahead's content must be there too
        return _seq(list(value[1]))
    return None
