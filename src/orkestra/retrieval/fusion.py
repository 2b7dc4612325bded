"""Weighted reciprocal rank fusion with a centrality boost and path demotion (PRODUCT.md §12).

Each retriever returns a ranked list of `Hit`s. A hit at rank r (0-based) from a retriever of
weight w contributes `w / (k + r + 1)` (k = 40) to its key, multiplied by
`min(1 + 0.3·ln(1 + centrality), 1.5)`, by the boost of its kind (per-kind boosts, 1 when absent)
and by the demotion factor of its path. Weights are
renormalised over the retrievers present, so an absent plug-in (semantic) changes nothing else.
One best hit (line and snippet) is kept per key: the one that contributed most.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

RRF_K = 40
MAX_BOOST = 1.5
DEMOTION = 0.5
#: path segments of vendored, generated, built or archived code
DEMOTED_PARTS = frozenset(
    {
        "vendor", "vendors", "third_party", "thirdparty", "node_modules", "build", "dist",
        "target", "out", "archive", "archived", "_build", ".venv", "venv", "site-packages",
        "generated", "__generated__", "bower_components", "deps",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Hit:
    """One ranked answer: `key` groups hits (a file path), `path:line` cites, `snippet` shows."""

    key: str
    path: str
    line: int
    snippet: str = ""
    score: float = 0.0
    centrality: float = 0.0
    sources: tuple[str, ...] = field(default_factory=tuple)
    #: what sort of document it is (registry search: the entry type), for per-kind boosts
    kind: str = ""


class Retriever(Protocol):
    """A named source of ranked hits for a query."""

    name: str

    def search(self, query: str, limit: int) -> list[Hit]:
        """Hits for `query`, best first, at most `limit`."""
        ...


def centrality_boost(centrality: float) -> float:
    """`min(1 + 0.3·ln(1 + c), 1.5)`: central code ranks a little higher, never dominates."""
    return min(1.0 + 0.3 * math.log1p(max(centrality, 0.0)), MAX_BOOST)


def is_demoted(path: str) -> bool:
    """True for a path under a vendor, build, dependency or archive folder."""
    parts = path.replace("\\", "/").split("/")[:-1]
    return any(part.lower() in DEMOTED_PARTS for part in parts)


def renormalise(weights: Mapping[str, float], present: Iterable[str]) -> dict[str, float]:
    """`weights` restricted to the retrievers `present`, scaled to sum to 1 (all 0 stay 0)."""
    kept = {name: weights.get(name, 0.0) for name in present}
    total = sum(kept.values())
    return {name: (w / total if total > 0 else 0.0) for name, w in kept.items()}


def weighted_rrf(
    ranked: Mapping[str, Sequence[Hit]],
    weights: Mapping[str, float],
    *,
    k: int = RRF_K,
    demote: Callable[[str], bool] = is_demoted,
    limit: int | None = None,
    boosts: Mapping[str, float] | None = None,
) -> list[Hit]:
    """Fuse the retrievers' ranked lists into one list, best first, one hit per key.

    `boosts` multiplies the contributions of hits of a kind (`Hit.kind`); kinds absent keep 1.
    """
    boosts = boosts or {}
    scores: dict[str, float] = {}
    best: dict[str, tuple[float, Hit]] = {}
    sources: dict[str, list[str]] = {}
    for name, hits in ranked.items():
        weight = weights.get(name, 0.0)
        if weight <= 0:
            continue
        seen: set[str] = set()
        for rank, hit in enumerate(hits):
            if hit.key in seen:  # a retriever votes once per key, at its best rank
                continue
            seen.add(hit.key)
            part = weight / (k + rank + 1) * centrality_boost(hit.centrality)
            part *= boosts.get(hit.kind, 1.0)
            if demote(hit.path):
                part *= DEMOTION
            scores[hit.key] = scores.get(hit.key, 0.0) + part
            sources.setdefault(hit.key, []).append(name)
            if hit.key not in best or part > best[hit.key][0]:
                best[hit.key] = (part, hit)
    order = sorted(scores, key=lambda key: (-scores[key], key))
    out = [
        replace(best[key][1], score=round(scores[key], 6), sources=tuple(sources[key]))
        for key in order
    ]
    return out if limit is None else out[:limit]


def direct(hits: Sequence[Hit], *, limit: int | None = None, source: str = "") -> list[Hit]:
    """One retriever's list as the answer: one hit per key, scored by reciprocal rank."""
    out: list[Hit] = []
    seen: set[str] = set()
    for hit in hits:
        if hit.key in seen:
            continue
        seen.add(hit.key)
        score = round(1.0 / (RRF_K + len(out) + 1), 6)
        out.append(replace(hit, score=score, sources=(source,) if source else hit.sources))
    return out if limit is None else out[:limit]


def dominant(weights: Mapping[str, float]) -> str | None:
    """The retriever with the largest positive weight (ties: first in order), or None."""
    name, weight = max(weights.items(), key=lambda item: item[1], default=(None, 0.0))
    return name if weight > 0 else None
