"""A value that is not one of a field's choices (`color: 0x1F`, `status: Active`) is told at
its line with the choices to write, never Pydantic's bare "Input should be 'red', 'blue' …"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write
from tests.registry.helpers import findings, scaffold

AGENT = "registries/agents/example-agent.yaml"


def _agent_with(root: Path, line: str) -> int:
    text = (root / AGENT).read_text(encoding="utf-8")
    text = text.replace("mindset: analytical\n", f"{line}\nmindset: analytical\n")
    write(root, AGENT, text)
    return text.splitlines().index(line) + 1


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("color: 0x1F", "color: a number is not one of its choices"),
        ("color: Red", "color: 'Red' is not one of its choices; write one of: red,"),
        ("role: lead", "role: 'lead' is not one of its choices"),
    ],
)
def test_a_wrong_choice_says_what_to_write_at_its_line(
    tmp_path: Path, line: str, said: str
) -> None:
    root = scaffold(tmp_path)
    at = _agent_with(root, line)
    (found,) = [f for f in findings(root) if f.code == "ORK002"]
    assert (found.file, found.line) == (AGENT, at)
    assert found.message.startswith(said), found.message
    assert "Input should be" not in found.message
    choices = "red, blue, green" if line.startswith("color") else "specialist, orchestrator"
    assert f"write one of: {choices}" in found.message
    assert ("did you mean red?" in found.message) == (line == "color: Red")


def test_validate_prints_the_advice(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path)
    at = _agent_with(root, "color: 0x1F")
    result = cli("validate", "--format", "text", cwd=root)
    assert result.exit_code == 1
    assert f"{AGENT}:{at}: error ORK002: color: a number is not one of its choices" in (
        result.stdout
    )
    assert "write one of: red, blue, green, yellow, purple, orange, pink, cyan" in result.stdout


def test_a_wrong_target_in_orkestra_yaml_says_what_to_write(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path)
    config = root / "registries/orkestra.yaml"
    config.write_text(config.read_text().replace("  - claude\n", "  - claude\n  - Codex\n"))
    result = cli("validate", "--format", "text", cwd=root)
    assert result.exit_code != 0
    out = result.stdout + result.stderr
    assert "registries/orkestra.yaml:4" in out and "did you mean codex?" in out, out
    assert "Input should be" not in out


@pytest.mark.parametrize(
    ("edit", "line", "said"),
    [
        (("  - claude\n", "  - claude\n  - Codex\n"), 4, "targets.1: 'Codex' is not one of"),
        (("targets:", "mining:\n  nope: 1\ntargets:"), 3, "unknown key 'mining.nope': remove it"),
    ],
)
def test_commands_that_read_only_orkestra_yaml_say_what_validate_says(
    tmp_path: Path, cli: Any, edit: tuple[str, str], line: int, said: str
) -> None:
    """`mine status` reads orkestra.yaml alone (`config_file.load_config`): its error is
    validate's, at the same line, never Pydantic's bare "Input should be …"."""
    root = scaffold(tmp_path)
    config = root / "registries/orkestra.yaml"
    config.write_text(config.read_text().replace(*edit))
    result = cli("mine", "status", cwd=root)
    assert result.exit_code != 0
    assert f"registries/orkestra.yaml:{line}: {said}" in result.stderr, result.stderr
    assert "Input should be" not in result.stderr and "Extra inputs" not in result.stderr
