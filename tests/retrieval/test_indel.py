"""`retrieval.indel` gives rapidfuzz's scores bit for bit, so the small-input path of `search`
ranks exactly as rapidfuzz would."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz, utils

from orkestra.retrieval import indel, names

_ASCII = st.text(alphabet=st.sampled_from("abcde xyz-_.01K\t"), max_size=24)


@settings(max_examples=500, deadline=None)
@given(_ASCII, _ASCII)
def test_token_set_ratio_and_processing_are_rapidfuzz_s(a: str, b: str) -> None:
    assert indel.default_process(a) == utils.default_process(a)
    for cutoff in (0.0, names.MIN_SIMILARITY):
        mine = indel.token_set_ratio(indel.default_process(a), indel.default_process(b), cutoff)
        theirs = fuzz.token_set_ratio(a, b, processor=utils.default_process, score_cutoff=cutoff)
        assert mine == theirs


@settings(max_examples=150, deadline=None)
@given(_ASCII, st.dictionaries(st.text("0123456789", min_size=1, max_size=3), _ASCII, max_size=25))
def test_names_rank_is_the_same_below_and_above_the_size_limit(
    query: str, table: dict[str, str]
) -> None:
    kept = indel.preferred
    try:
        indel.preferred = lambda count, limit: True  # type: ignore[assignment]
        mine = names.rank(query, table, 10)
        indel.preferred = lambda count, limit: False  # type: ignore[assignment]
        assert names.rank(query, table, 10) == mine
    finally:
        indel.preferred = kept  # type: ignore[assignment]


def test_plain_python_only_while_rapidfuzz_is_not_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    assert not indel.preferred(names.SMALL + 1, names.SMALL)
    monkeypatch.delitem(sys.modules, "rapidfuzz")
    assert indel.preferred(names.SMALL, names.SMALL)
    monkeypatch.setitem(sys.modules, "rapidfuzz", object())
    assert not indel.preferred(1, names.SMALL)


def test_non_ascii_names_go_to_rapidfuzz() -> None:
    table = {"1": "déployer kubernetes", "2": "deploy kubernetes", "3": "unrelated"}
    assert [key for key, _ in names.rank("deploy kubernetes", table, 5)] == ["2", "1"]
