"""`orkestra search --type code`: code map hits beside registry hits, fused by the retrieval core."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CODE = "code"


def code_hits(root: Path, query: str, limit: int) -> tuple[list[dict[str, Any]], int]:
    """Code search answers shaped like registry hits: {type, id, title, score, ..., path, line},
    and how many there are in all (the code search's `total`, not cut by `limit`)."""
    from orkestra.codemap import api

    result = api.search_code(root, query, limit)
    return [
        {
            "type": CODE,
            "id": hit["location"],
            "title": hit["snippet"],
            "score": hit["score"],
            "matched_fields": hit["sources"],
            "path": hit["path"],
            "line": hit["line"],
        }
        for hit in result["results"]
    ], int(result["total"])


def merge(
    registry: list[dict[str, Any]], code: list[dict[str, Any]], limit: int
) -> list[dict[str, Any]]:
    """Both ranked lists fused by weighted reciprocal rank (equal weights); scores become RRF's."""
    from orkestra.retrieval.fusion import Hit, weighted_rrf

    keyed = {f"{h['type']}:{h['id']}": h for h in [*registry, *code]}

    def ranked(hits: list[dict[str, Any]]) -> list[Hit]:
        return [Hit(f"{h['type']}:{h['id']}", str(h["path"]), int(h["line"] or 0)) for h in hits]

    fused = weighted_rrf(
        {"registry": ranked(registry), CODE: ranked(code)},
        {"registry": 0.5, CODE: 0.5},
        demote=lambda _path: False,
        limit=limit,
    )
    return [keyed[h.key] | {"score": h.score} for h in fused]


def find_with_code(
    root: Path,
    query: str,
    filters: Any,
    limit: int,
    want_summary: bool,
    unloaded: list[Any] | None = None,
) -> dict[str, object]:
    """`orkestra search` with `code` among the types: the same envelopes, code hits included."""
    from dataclasses import replace

    from orkestra.search.service import SUMMARY_TYPES, search, summary

    rest = tuple(t for t in filters.types if t != CODE)
    code, code_total = code_hits(root, query, limit)
    ranking = None
    if rest:
        ranking = search(root, query, replace(filters, types=rest), limit=limit, unloaded=unloaded)
    if want_summary:
        # every type counted, zeros included, with `code` alone as with `code,agents`
        base = dict.fromkeys(SUMMARY_TYPES, 0)
        if ranking is not None:
            base.update(summary(query, ranking)["counts"])  # type: ignore[call-overload]
        counts = {**base, CODE: code_total}
        return {"query": query, "total": sum(counts.values()), "counts": counts}
    registry = [hit.to_dict() for hit in ranking.hits] if ranking is not None else []
    results = merge(registry, code, limit) if registry else code
    total = (ranking.total if ranking is not None else 0) + code_total
    return {"query": query, "total": total, "results": results}
