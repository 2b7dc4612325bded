"""The retrieval core: weighted RRF (k = 40), centrality boost, path demotion, renormalisation."""

from __future__ import annotations

import math

import pytest

from orkestra.retrieval import fusion
from orkestra.retrieval.fusion import Hit


def hits(*paths: str, centrality: float = 0.0) -> list[Hit]:
    return [Hit(p, p, 1, f"in {p}", centrality=centrality) for p in paths]


def test_weighted_rrf_sums_weight_over_k_plus_rank_plus_one() -> None:
    fused = fusion.weighted_rrf({"a": hits("x", "y"), "b": hits("y")}, {"a": 0.5, "b": 0.5})
    assert [h.key for h in fused] == ["y", "x"]
    assert fused[0].score == pytest.approx(round(0.5 / 42 + 0.5 / 41, 6))
    assert fused[1].score == pytest.approx(round(0.5 / 41, 6))
    assert fused[0].sources == ("a", "b")


def test_a_retriever_votes_once_per_key_at_its_best_rank() -> None:
    fused = fusion.weighted_rrf({"a": hits("x", "x", "y")}, {"a": 1.0})
    assert [h.score for h in fused] == [round(1 / 41, 6), round(1 / 43, 6)]


def test_centrality_boost_is_capped() -> None:
    assert fusion.centrality_boost(0) == 1.0
    assert fusion.centrality_boost(1) == pytest.approx(1 + 0.3 * math.log(2))
    assert fusion.centrality_boost(1e9) == 1.5
    fused = fusion.weighted_rrf(
        {"a": [*hits("plain"), *hits("central", centrality=20.0)]}, {"a": 1.0}
    )
    assert [h.key for h in fused] == ["central", "plain"]


def test_vendor_build_and_archive_paths_are_demoted() -> None:
    assert fusion.is_demoted("vendor/lib/x.py")
    assert fusion.is_demoted("web/node_modules/a/index.js")
    assert fusion.is_demoted("archive/old.py")
    assert not fusion.is_demoted("src/vendor.py")  # a file name, not a folder
    fused = fusion.weighted_rrf({"a": hits("vendor/x.py", "src/x.py")}, {"a": 1.0})
    assert [h.key for h in fused] == ["src/x.py", "vendor/x.py"]


def test_weights_renormalise_over_the_retrievers_present() -> None:
    profile = {"semantic": 0.5, "text": 0.2, "structural": 0.2, "graph": 0.1}
    got = fusion.renormalise(profile, ["text", "structural", "graph"])
    assert got == pytest.approx({"text": 0.4, "structural": 0.4, "graph": 0.2})
    assert fusion.renormalise({"semantic": 1.0}, ["text"]) == {"text": 0.0}


def test_zero_weight_retrievers_do_not_vote_and_limit_applies() -> None:
    fused = fusion.weighted_rrf({"a": hits("x"), "b": hits("y", "z")}, {"a": 1, "b": 0}, limit=5)
    assert [h.key for h in fused] == ["x"]


def test_direct_keeps_one_hit_per_key_in_order() -> None:
    got = fusion.direct(hits("x", "x", "y"), limit=1, source="structural")
    assert [(h.key, h.sources) for h in got] == [("x", ("structural",))]
    assert fusion.dominant({"text": 0.1, "graph": 0.7}) == "graph"
    assert fusion.dominant({"text": 0.0}) is None


def test_bm25_ranks_rare_words_and_short_documents_first() -> None:
    from orkestra.retrieval.bm25 import BM25

    index = BM25(
        [
            ("a.py", "parse the ledger ledger file"),
            ("b.py", "the the the parse"),
            ("c.py", "render templates " + "filler " * 50 + "ledger"),
        ]
    )
    assert [h.key for h in index.search("ledger", 10)] == ["a.py", "c.py"]
    assert [h.key for h in index.search("the parse", 1)] == ["b.py"]
    assert index.search("absent", 5) == []
