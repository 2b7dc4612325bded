"""Relevance on the fixture marketplace (issue 18): held-out thresholds, typos, noise.

The numbers and the per-retriever table are printed by `benchmarks/bench_relevance.py`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from orkestra.search.service import search
from tests.search.relevance import evaluate

#: recall@5 and MRR measured with the search of before the retrieval core (commit 525a1d4), on
#: these sets: keyword queries must not fall below them
KEYWORD_BEFORE = {"dev": (0.90, 0.88), "held": (0.95, 0.95)}
#: the blind held-out task-shaped questions (third round, `held`): issue 18's targets
TASK_HELD = (0.90, 0.75)
#: the second-round held-out questions (their misses were seen once before the concept table grew,
#: so not blind): what the search reaches now, below the targets (0.64 / 0.48 before)
TASK_HELD_2 = (0.77, 0.70)


@pytest.fixture(scope="module")
def market(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("market") / "proj"
    assert evaluate.write_marketplace(root) == 242
    return root


@pytest.mark.parametrize("split", ["dev", "held"])
def test_keyword_queries_do_not_regress(market: Path, split: str) -> None:
    got = evaluate.measure(market, evaluate.query_sets()["keyword"][split])
    recall, mrr = KEYWORD_BEFORE[split]
    assert (got.recall, got.mrr) >= (recall, mrr), got.misses
    assert got.empty == 0


def test_held_out_task_questions(market: Path) -> None:
    got = evaluate.measure(market, evaluate.query_sets()["task"]["held"])
    assert got.recall >= TASK_HELD[0], got.misses
    assert got.mrr >= TASK_HELD[1], got.misses
    assert got.empty == 0  # relaxation: no real question goes unanswered


def test_second_round_task_questions(market: Path) -> None:
    got = evaluate.measure(market, evaluate.query_sets()["task"]["held-2"])
    assert (got.recall, got.mrr) >= TASK_HELD_2, got.misses
    assert got.empty == 0


def test_fusion_beats_each_retriever_alone_on_questions(market: Path) -> None:
    rows = evaluate.query_sets()["task"]["dev"]
    fused = evaluate.measure(market, rows)
    for name in ("fields", "bm25", "names"):
        alone = evaluate.measure(market, rows, retrievers=(name,))
        assert fused.mrr >= alone.mrr, name


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("custmer support", "customer-support"),
        ("kuberntes architect", "kubernetes-architect"),
        ("postmortm", "postmortem-writer"),
        ("terraform specilist", "terraform-specialist"),
    ],
)
def test_typos_are_tolerated(market: Path, query: str, expected: str) -> None:
    assert expected in [h.id for h in search(market, query, limit=5).hits]


@pytest.mark.parametrize("query", ["qwxz plumbfrizzle", "zzqv", "frobnicate the wuggle quux"])
def test_noise_returns_nothing(market: Path, query: str) -> None:
    ranking = search(market, query)
    assert ranking.hits == []
    assert ranking.total == 0


def test_a_customer_question_finds_customer_support_first(market: Path) -> None:
    hits = search(market, "a customer wants a refund for a double charge", limit=3).hits
    assert hits[0].id == "customer-support"


def test_relaxed_hits_are_ranked_by_coverage(market: Path) -> None:
    # no entry holds all of these words; the one covering most of them comes first
    hits = search(market, "stripe webhooks idempotently quarterly").hits
    assert hits and hits[0].id == "stripe-webhooks"
    assert search(market, "stripe webhooks idempotently quarterly").total == len(hits)
