"""Ledger coverage in `system status` of a project that is not a git repository: the hint must
name what to do first (`git init`), not `mine sync`, which would refuse."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from orkestra.mining.report import coverage
from tests.mining.gitrepo import GitRepo


def test_coverage_outside_git_says_so(tmp_path: Path) -> None:
    (tmp_path / "registries").mkdir()
    result = coverage(SimpleNamespace(root=tmp_path))
    assert result["indexed"] is False and result["reason"] == "not a git repository"
    assert "git init" in result["hint"]


def test_coverage_in_a_subfolder_of_a_repository_hints_mine_sync(tmp_path: Path) -> None:
    GitRepo(tmp_path)
    sub = tmp_path / "services" / "api"
    (sub / "registries").mkdir(parents=True)
    result = coverage(SimpleNamespace(root=sub))
    assert result == {"indexed": False, "hint": "run `orkestra mine sync` to index the history"}


def test_cli_status_outside_git(tmp_path: Path, cli: Any) -> None:
    root = tmp_path / "proj"
    assert cli("init", str(root)).exit_code == 0
    ledger = cli("system", "status", cwd=root).json()["ledger"]
    assert ledger["reason"] == "not a git repository" and "git init" in ledger["hint"]
    mined = cli("mine", "sync", cwd=root)  # what the hint would have sent the user to
    assert mined.exit_code == 1 and "git init" in mined.stderr
