"""A key YAML reads as a number, a boolean or null (`1:`, `on:`, `null:`) is named at its own
line with what to do (quote it), not at line 1 with Pydantic's 'Keys should be strings'."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write
from tests.registry.helpers import findings, scaffold

AGENT = "registries/agents/example-agent.yaml"


@pytest.mark.parametrize("key", ["1", "null", "on"])
def test_a_key_that_is_not_text_is_named_at_its_line(tmp_path: Path, key: str) -> None:
    root = scaffold(tmp_path)
    text = (root / AGENT).read_text(encoding="utf-8")
    lines = text.count("\n")
    write(root, AGENT, text + f"{key}: x\n")
    (bad,) = [f for f in findings(root) if f.file == AGENT]
    assert (bad.code, bad.line) == ("ORK002", lines + 1)
    assert "quote" in bad.message and "Keys should be strings" not in bad.message


def test_the_cli_reports_it_at_its_line(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path)
    text = (root / AGENT).read_text(encoding="utf-8")
    write(root, AGENT, text.replace("\n", "\r\n") + "1: x\r\n")
    result = cli("validate", "--format", "json", cwd=root)
    assert result.exit_code == 1
    (finding,) = result.json()["findings"]
    assert (finding["file"], finding["line"]) == (AGENT, text.count("\n") + 1)


def test_search_warns_of_it_as_validate_reports_it(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path)
    text = (root / AGENT).read_text(encoding="utf-8")
    write(root, AGENT, text + "1: x\n")
    (bad,) = [f for f in findings(root) if f.file == AGENT]
    assert "the key 1 is read by YAML as a number" in bad.message
    result = cli("search", "example", cwd=root)
    assert result.exit_code == 0
    assert f"{AGENT}:{bad.line}: ORK002: {bad.message}" in result.stderr
