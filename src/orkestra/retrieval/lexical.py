"""Lexical retrieval helpers: SQLite FTS5 match expressions, IDF and query coverage.

Used by registry search over its `bm` table (Porter stemming, one column per field weight, ranked by
`bm25()` with per-column weights); nothing here knows about registries.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence


def quote(term: str) -> str:
    """An FTS5 string (a phrase when `term` holds several tokens)."""
    return '"' + term.replace('"', '""') + '"'


def any_of(parts: Iterable[str]) -> str:
    """`(a OR b ...)`, or "" when there are no parts."""
    items = [p for p in parts if p]
    if not items:
        return ""
    return items[0] if len(items) == 1 else "(" + " OR ".join(items) + ")"


def all_of(parts: Iterable[str]) -> str:
    """`a AND b ...` over the non-empty parts."""
    return " AND ".join(p for p in parts if p)


def in_columns(columns: Sequence[str], expr: str) -> str:
    """`expr` restricted to `columns` (FTS5 column filter)."""
    if not expr or not columns:
        return ""
    return "{" + " ".join(columns) + "} : " + expr


def idf(total: int, frequency: int) -> float:
    """BM25's inverse document frequency, floored at 0.05 so a common word still counts a little."""
    value = math.log((total - frequency + 0.5) / (frequency + 0.5) + 1.0)
    return max(value, 0.05)


def coverage(matched: Mapping[int, float], weights: Sequence[float]) -> float:
    """How much of a query a document covers: the IDF-weighted share of its words it matched.

    `matched` maps a word's index to the credit it earned (1 for the word, less for a synonym).
    """
    total = sum(weights)
    if total <= 0:
        return 0.0
    return sum(weights[i] * credit for i, credit in matched.items()) / total
