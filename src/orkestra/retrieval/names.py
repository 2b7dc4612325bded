"""Fuzzy matching of a query against names and identifiers (rapidfuzz), a retriever's ranked list.

`kubernets-deploy`, `deploy kubernetes` and `kubernetes-deploy` are close; a name that shares no
part of the query is not returned at all.
"""

from __future__ import annotations

from collections.abc import Mapping

#: the lowest rapidfuzz `token_set_ratio` (0-100) at which a name is a candidate
MIN_SIMILARITY = 70.0


def rank(query: str, names: Mapping[str, str], limit: int) -> list[tuple[str, float]]:
    """(key, similarity 0-100) of the names most like `query`, best first (ties: by name)."""
    if not names or not query.strip():
        return []
    from rapidfuzz import fuzz, process, utils

    found = process.extract(
        query,
        names,
        scorer=fuzz.token_set_ratio,
        processor=utils.default_process,
        score_cutoff=MIN_SIMILARITY,
        limit=None,
    )
    ordered = sorted(((-float(ratio), name, str(key)) for name, ratio, key in found))
    return [(key, -neg) for neg, _name, key in ordered[:limit]]
