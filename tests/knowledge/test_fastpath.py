"""The typer-free `notes check` prints what the typer command prints."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from orkestra.knowledge import fastpath
from tests.conftest import write
from tests.knowledge.helpers import note


@pytest.mark.parametrize("args", [[], ["--dry-run"], ["--no-sources", "--format", "json"]])
def test_same_output_and_exit_code(cli: Any, project: Path, capsys: Any, args: list[str]) -> None:
    write(project, "app/task.py", "class Task:\n")
    note(project, "case", sources=["app/task.py#class Task"])
    note(project, "gone", kind="gotcha", sources=["app/gone.py"])
    with pytest.MonkeyPatch.context() as patch:  # the typer command, not this fast path again
        patch.setattr("orkestra.cli.entry._fast_path", lambda args: None)
        typer_run = cli("notes", "check", *args, cwd=project)
    old = Path.cwd()
    os.chdir(project)
    try:
        capsys.readouterr()
        code = fastpath.run(args)
        out = capsys.readouterr().out
    finally:
        os.chdir(old)
    assert code == typer_run.exit_code
    assert json.loads(out) == typer_run.json()


@pytest.mark.parametrize("args", [["--help"], ["--format", "table"], ["-f", "text"], ["--bogus"]])
def test_other_forms_fall_back_to_typer(args: list[str]) -> None:
    assert fastpath.run(args) is None


def test_errors_are_reported(project: Path, capsys: Any, monkeypatch: Any) -> None:
    write(project, "registries/orkestra.yaml", "knowledge:\n  verified_max_age_days: nope\n")
    monkeypatch.chdir(project)
    assert fastpath.run([]) == 1
    assert "registries/orkestra.yaml:2" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", [[], ["-f", "json"], ["--format", "json"], ["--format=json"]])
def test_errors_match_the_typer_command(
    cli: Any, project: Path, capsys: Any, monkeypatch: Any, fmt: list[str]
) -> None:
    write(project, "registries/orkestra.yaml", "knowledge: 5\n")
    with pytest.MonkeyPatch.context() as patch:  # the typer command, not this fast path again
        patch.setattr("orkestra.cli.entry._fast_path", lambda args: None)
        typer_run = cli("notes", "check", *fmt, cwd=project)
    monkeypatch.chdir(project)
    capsys.readouterr()
    assert fastpath.run(fmt) == typer_run.exit_code == 1
    assert capsys.readouterr().err == typer_run.stderr
