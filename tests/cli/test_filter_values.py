"""One rule for every filter of every list and search command (docs/cli.md "Filters"): a
repeated option (or comma-separated values) keeps the entries with any of its values, never only
the last one given; a value names its choice whatever its case, as the search filters always did
(`decisions list --status Active` was a usage error while `decisions search --status Active`
answered)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.core.choices import choices, values
from orkestra.core.errors import UsageError
from orkestra.registry.inventory import decisions_list, skills_list, truths_list
from orkestra.registry.loader import load
from tests.conftest import write
from tests.knowledge.helpers import note
from tests.registry.helpers import scaffold


def _record(root: Path, ident: str, domain: str, status: str, created: str) -> None:
    write(
        root,
        f"registries/decisions/records/{ident}.yaml",
        f"id: {ident}\ntitle: Record {ident}\ndomain: {domain}\nstatus: {status}\n"
        f"created: '{created}'\nsummary: Why {ident}.\nsource_commits: []\nfiles: []\n",
    )


@pytest.fixture
def decided(tmp_path: Path) -> Path:
    root = scaffold(tmp_path)
    write(
        root,
        "registries/decisions/registry.yaml",
        "domains:\n  architecture: AR\n  cli: CL\n  registry: RG\n",
    )
    _record(root, "DEC-CL-001", "cli", "active", "2026-01-02")
    _record(root, "DEC-RG-001", "registry", "proposed", "2026-01-03")
    _record(root, "DEC-RG-002", "registry", "deprecated", "2026-01-04")
    return root


def test_values_of_a_repeated_and_a_comma_separated_option_are_the_same() -> None:
    assert values(["cli", "registry"]) == values("cli,registry") == ("cli", "registry")
    assert values([" cli ,", "cli", ""]) == ("cli",)
    assert values(None) == ()


def test_choices_match_whatever_the_case_and_keep_the_registry_spelling() -> None:
    assert choices("--status", ["Active", "PROPOSED"], ("active", "proposed")) == (
        "active",
        "proposed",
    )
    with pytest.raises(UsageError) as caught:
        choices("--status", "open", ("active", "proposed"))
    assert caught.value.message == (
        "unknown --status 'open': --status must be one of active, proposed"
    )


def test_decisions_list_keeps_every_domain_given(decided: Path) -> None:
    rows = decisions_list(load(decided), domain=["cli", "registry"])
    assert [r["id"] for r in rows] == ["DEC-RG-002", "DEC-RG-001", "DEC-CL-001"]


def test_decisions_list_takes_statuses_and_domains_in_any_case(decided: Path) -> None:
    rows = decisions_list(load(decided), status=["Active", "PROPOSED"], domain="Registry,CLI")
    assert [r["id"] for r in rows] == ["DEC-RG-001", "DEC-CL-001"]


def test_truths_and_skills_lists_take_any_case(tmp_path: Path) -> None:
    reg = load(scaffold(tmp_path))
    assert truths_list(reg, status="CURRENT") == truths_list(reg, status="current") != []
    assert skills_list(reg, layer=["k0", "k4"]) == skills_list(reg, layer="K0,K4") != []
    assert skills_list(reg, source="CORE") == skills_list(reg, source="core") != []


@pytest.mark.parametrize(
    ("args", "ids"),
    [
        (("--domain", "cli", "--domain", "registry"), ["DEC-RG-002", "DEC-RG-001", "DEC-CL-001"]),
        (("--domain", "cli,registry"), ["DEC-RG-002", "DEC-RG-001", "DEC-CL-001"]),
        (
            ("--status", "Active", "--status", "Deprecated", "--domain", "cli,registry"),
            ["DEC-RG-002", "DEC-CL-001"],
        ),
        (("--domain", "REGISTRY", "--status", "proposed"), ["DEC-RG-001"]),
    ],
)
def test_decisions_list_and_search_answer_the_same_records(
    decided: Path, cli: Any, args: tuple[str, ...], ids: list[str]
) -> None:
    listed = cli("decisions", "list", *args, cwd=decided)
    found = cli("decisions", "search", *args, cwd=decided)
    assert listed.exit_code == 0 and found.exit_code == 0, listed.stderr + found.stderr
    assert [r["id"] for r in listed.json()["decisions"]] == ids
    assert sorted(r["id"] for r in found.json()["results"]) == sorted(ids)


def test_truths_list_and_search_both_take_an_upper_case_status(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path)
    listed = cli("truths", "list", "--status", "CURRENT", cwd=root)
    found = cli("truths", "search", "--status", "CURRENT", cwd=root)
    assert listed.exit_code == 0 and found.exit_code == 0, listed.stderr + found.stderr
    assert [r["id"] for r in listed.json()["truths"]] == [r["id"] for r in found.json()["results"]]


def test_an_unknown_value_is_the_same_usage_error_for_list_and_search(
    decided: Path, cli: Any
) -> None:
    listed = cli("decisions", "list", "--status", "active", "--status", "open", cwd=decided)
    found = cli("decisions", "search", "--status", "active", "--status", "open", cwd=decided)
    assert listed.exit_code == found.exit_code == 2
    assert "unknown --status 'open'" in listed.stderr
    assert listed.stderr == found.stderr


def test_notes_and_claims_lists_take_repeated_values_in_any_case(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path)
    note(root, "case", kind="glossary")
    note(root, "retry-storm", kind="gotcha", confidence="verified", verified_at="2026-01-01")
    note(root, "deploy", kind="recipe")
    rows = cli("notes", "list", "--type", "Glossary", "--type", "gotchas", cwd=root)
    assert rows.exit_code == 0, rows.stderr
    assert sorted(n["name"] for n in rows.json()["notes"]) == ["case", "retry-storm"]
    verified = cli("notes", "list", "--confidence", "VERIFIED", cwd=root)
    assert [n["name"] for n in verified.json()["notes"]] == ["retry-storm"]
    write(
        root,
        "knowledge/claims/2026-01-01-x.json",
        '{"insights": ['
        '{"id": "CL-00000001", "statement": "Retries need jitter.", "category": "technical",'
        ' "confidence": "low", "seen_count": 1, "first_seen": "2026-01-01",'
        ' "last_seen": "2026-01-01", "sources": ["demo"], "context": "", "tags": []},'
        '{"id": "CL-00000002", "statement": "Use the lock helper.", "category": "tool",'
        ' "confidence": "high", "seen_count": 4, "first_seen": "2026-01-01",'
        ' "last_seen": "2026-01-01", "sources": ["demo"], "context": "", "tags": []}]}\n',
    )
    claims = cli("learn", "list", "--confidence", "High", "--confidence", "low", cwd=root)
    assert claims.exit_code == 0, claims.stderr
    assert sorted(c["id"] for c in claims.json()["claims"]) == ["CL-00000001", "CL-00000002"]
    tools = cli("learn", "list", "--category", "TOOL", cwd=root)
    assert [c["id"] for c in tools.json()["claims"]] == ["CL-00000002"]
