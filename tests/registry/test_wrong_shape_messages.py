"""A value of the wrong shape (a mapping where a list goes, nothing where an entry goes) is an
error at the line it is written on that says what shape to write, never Pydantic's wording
about Python classes ("instance of Character")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import write
from tests.registry.helpers import findings, scaffold


def _one(root: Path, rel: str) -> Any:
    found = [f for f in findings(root) if f.file == rel]
    assert len(found) == 1, found
    return found[0]


def test_an_identity_left_empty_is_named_at_its_line(tmp_path: Path) -> None:
    root = scaffold(tmp_path)
    rel = "registries/characters/identities.yaml"
    text = (root / rel).read_text(encoding="utf-8")
    write(root, rel, text + "ghost:\n")
    finding = _one(root, rel)
    assert finding.code == "ORK002"
    assert finding.line == 4
    assert "Character" not in finding.message
    assert "mapping" in finding.message and "description" in finding.message


def test_an_identity_written_as_text_is_named_at_its_line(tmp_path: Path) -> None:
    root = scaffold(tmp_path)
    rel = "registries/characters/identities.yaml"
    text = (root / rel).read_text(encoding="utf-8")
    write(root, rel, text.replace("\n", "\r") + "ghost: haunts the build\r")
    finding = _one(root, rel)
    assert finding.line == 4
    assert "Character" not in finding.message


def test_values_written_as_a_mapping_say_to_write_a_list(tmp_path: Path) -> None:
    root = scaffold(tmp_path)
    rel = "registries/values.yaml"
    write(root, rel, "values:\n  simplicity: Choose the simplest design.\n")
    finding = _one(root, rel)
    assert finding.line == 1
    assert "values:" in finding.message
    assert "list" in finding.message and "- " in finding.message


def test_tools_mcp_written_as_a_list_says_to_write_a_mapping(tmp_path: Path) -> None:
    root = scaffold(tmp_path)
    rel = "registries/tools.yaml"
    write(root, rel, "builtin: [Read]\nmcp:\n  - github\n")
    finding = _one(root, rel)
    assert finding.line == 2
    assert "mapping" in finding.message


def test_the_cli_names_the_file_line_and_shape(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path)
    rel = "registries/characters/identities.yaml"
    text = (root / rel).read_text(encoding="utf-8")
    write(root, rel, text + "ghost:\n")
    result = cli("validate", "--format", "json", cwd=root)
    assert result.exit_code == 1
    (finding,) = result.json()["findings"]
    assert (finding["file"], finding["line"], finding["code"]) == (rel, 4, "ORK002")
    assert "Character" not in finding["message"]
