"""The scoring formula on small hand-made corpora (no files)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from orkestra.retrieval import indel
from orkestra.search import scoring
from orkestra.search.corpus import MemoryCorpus
from orkestra.search.document import Document
from orkestra.search.rank import rank
from orkestra.search.text import exact_key, query_words, tokens
from orkestra.search.weights import build


def truth(ident: str, statement: str, rationale: str = "", tags: tuple[str, ...] = ()) -> Document:
    values = {"id": ident, "statement": statement, "rationale": rationale, "tags": list(tags)}
    return build("truths", ident, statement, "registries/truths/t.yaml", 1, values)


def decision(ident: str, title: str, context: str = "") -> Document:
    values = {"id": ident, "title": title, "context": context}
    return build("decisions", ident, title, f"registries/decisions/records/{ident}.yaml", 1, values)


def ids(docs: list[Document], query: str) -> list[str]:
    return [h.id for h in rank(MemoryCorpus(docs), query).hits]


def test_tokens_split_ids_and_fold_case() -> None:
    assert tokens("DEC-PL-142 schema_migration Ünïcode") == [
        "dec",
        "pl",
        "142",
        "schema",
        "migration",
        "ünïcode",
    ]
    assert query_words("the cache of the index") == ["cache", "index"]
    assert query_words("the") == ["the"]
    assert exact_key("DEC PL 142") == exact_key("dec-pl-142")


def test_id_match_beats_a_rationale_mention() -> None:
    docs = [
        truth("GT-AB-002", "Other things", rationale="Unlike GT-AB-001 this one is soft"),
        truth("GT-AB-001", "Caches are derived"),
    ]
    assert ids(docs, "GT-AB-001") == ["GT-AB-001", "GT-AB-002"]
    assert ids(docs, "AB 001") == ["GT-AB-001", "GT-AB-002"]


def test_word_in_title_beats_the_same_word_deep_in_a_body() -> None:
    body = "Long context. " * 50 + "We considered kafka once."
    docs = [
        decision("DEC-AA-001", "Logging format", context=body),
        decision("DEC-AA-002", "Adopt kafka"),
    ]
    assert ids(docs, "kafka") == ["DEC-AA-002", "DEC-AA-001"]


def test_all_words_beat_some_words() -> None:
    docs = [
        decision("DEC-AA-001", "Queue retries"),
        decision("DEC-AA-002", "Queue retries with backoff"),
        decision("DEC-AA-003", "Backoff"),
    ]
    assert ids(docs, "queue backoff") == ["DEC-AA-002"]  # every word must match
    # none matches all four: relaxed, the documents covering most of the query first
    assert ids(docs, "queue retries backoff jitter") == ["DEC-AA-002", "DEC-AA-001"]


def test_typos_prefixes_and_the_floor() -> None:
    docs = [decision("DEC-AA-001", "Run on kubernetes"), decision("DEC-AA-002", "Unrelated")]
    assert ids(docs, "kuberntes") == ["DEC-AA-001"]
    assert ids(docs, "kubern") == ["DEC-AA-001"]
    assert ids(docs, "zzzzzz") == []
    assert ids(docs, "ku") == []  # too short for a prefix match


def test_fuzzy_is_weaker_than_prefix_and_exact() -> None:
    assert scoring.prefix_quality("kube", "kube") == scoring.EXACT
    assert scoring.prefix_quality("kube", "kubernetes") == scoring.PREFIX
    fuzzy = scoring.fuzzy_terms("kuberntes", ["kubernetes", "unrelated"])
    assert list(fuzzy) == ["kubernetes"]
    assert 0.48 <= fuzzy["kubernetes"] < scoring.PREFIX
    assert scoring.fuzzy_terms("12345", ["12346"]) == {}  # numbers never fuzzy-match


def test_weak_matches_stay_below_the_floor() -> None:
    # a typo in a weight-1 field scores 0.6 x ratio < 1.0
    doc = build(
        "agents", "a", "a", "registries/agents/a.yaml", 1, {"name": "a", "prompt": "kubernetes"}
    )
    assert ids([doc], "kuberntes") == []
    assert ids([doc], "kubernetes") == ["a"]  # an exact word passes in any field


def test_ties_are_broken_by_type_then_id() -> None:
    docs = [truth("GT-AB-002", "Same words"), truth("GT-AB-001", "Same words")]
    assert ids(docs, "same words") == ["GT-AB-001", "GT-AB-002"]


def test_score_formula_by_hand() -> None:
    # one word, exact in the title (5) and in the context (3): 5 + 0.1 * 3
    docs = [decision("DEC-AA-001", "Adopt kafka", context="kafka everywhere")]
    hit = rank(MemoryCorpus(docs), "kafka").hits[0]
    # the fields retriever's score of it (id 6, title 5, context 3); the hit shows the fused one
    assert scoring.score({1: [1.0], 2: [1.0]}, [6.0, 5.0, 3.0], 1, False) == pytest.approx(5.3)
    assert hit.matched_fields == ("title", "context")


_WORDS = st.text(alphabet=st.sampled_from("abcdeé漢kubernets"), max_size=16)


@settings(max_examples=400, deadline=None)
@given(_WORDS, _WORDS)
def test_the_small_pool_ratio_is_rapidfuzz_ratio_exactly(a: str, b: str) -> None:
    from rapidfuzz import fuzz

    assert indel.ratio(a, b) == fuzz.ratio(a, b)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="abcdekrt", min_size=4, max_size=9), st.lists(_WORDS, max_size=30))
def test_a_small_pool_and_rapidfuzz_find_the_same_neighbours(word: str, pool: list[str]) -> None:
    kept = indel.preferred
    try:
        indel.preferred = lambda count, limit: True  # type: ignore[assignment]
        mine = scoring.fuzzy_terms(word, pool)
        indel.preferred = lambda count, limit: False  # type: ignore[assignment]
        assert scoring.fuzzy_terms(word, pool) == mine
    finally:
        indel.preferred = kept  # type: ignore[assignment]
