"""Pinned rankings on the fixture registry, identical with and without the index."""

from __future__ import annotations

from pathlib import Path

import pytest

from orkestra.search.rank import Filters
from orkestra.search.service import search

#: query -> expected ids, best first (the full hit list unless marked as a prefix with "...")
RANKINGS: list[tuple[str, Filters | None, list[str]]] = [
    # ids and names: the exact entry first
    ("DEC-PL-142", None, ["DEC-PL-142"]),
    ("dec pl 142", None, ["DEC-PL-142"]),
    ("GT-ORK-001", None, ["GT-ORK-001", "GT-ORK-002"]),  # 002's rationale mentions 001
    ("architecture-advisor", None, ["architecture-advisor"]),
    ("database", None, ["database", "schema-migration-workflow"]),
    ("canonical", None, ["canonical", "DEC-PL-142", "GT-PIPE-001"]),
    # words and phrases
    (
        "kubernetes",
        None,
        ["kubernetes-deploy", "DEC-AD-007", "GT-ORK-003", "GT-ORK-004", "cluster-operator"],
    ),
    ("schema migration", None, ["schema-migration-workflow", "database"]),
    ("duckdb", None, ["DEC-PL-142", "DEC-PL-151"]),
    ("postgres", None, ["DEC-PL-150", "DEC-PL-151", "GT-PIPE-001", "evidence-first"]),
    ("search index", None, ["GT-ORK-002", "DEC-SR-001", "release-manager"]),
    ("search patterns", None, ["search/patterns", "search/anti-patterns"]),
    ("release changelog", None, ["release-manager"]),
    ("orchestrators delegate specialists kubernetes", None, ["DEC-AD-007"]),
    ("rollback", None, ["cluster-operator", "kubernetes-deploy", "schema-migration-workflow"]),
    ("pdf", None, ["pdf-tools"]),
    # typos and prefixes
    # a typo finds the same entries (fused: the typo's fields rank them a little differently)
    (
        "kuberntes",
        None,
        ["GT-ORK-003", "DEC-AD-007", "kubernetes-deploy", "GT-ORK-004", "cluster-operator"],
    ),
    ("idempotnet", None, ["GT-PIPE-001"]),
    ("migra", None, ["schema-migration-workflow", "database"]),
    # tags
    ("helm", None, ["kubernetes-deploy"]),
    ("index", Filters(types=("truths",), tags=("search",)), ["GT-ORK-002"]),
    # filters
    ("kubernetes", Filters(types=("truths",)), ["GT-ORK-003", "GT-ORK-004"]),
    ("kubernetes", Filters(types=("truths",), status=("current",)), []),
    ("kubernetes", Filters(types=("agents", "skills")), ["kubernetes-deploy", "cluster-operator"]),
    ("postgres", Filters(types=("decisions",), domain=("pipeline",)), ["DEC-PL-150", "DEC-PL-151"]),
    ("pipeline", Filters(types=("decisions",), status=("superseded",)), ["DEC-PL-150"]),
    # nonsense finds nothing
    ("xyzzy plugh", None, []),
    ("qqqq", None, []),
]


@pytest.mark.parametrize(("query", "filters", "expected"), RANKINGS)
def test_ranking(root: Path, query: str, filters: Filters | None, expected: list[str]) -> None:
    hits = search(root, query, filters).hits
    assert [h.id for h in hits] == expected


def test_index_and_memory_give_identical_results(root: Path) -> None:
    for query, filters, _ in RANKINGS:
        indexed = search(root, query, filters)
        memory = search(root, query, filters, use_index=False)
        assert [h.to_dict() for h in indexed.hits] == [h.to_dict() for h in memory.hits], query
        assert indexed.counts == memory.counts


def test_hit_shape_points_at_the_source(root: Path) -> None:
    hit = search(root, "GT-ORK-002").hits[0]
    keys = list(hit.to_dict())
    assert keys == ["type", "id", "title", "score", "matched_fields", "path", "line"]
    assert hit.path == "registries/truths/orkestra.yaml"
    lines = (root / "registries/truths/orkestra.yaml").read_text().splitlines()
    assert "GT-ORK-002" in lines[hit.line - 1]
    assert hit.matched_fields[0] == "id"  # "ork" also prefixes "orkestra" in the statement


def test_locations_match_the_registry_loader(root: Path) -> None:
    from orkestra.registry.loader import load
    from orkestra.search.service import all_documents

    registry = load(root)
    kinds = {"agents": "agent", "skills": "skill", "truths": "truth", "decisions": "decision"}
    kinds["scopes"] = "scope"
    docs = all_documents(root)
    checked = 0
    for doc in docs:
        kind = kinds.get(doc.type)
        if kind is None:
            continue
        location = registry.locations[(kind, doc.id)]
        assert (doc.path, doc.line) == (location.file, location.line), doc.id
        checked += 1
    expected = len(registry.agents) + len(registry.skills) + len(registry.truths)
    assert checked == expected + len(registry.decisions) + len(registry.scopes)


def test_limit_keeps_the_best(root: Path) -> None:
    full = search(root, "kubernetes").hits
    assert [h.id for h in search(root, "kubernetes", limit=2).hits] == [h.id for h in full[:2]]
    assert search(root, "kubernetes", limit=2).total == len(full)
