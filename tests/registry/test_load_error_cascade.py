"""A file that fails its schema is left out; references to what it holds are not reported as
dangling (false follow-on errors): the load error alone names the file, line and fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.registry.loader import load
from orkestra.registry.unloaded import hidden
from tests.registry.helpers import findings, scaffold


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    return scaffold(tmp_path / "p")


def _append(root: Path, rel: str, text: str) -> None:
    with (root / rel).open("a", encoding="utf-8") as handle:
        handle.write(text)


def _errors(root: Path) -> list[tuple[str, str, str]]:
    return [(f.file, f.code, f.message) for f in findings(root) if f.severity == "error"]


def test_a_bad_scope_name_is_the_only_error_and_says_what_to_do(root: Path) -> None:
    _append(root, "registries/scopes.yaml", "  Database:\n    description: d\n")
    ((file, code, message),) = _errors(root)  # no "unknown scope 'example'" from agent or skill
    assert (file, code) == ("registries/scopes.yaml", "ORK002")
    assert "the name 'Database' must be lowercase letters" in message
    assert "rename it" in message and "every scope of this file is left out" in message


def test_a_bad_domain_code_hides_the_records_domain_errors(root: Path) -> None:
    path = root / "registries/decisions/registry.yaml"
    path.write_text("domains:\n  architecture: AR\n  search: sr\n", encoding="utf-8")
    ((file, code, message),) = _errors(root)  # no ORK029 for DEC-AR-001's domain
    assert (file, code) == ("registries/decisions/registry.yaml", "ORK002")
    assert "'sr' does not match ^[A-Z]{2}$; correct it" in message


def test_a_skill_file_that_fails_hides_references_to_that_skill_only(root: Path) -> None:
    _append(root, "registries/skills/project/example-skill.yaml", "colour: red\n")
    reg = load(root)
    assert hidden(reg, "skill", "example-skill") and not hidden(reg, "skill", "other")
    assert not hidden(reg, "scope", "example")
    codes = {(f.code, f.file) for f in findings(root) if f.severity == "error"}
    assert codes == {("ORK002", "registries/skills/project/example-skill.yaml")}
    _append(root, "registries/agents/example-agent.yaml", "skills:\n  - missing-skill\n")
    assert "ORK024" in {f.code for f in findings(root)}  # a truly unknown skill still is


def test_a_broken_tools_yaml_is_the_only_error(root: Path) -> None:
    """tools.yaml fails to load: no "unknown tool" per agent, skill and command tool (every
    registered tool looked unknown), only its own error at its line."""
    (root / "registries/tools.yaml").write_text("builtin: [Read]\nbuiltin: [Grep]\n")
    ((file, code, message),) = _errors(root)
    assert (file, code) == ("registries/tools.yaml", "ORK001")
    assert "duplicate key 'builtin'" in message


def test_a_sound_project_hides_nothing(root: Path) -> None:
    reg = load(root)
    assert not hidden(reg, "scope", "x") and not hidden(reg, "truth", "GT-X-001")


def test_cli(root: Path, cli: Any) -> None:
    _append(root, "registries/scopes.yaml", "  Database:\n    description: d\n")
    result = cli("validate", cwd=root)
    assert result.exit_code == 1
    assert "ORK023" not in result.stdout and "failed: 1 error(s)" in result.stdout


def test_a_misnamed_skill_is_the_only_error_not_also_a_dangling_reference(root: Path) -> None:
    """ORK003 leaves the skill out as a schema error does: the scope and the agent that name
    the file's skill get no 'unknown skill' error (a false follow-on)."""
    rel = "registries/skills/project/example-skill.yaml"
    path = root / rel
    path.write_text(
        path.read_text(encoding="utf-8").replace("  name: example-skill", "  name: example-skil"),
        encoding="utf-8",
    )
    ((file, code, _message),) = _errors(root)
    assert (file, code) == (rel, "ORK003")


def test_a_misnamed_decision_hides_the_references_to_its_file(root: Path) -> None:
    records = root / "registries/decisions/records"
    text = (records / "DEC-AR-001.yaml").read_text(encoding="utf-8")
    (records / "DEC-AR-002.yaml").write_text(
        text.replace("DEC-AR-001", "DEC-AR-002") + "related:\n  - DEC-AR-001\n", encoding="utf-8"
    )
    (records / "DEC-AR-001.yaml").write_text(text.replace("id: DEC-AR-001", "id: DEC-AR-003"))
    errors = _errors(root)
    assert [code for _f, code, _m in errors] == ["ORK003"], errors


def test_info_of_a_misnamed_agent_points_at_its_file(root: Path, cli: Any) -> None:
    rel = "registries/agents/example-agent.yaml"
    path = root / rel
    path.write_text(
        path.read_text(encoding="utf-8").replace("name: example-agent", "name: example-agnt"),
        encoding="utf-8",
    )
    result = cli("agents", "info", "example-agent", "--format", "json", cwd=root)
    assert result.exit_code == 1
    error = __import__("json").loads(result.stderr.strip().splitlines()[-1])["error"]
    assert (error["file"], error["line"]) == (rel, 1)
