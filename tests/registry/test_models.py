"""Every §3 rule, with a passing and a failing case, through the real loader."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from orkestra.registry.models import (
    Agent,
    ClassificationEntry,
    Config,
    DecisionRecord,
    TruthStatement,
)
from tests.conftest import write
from tests.registry.helpers import codes, edit, findings, scaffold

AGENT = "registries/agents/example-agent.yaml"
SKILL = "registries/skills/project/example-skill.yaml"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return scaffold(tmp_path / "proj")


def test_scaffold_is_clean(root: Path) -> None:
    assert findings(root) == []


@pytest.mark.parametrize(
    "name", ["Upper", "double--hyphen", "-lead", "trail-", "a/b", "../x", "x" * 65, ""]
)
def test_bad_agent_names_rejected(name: str) -> None:
    with pytest.raises(ValidationError):
        Agent(name=name, description="d")


@pytest.mark.parametrize("name", ["a", "registry-maintainer", "k8s-ops", "x" * 64])
def test_good_agent_names(name: str) -> None:
    assert Agent(name=name, description="d").model == "inherit"


def test_unsafe_name_cannot_reach_the_filesystem(root: Path) -> None:
    write(root, "registries/agents/evil.yaml", "name: ../../etc/passwd\ndescription: x\n")
    found = [f for f in findings(root) if f.file.endswith("evil.yaml")]
    assert [(f.code, f.line) for f in found] == [("ORK002", 1)]


def test_name_must_equal_file_stem(root: Path) -> None:
    write(root, "registries/agents/other.yaml", "name: example-agent\ndescription: x\n")
    found = [f for f in findings(root) if f.file.endswith("other.yaml")]
    assert [(f.code, f.line) for f in found] == [("ORK003", 1)]


def test_unknown_key_points_at_its_line(root: Path) -> None:
    path = root / AGENT
    path.write_text(path.read_text(encoding="utf-8") + "colour: blue\n", encoding="utf-8")
    (finding,) = [f for f in findings(root) if f.code == "ORK002"]
    assert finding.file == AGENT and "unknown key 'colour'" in finding.message
    assert finding.line == len(path.read_text(encoding="utf-8").splitlines())


def test_agent_field_rules() -> None:
    with pytest.raises(ValidationError, match="replaced_by"):
        Agent(name="a", description="d", status="deprecated")
    assert (
        Agent(name="a", description="d", status="deprecated", reason="merged").status
        == "deprecated"
    )
    with pytest.raises(ValidationError):
        Agent(name="a", description="d", color="magenta")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        Agent(name="a", description="d", role="boss")  # type: ignore[arg-type]
    assert Agent(name="a", description="d", model="claude-sonnet-4-5").model == "claude-sonnet-4-5"


def test_specialist_with_agent_tool_is_an_error(root: Path) -> None:
    edit(root, AGENT, tools=["Read", "Agent"])
    assert "ORK042" in codes(root)
    edit(root, AGENT, role="orchestrator")
    assert "ORK042" not in codes(root)


def test_skill_layer_must_match_tier(root: Path) -> None:
    target = root / "registries/skills/stacks/example-skill.yaml"
    target.parent.mkdir(parents=True)
    (root / SKILL).rename(target)
    found = [f for f in findings(root) if f.code == "ORK040"]
    assert found and found[0].file.endswith("stacks/example-skill.yaml") and found[0].line > 1


def test_unknown_tier_folder(root: Path) -> None:
    write(root, "registries/skills/misc/x.yaml", "a: 1\n")
    assert "ORK004" in codes(root)


def test_skill_identifier_must_equal_name_and_stem(root: Path) -> None:
    text = (
        (root / SKILL)
        .read_text(encoding="utf-8")
        .replace("identifier: example-skill", "identifier: other")
    )
    (root / SKILL).write_text(text, encoding="utf-8")
    assert "ORK003" in codes(root)


def test_skill_quality_gates_are_warnings(root: Path) -> None:
    text = (root / SKILL).read_text(encoding="utf-8")
    text = text.replace(
        "description: Example workflow skill. Use when you want to see the shape of a skill before writing one.",
        "description: Too short.",
    )
    text = text.replace("- title: Recovery", "- title: Aftercare")
    (root / SKILL).write_text(text, encoding="utf-8")
    found = {f.code: f.severity for f in findings(root)}
    assert found == {"ORK101": "warning", "ORK102": "warning", "ORK103": "warning"}


def test_description_over_hard_limit_is_an_error(root: Path) -> None:
    text = (root / SKILL).read_text(encoding="utf-8")
    long = "Use when testing. " + "x" * 1100
    text = text.replace(
        "Example workflow skill. Use when you want to see the shape of a skill before writing one.",
        long,
    )
    (root / SKILL).write_text(text, encoding="utf-8")
    assert {f.code: f.severity for f in findings(root)}.get("ORK044") == "error"


def test_missing_resources_folder(root: Path) -> None:
    path = root / SKILL
    path.write_text(
        path.read_text(encoding="utf-8") + "resources: example-skill/\n", encoding="utf-8"
    )
    assert "ORK041" in codes(root)
    (path.parent / "example-skill").mkdir()
    assert "ORK041" not in codes(root)
    text = path.read_text(encoding="utf-8").replace(
        "resources: example-skill/", "resources: ../../../x/"
    )
    path.write_text(text, encoding="utf-8")
    assert "ORK002" in codes(root)


def test_truth_rules() -> None:
    base = {"id": "GT-ORK-001", "status": "current", "statement": "s"}
    assert TruthStatement(**base).scope == "package"  # type: ignore[arg-type]
    for bad in (
        {"id": "GT-O-001"},
        {"id": "GT-ORK-01"},
        {"status": "maybe"},
        {"last_verified": "26-01-01"},
        {"last_verified": "2026-02-30"},
        {"status": "deprecated"},
    ):
        with pytest.raises(ValidationError):
            TruthStatement(**{**base, **bad})  # type: ignore[arg-type]
    assert TruthStatement(**{**base, "status": "deprecated", "superseded_by": "GT-ORK-002"})  # type: ignore[arg-type]


def test_truth_ids_unique_across_files(root: Path) -> None:
    src = root / "registries/truths/project.yaml"
    write(root, "registries/truths/other.yaml", src.read_text(encoding="utf-8"))
    dup = [f for f in findings(root) if f.code == "ORK010"]
    assert len(dup) == 1 and "GT-PRJ-001" in dup[0].message
    both = f"{dup[0].file} {dup[0].message}"
    assert "registries/truths/other.yaml" in both and "registries/truths/project.yaml" in both


def test_decision_rules() -> None:
    base = {
        "id": "DEC-AR-001",
        "title": "t",
        "domain": "architecture",
        "status": "active",
        "created": "2026-01-01",
    }
    assert DecisionRecord(**base).id == "DEC-AR-001"  # type: ignore[arg-type]
    for bad in (
        {"id": "DEC-A-001"},
        {"id": "ADR-001"},
        {"status": "superseded"},
        {"created": "yesterday"},
    ):
        with pytest.raises(ValidationError):
            DecisionRecord(**{**base, **bad})  # type: ignore[arg-type]


def test_duplicate_decision_id_names_both_files(root: Path) -> None:
    src = root / "registries/decisions/records/DEC-AR-001.yaml"
    write(
        root,
        "registries/decisions/records/DEC-AR-001-from-branch.yaml",
        src.read_text(encoding="utf-8"),
    )
    (dup,) = [f for f in findings(root) if f.code == "ORK010"]
    both = f"{dup.file} {dup.message}"
    assert "DEC-AR-001" in dup.message
    assert "records/DEC-AR-001.yaml" in both and "DEC-AR-001-from-branch.yaml" in both


def test_decision_code_must_match_domain(root: Path) -> None:
    src = root / "registries/decisions/records/DEC-AR-001.yaml"
    text = src.read_text(encoding="utf-8").replace("DEC-AR-001", "DEC-XY-001")
    src.unlink()
    write(root, "registries/decisions/records/DEC-XY-001.yaml", text)
    assert "ORK029" in codes(root)


def test_config_defaults_and_rules(root: Path) -> None:
    cfg = Config()
    assert cfg.targets == ["claude"] and cfg.mining.releasable_types == [
        "feat",
        "fix",
        "perf",
        "revert",
    ]
    assert cfg.knowledge.verified_max_age_days == 90 and cfg.truths.stale_after_days == 90
    (root / "registries/orkestra.yaml").write_text("", encoding="utf-8")
    assert findings(root) == []
    (root / "registries/orkestra.yaml").write_text(
        "vendor_roots:\n  - {path: ../outside, provider: acme}\n", encoding="utf-8"
    )
    (finding,) = findings(root)
    assert finding.code == "ORK002" and finding.line == 2 and "leave" in finding.message


def test_domain_folder_needs_four_files(root: Path) -> None:
    (root / "registries/domains/example/patterns.md").unlink()
    (finding,) = findings(root)
    assert finding.code == "ORK043" and "patterns.md" in finding.message


def test_ledger_line_models() -> None:
    ok = {
        "id": "e1",
        "ts": "2026-01-01T00:00:00Z",
        "sha": "abc1234",
        "domain": "changelog",
        "action": "skip",
    }
    assert ClassificationEntry(**ok).action == "skip"  # type: ignore[arg-type]
    for bad in ({"sha": "XYZ"}, {"action": "extract"}, {"action": "release"}, {"domain": "other"}):
        with pytest.raises(ValidationError):
            ClassificationEntry(**{**ok, **bad})  # type: ignore[arg-type]


def test_stale_truth_is_a_warning(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2099-01-01")
    found = {f.code: f.severity for f in findings(root)}
    assert found["ORK104"] == "warning"


@pytest.mark.parametrize("path", ["x" * 300, "a/" * 600 + "b"], ids=["component", "total"])
def test_an_impossibly_long_path_is_a_finding_not_a_crash(root: Path, path: str) -> None:
    (root / "registries/orkestra.yaml").write_text(
        f"vendor_roots:\n  - {{path: {path}, provider: acme}}\nrender:\n  claude_md_path: {path}\n",
        encoding="utf-8",
    )
    found = findings(root)
    assert {f.code for f in found} == {"ORK002"} and len(found) == 2
    assert all(f.line in (2, 4) and "too long" in f.message for f in found)
