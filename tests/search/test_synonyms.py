"""The synonym table (src/orkestra/search/synonyms.yaml): one test per group, and its weight."""

from __future__ import annotations

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
