"""The synonym table (src/orkestra/search/synonyms.json): one test per group, and its weight."""

from __future__ import annotations

from pathlib import Path

import pytest

from orkestra.search import synonyms
from orkestra.search.corpus import MemoryCorpus
from orkestra.search.document import Document
from orkestra.search.rank import rank
from orkestra.search.weights import build

GROUPS = synonyms.groups()


def agent(name: str, description: str) -> Document:
    values = {"name": name, "description": description}
    return build("agents", name, description, f"registries/agents/{name}.yaml", 1, values)


@pytest.mark.parametrize("group", GROUPS, ids=[" ".join(g[0]) for g in GROUPS])
def test_each_group_finds_an_entry_through_another_member(
    group: tuple[tuple[str, ...], ...],
) -> None:
    asked, other = " ".join(group[0]), " ".join(group[-1])
    docs = [
        agent("synonym-holder", f"Works on {other} for the team"),
        agent("aaa-helper", "Paints fences for the team"),
    ]
    # the asked word is in no document and both hold "team" (a tie goes to `aaa-helper`): only
    # the synonym puts the holder first
    hits = rank(MemoryCorpus(docs), f"{asked} team").hits
    assert [h.id for h in hits][:1] == ["synonym-holder"], (asked, other)


def test_expansion_weighs_less_than_the_word_asked() -> None:
    docs = [
        agent("kubernetes-operator", "Runs the kubernetes clusters"),
        agent("k8s-operator", "Runs the k8s clusters"),
    ]
    # "nightly" is in neither: relaxed; both cover "clusters", one says "k8s", one its synonym
    hits = rank(MemoryCorpus(docs), "k8s clusters nightly").hits
    assert [h.id for h in hits] == ["k8s-operator", "kubernetes-operator"]
    assert hits[1].score < 0.8 * hits[0].score


def test_expand_lists_the_other_members_only() -> None:
    assert ("kubernetes",) in synonyms.expand(["k8s"])
    assert ("k8s",) not in synonyms.expand(["k8s"])
    assert synonyms.expand(["plumbfrizzle"]) == []


def test_every_group_has_distinct_members() -> None:
    for group in GROUPS:
        assert len(set(group)) == len(group) >= 2, group


@pytest.mark.parametrize(
    ("word", "expected"),
    [("signed", "sign"), ("logging", "log"), ("makes", "make"), ("crashes", "crash"),
     ("queries", "query"), ("called", "call"), ("process", "process"), ("slow", "slow")],
)  # fmt: skip
def test_stem_removes_inflections_only(word: str, expected: str) -> None:
    assert synonyms.stem(word) == expected


def test_an_inflected_query_reaches_its_group() -> None:
    # "signed out" is the member "sign out"; "makes up" is "make up"
    assert ("logout",) in synonyms.expand(["users", "keep", "getting", "signed", "out"])
    assert ("hallucinate",) in synonyms.expand(["the", "bot", "makes", "up", "answers"])


def test_filler_words_do_not_break_a_member() -> None:
    # "the website is down" holds the member "website down" once "is" is skipped
    found = synonyms.expand_at(["the", "website", "is", "down"])
    assert any(("outage",) in others and span == range(1, 4) for span, others in found)
    assert synonyms.expand(["website", "not", "down"]) == []


def test_a_phrase_member_credits_the_words_it_spans() -> None:
    docs = [
        agent("session-helper", "Renews sessions before they expire"),
        agent("aaa-lister", "Lists users and teams"),
    ]
    # relaxed (no entry holds every word): "signed out" covers "signed" through its group
    # ("session"), so the session entry is not dropped for covering none of the query
    ids = [h.id for h in rank(MemoryCorpus(docs), "users signed out weekly").hits]
    assert "session-helper" in ids


def test_question_filler_verbs_are_stop_words() -> None:
    from orkestra.search.text import query_words

    assert query_words("we need the logs to keep getting rotated") == ["logs", "rotated"]
    assert query_words("keep getting") == ["keep", "getting"]  # nothing else: kept


def test_a_broken_table_is_an_error_naming_the_group_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.core.errors import InputError

    table = tmp_path / "synonyms.json"
    table.write_text(
        '{"groups": {\n  "ops": [\n    ["k8s", "kubernetes"],\n    ["lonely"]\n  ]\n}}\n'
    )
    monkeypatch.setattr(synonyms, "TABLE", table)
    synonyms.groups.cache_clear()
    try:
        with pytest.raises(InputError) as caught:
            synonyms.groups()
    finally:
        synonyms.groups.cache_clear()
    assert caught.value.line == 4 and "at least two words" in caught.value.message


def test_search_reads_the_table_without_a_yaml_parser() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from orkestra.search import synonyms; synonyms.groups(); "
        "print('yaml' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
