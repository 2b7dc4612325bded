"""Fuzzy matching of a query against names and identifiers (rapidfuzz), a retriever's ranked list.

`kubernets-deploy`, `deploy kubernetes` and `kubernetes-deploy` are close; a name that shares no
part of the query is not returned at all.
"""

from __future__ import annotations

from collections.abc import Mapping

#: the lowest rapidfuzz `token_set_ratio` (0-100) at which a name is a candidate
MIN_SIMILARITY = 70.0
#: up to this many names, all ASCII like the query, are scored by `indel` (same scores) rather
#: than by rapidfuzz, whose import costs more than the comparisons (unless it is loaded already)
SMALL = 1000


def rank(query: str, names: Mapping[str, str], limit: int) -> list[tuple[str, float]]:
    """(key, similarity 0-100) of the names most like `query`, best first (ties: by name)."""
    if not names or not query.strip():
        return []
    from orkestra.retrieval import indel

    if (
        indel.preferred(len(names), SMALL)
        and query.isascii()
        and all(map(str.isascii, names.values()))
    ):
        wanted = indel.default_process(query)
        scored = (
            (indel.token_set_ratio(wanted, indel.default_process(name), MIN_SIMILARITY), name, key)
            for key, name in names.items()
        )
        found = [(name, ratio, key) for ratio, name, key in scored if ratio >= MIN_SIMILARITY]
    else:
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
