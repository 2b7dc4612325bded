"""`retrieval.indel` gives rapidfuzz's scores bit for bit, so the small-input path of `search`
ranks exactly as rapidfuzz would."""

from __future__ import annotations

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
    small = names.rank(query, table, 10)
    kept = names.SMALL
    names.SMALL = -1  # every table through rapidfuzz
    try:
        assert names.rank(query, table, 10) == small
    finally:
        names.SMALL = kept


def test_non_ascii_names_go_to_rapidfuzz() -> None:
    table = {"1": "déployer kubernetes", "2": "deploy kubernetes", "3": "unrelated"}
    assert [key for key, _ in names.rank("deploy kubernetes", table, 5)] == ["2", "1"]
