"""Relevance of registry search on the fixture marketplace: recall@5 and MRR per query set.

`write_marketplace` turns `marketplace.yaml` into a project (one agent file per agent, its plugin as
its scope; skills as stack skills with their tags); `measure` runs every query of `queries.yaml`
through `orkestra.search.service.search` and scores the ranked ids against the acceptable answers.
Shared by `tests/search/test_relevance.py` and `benchmarks/bench_relevance.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
TOP = 5


def _data(name: str) -> Any:
    return yaml.safe_load((HERE / name).read_text(encoding="utf-8"))


def write_marketplace(root: Path) -> int:
    """Write the fixture marketplace as a project under `root`; the number of entries written."""
    reg = root / "registries"
    (reg / "agents").mkdir(parents=True, exist_ok=True)
    (reg / "skills" / "stacks").mkdir(parents=True, exist_ok=True)
    (reg / "orkestra.yaml").write_text("project: marketplace\n", encoding="utf-8")
    count = 0
    for plugin, block in _data("marketplace.yaml").items():
        for name, description in (block.get("agents") or {}).items():
            doc = {
                "name": name,
                "description": description,
                "category": block["category"],
                "scopes": [plugin],
                "prompt": f"You are {name.replace('-', ' ')}. {description}",
            }
            text = yaml.safe_dump(doc, sort_keys=False, width=1000)
            (reg / "agents" / f"{name}.yaml").write_text(text, encoding="utf-8")
            count += 1
        for name, (description, tags) in (block.get("skills") or {}).items():
            doc = {
                "metadata": {
                    "identifier": name,
                    "name": name,
                    "description": description,
                    "type": "workflow",
                    "layer": "K3",
                    "source": "core",
                },
                "frontmatter": {"tags": tags},
                "sections": [{"title": "When to use", "body": description}],
            }
            text = yaml.safe_dump(doc, sort_keys=False, width=1000)
            (reg / "skills" / "stacks" / f"{name}.yaml").write_text(text, encoding="utf-8")
            count += 1
    return count


def query_sets() -> dict[str, dict[str, list[tuple[str, list[str]]]]]:
    """set -> split (dev, held) -> [(query, acceptable ids)]."""
    raw = _data("queries.yaml")
    return {
        name: {split: [(q, list(ok)) for q, ok in rows] for split, rows in splits.items()}
        for name, splits in raw.items()
    }


@dataclass
class Score:
    """recall@5 and MRR of one query set, with the queries that missed the top 5."""

    recall: float
    mrr: float
    misses: list[tuple[str, list[str]]] = field(default_factory=list)
    empty: int = 0


def score(ranked: Sequence[Sequence[str]], answers: Sequence[Sequence[str]]) -> tuple[float, float]:
    """(recall@5, MRR) of ranked id lists against acceptable ids (MRR over the whole list)."""
    hits = rr = 0.0
    for ids, ok in zip(ranked, answers, strict=True):
        rank = next((i for i, ident in enumerate(ids) if ident in ok), None)
        if rank is not None:
            rr += 1.0 / (rank + 1)
            hits += rank < TOP
    n = max(len(answers), 1)
    return hits / n, rr / n


def measure(
    root: Path, rows: Sequence[tuple[str, list[str]]], retrievers: Sequence[str] | None = None
) -> Score:
    """Run each query (top 20) and score it; `retrievers` restricts the fusion to those named."""
    from orkestra.search import service

    ranked = []
    misses = []
    empty = 0
    for query, ok in rows:
        if retrievers is None:
            hits = service.search(root, query, limit=20).hits
        else:
            hits = service.search(root, query, limit=20, retrievers=tuple(retrievers)).hits
        ids = [h.id for h in hits]
        ranked.append(ids)
        empty += not ids
        if not set(ids[:TOP]) & set(ok):
            misses.append((query, ids[:TOP]))
    recall, mrr = score(ranked, [ok for _, ok in rows])
    return Score(recall, mrr, misses, empty)
