"""The parser's own usage errors honour `--format json`: one `{"error": {...}}` line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from orkestra.cli import errors
from orkestra.cli.clickcompat import click


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["agents", "info"], "Missing argument 'name'"),
        (["decisions", "list", "--limit", "abc"], "Invalid value for '--limit'"),
        (["agents", "list", "--bogus"], "No such option: --bogus"),
        (["agents", "list", "--format", "yaml"], "'yaml' is not one of"),
        (["agents", "lst"], "No such command 'lst'"),
    ],
    ids=["missing-argument", "bad-int", "unknown-option", "bad-format", "unknown-command"],
)
def test_usage_errors_are_one_json_line_when_json_was_asked(
    cli: Any, project: Path, args: list[str], says: str
) -> None:
    result = cli(*args[:2], "--format", "json", *args[2:], cwd=project)
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    error = json.loads(line)["error"]
    assert error["code"] == "usage" and says in error["message"]
    assert "-h'" in error["message"] and (error["file"], error["line"]) == (None, None)


def test_without_json_click_prints_its_usage_text(cli: Any, project: Path) -> None:
    result = cli("agents", "info", cwd=project)
    assert result.exit_code == 2
    assert result.stderr.startswith("Usage: orkestra agents info")
    assert "Missing argument 'name'" in result.stderr


def test_report_maps_a_click_error_to_the_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert errors.report(click.ClickException("boom"), json_errors=True) == 1
    assert json.loads(capsys.readouterr().err) == {
        "error": {"code": "error", "message": "boom", "file": None, "line": None}
    }
