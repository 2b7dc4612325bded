"""Properties: parsing never fails, and ledger readers do not depend on line order."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from orkestra.mining.conventional import parse
from orkestra.registry import ledger
from orkestra.registry.ledger_check import check


@given(st.text(max_size=80), st.text(max_size=300))
@settings(max_examples=200, deadline=None)
def test_parse_never_fails(subject: str, body: str) -> None:
    parsed = parse(subject.replace("\n", " "), body)
    assert parsed.type is None or parsed.type == parsed.type.lower()


ENTRIES = [
    {
        "id": "a",
        "ts": "t",
        "sha": "a" * 40,
        "domain": "changelog",
        "action": "release",
        "category": "added",
    },
    {
        "id": "b",
        "ts": "t",
        "sha": "a" * 40,
        "domain": "changelog",
        "action": "release",
        "category": "fixed",
        "supersedes": "a",
    },
    {"id": "c", "ts": "t", "sha": "b" * 40, "domain": "changelog", "action": "skip", "reason": "x"},
    {"id": "d", "ts": "t", "sha": "b" * 40, "domain": "decisions", "action": "skip", "reason": "x"},
]

#: the release note of the current release classification (a release without one is a finding)
NOTE = {"id": "n", "ts": "t", "sha": "a" * 40, "package": "p", "category": "fixed", "summary": "s"}
NOTE["classification"] = "b"


@given(st.permutations(ENTRIES))
@settings(max_examples=30, deadline=None)
def test_line_order_does_not_matter(
    tmp_path_factory: pytest.TempPathFactory, order: list[dict[str, str]]
) -> None:
    root = tmp_path_factory.mktemp("ledger")
    path = root / ledger.CLASSIFICATIONS
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(e) + "\n" for e in order), encoding="utf-8")
    (root / ledger.RELEASE_NOTES).write_text(json.dumps(NOTE) + "\n", encoding="utf-8")
    current = ledger.by_domain(ledger.entries(path))
    assert {sha: [e["id"] for e in v] for sha, v in current["changelog"].items()} == {
        "a" * 40: ["b"],
        "b" * 40: ["c"],
    }
    assert check(root, set(), None) == []
