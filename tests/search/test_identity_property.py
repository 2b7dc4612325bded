"""Property: for any query, the index answers exactly what a fresh read of the sources answers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orkestra.search.service import search
from tests.search.conftest import FIXTURE

WORDS = [
    "kubernetes",
    "pipeline",
    "postgres",
    "duckdb",
    "search",
    "index",
    "schema",
    "migration",
    "agents",
    "release",
    "GT-ORK-001",
    "DEC-PL-142",
    "helm",
    "pdf",
    "the",
    "of",
    "idempotent",
    "cluster",
    "deploy",
    "orkestra",
    "canonical",
    "database",
    "evidence",
    "zzz",
    "42",
]


def _typo(word: str, position: int) -> str:
    if len(word) < 3:
        return word
    i = position % (len(word) - 1)
    return word[:i] + word[i + 1] + word[i] + word[i + 2 :]  # swap two letters


query_strategy = st.lists(
    st.tuples(st.sampled_from(WORDS), st.integers(0, 20), st.booleans()), min_size=1, max_size=4
).map(lambda parts: " ".join(_typo(w, p) if t else w for w, p, t in parts))


@pytest.fixture(scope="module")
def shared_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("identity") / "proj"
    shutil.copytree(FIXTURE, target)
    return target


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=query_strategy)
def test_index_equals_fresh_read(shared_root: Path, query: str) -> None:
    indexed = search(shared_root, query)
    memory = search(shared_root, query, use_index=False)
    assert [h.to_dict() for h in indexed.hits] == [h.to_dict() for h in memory.hits]
    assert indexed.counts == memory.counts
