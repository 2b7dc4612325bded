"""The warm search tables (`search.warm`): the same hits as the index, and dropped on a change."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from orkestra.search import index, service
from orkestra.search.rank import Filters
from orkestra.search.warm import WarmState
from tests.search.relevance import evaluate


@pytest.fixture(scope="module")
def market(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("warm") / "proj"
    evaluate.write_marketplace(root)
    return root


def _answer(ranking: service.Ranking) -> tuple[list[tuple[str, str, float]], dict[str, int]]:
    return [(h.type, h.id, h.score) for h in ranking.hits], dict(ranking.counts)


def test_warm_tables_give_the_hits_of_the_index(market: Path) -> None:
    conn = index.open_index(market)
    assert conn is not None
    warm = WarmState()
    queries = [q for splits in evaluate.query_sets().values() for rows in splits.values()
               for q, _ in rows]  # fmt: skip
    queries += ["writes", "writes the", "kuberntes", "release notes changelog", "design"]
    for query in queries:
        for limit, types in ((20, ()), (3, ()), (None, ()), (5, ("skills",))):
            filters = Filters(types=types)
            cold = service.search_open(conn, query, filters, limit=limit)
            # twice: the second answer comes from the tables the first one filled
            for _ in range(2):
                got = service.search_open(conn, query, filters, limit=limit, warm=warm)
                assert _answer(got) == _answer(cold), (query, limit, types)
    conn.close()


def _add_agent(root: Path, name: str, description: str) -> None:
    doc = {"name": name, "description": description, "category": "business"}
    path = root / "registries" / "agents" / f"{name}.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")


@pytest.mark.parametrize("by", ["another connection", "this connection"])
def test_warm_tables_are_dropped_when_the_index_changes(tmp_path: Path, by: str) -> None:
    root = tmp_path / "proj"
    evaluate.write_marketplace(root)
    conn = index.open_index(root)
    assert conn is not None
    warm = WarmState()
    before = service.search_open(conn, "kafka", limit=5, warm=warm)
    assert "zz-kafka-whisperer" not in [h.id for h in before.hits]
    _add_agent(root, "zz-kafka-whisperer", "Kafka kafka kafka: topics, kafka consumers.")
    if by == "another connection":
        other = index.open_index(root)  # refreshes and commits from its own connection
        assert other is not None
        other.close()
    else:
        index.refresh(conn, root)
    after = service.search_open(conn, "kafka", limit=5, warm=warm)
    assert after.total == before.total + 1
    assert "zz-kafka-whisperer" in [h.id for h in after.hits]
    assert _answer(after) == _answer(service.search_open(conn, "kafka", limit=5))
    conn.close()


def _settle(root: Path) -> None:
    """Every source older than the racy window: an index built now is not written again when
    opened a little later (a slow rebuild on a loaded machine would outlast the window)."""
    import os
    import time

    past = time.time() - 60
    for path in [root, *root.rglob("*")]:
        if ".orkestra" not in path.relative_to(root).parts:
            os.utime(path, (past, past), follow_symlinks=False)


def test_warm_tables_are_dropped_for_another_connection(tmp_path: Path) -> None:
    # the MCP server opens a new connection when its index was deleted or damaged under it: a
    # new connection that has not written starts at the same data_version and total_changes as
    # the old one did, and the old tables (other documents, other refs) answered for it
    root = tmp_path / "proj"
    evaluate.write_marketplace(root)
    _settle(root)
    conn = index.open_index(root)
    assert conn is not None
    warm = WarmState()
    stamp = (conn.execute("PRAGMA data_version").fetchone()[0], conn.total_changes)
    before = service.search_open(conn, "kafka", limit=5, warm=warm)
    conn.close()
    index.index_path(root).unlink()
    _add_agent(root, "zz-kafka-whisperer", "Kafka kafka kafka: topics, kafka consumers.")
    _settle(root)
    index.rebuild(root, seen=None)
    fresh = index.open_index(root)
    assert fresh is not None
    assert (fresh.execute("PRAGMA data_version").fetchone()[0], fresh.total_changes) == stamp
    after = service.search_open(fresh, "kafka", limit=5, warm=warm)
    assert after.total == before.total + 1
    assert _answer(after) == _answer(service.search_open(fresh, "kafka", limit=5))
    fresh.close()


def test_warm_ties_keep_the_index_order(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    evaluate.write_marketplace(root)
    for number in reversed(range(12)):  # written last first: refs run against the ids
        _add_agent(root, f"tie-agent-{number:02}", "Feeds the zebrafish in the lab tanks.")
    conn = index.open_index(root)
    assert conn is not None
    warm = WarmState()
    for limit in (3, 7, None):
        cold = service.search_open(conn, "zebrafish", limit=limit)
        assert [h.id for h in cold.hits][:3] == ["tie-agent-00", "tie-agent-01", "tie-agent-02"]
        assert _answer(service.search_open(conn, "zebrafish", limit=limit, warm=warm)) == _answer(
            cold
        )
    conn.close()


def test_a_warm_search_keeps_rapidfuzz_loaded() -> None:
    """The plain-Python fuzzy scorer is for one-off runs; a warm process scores with rapidfuzz."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from orkestra.retrieval import indel\n"
        "from orkestra.search.warm import WarmState\n"
        "assert indel.preferred(1, 10)\n"
        "WarmState()\n"
        "assert not indel.preferred(1, 10)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
