"""`.orkestra` made a regular file (a stray `touch`, a tool's log): the commit index cannot be
kept. `system status` answers all the same, its ledger part saying why and what to do, and warns
on stderr naming the file; `mine status`, which cannot answer without the index, says exactly
that (it said only that a folder was needed "to write .orkestra/mining/index.json")."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from orkestra.mining import index
from orkestra.mining.report import coverage
from tests.mining.gitrepo import GitRepo


def _block(repo: GitRepo) -> None:
    (repo.path / ".orkestra").write_text("not a folder\n", encoding="utf-8")


def test_coverage_names_the_file_in_the_way(repo: GitRepo) -> None:
    _block(repo)
    found = index.unusable(repo.path)
    assert found is not None and found.file == ".orkestra"
    result = coverage(SimpleNamespace(root=repo.path))
    assert result["indexed"] is False and result["file"] == ".orkestra"
    assert "cache folder" in result["reason"] and "move '.orkestra' away" in result["hint"]


def test_no_reason_when_the_folder_can_be_made(repo: GitRepo) -> None:
    assert index.unusable(repo.path) is None


def test_system_status_answers_and_warns(repo: GitRepo, cli: Any) -> None:
    _block(repo)
    result = cli("system", "status", cwd=repo.path)
    report = result.json()  # answered (exit 1 only for the scaffold's validation errors)
    assert result.exit_code == (0 if report["healthy"] else 1), result.stderr
    assert report["ledger"]["indexed"] is False and report["ledger"]["file"] == ".orkestra"
    assert "orkestra: warning: .orkestra: cache: '.orkestra' is a file" in result.stderr
    as_json = cli("system", "status", "--format", "json", cwd=repo.path)
    warning = json.loads(as_json.stderr.splitlines()[0])["warning"]
    assert warning["file"] == ".orkestra" and warning["code"] == "cache"
    assert (repo.path / ".orkestra").read_text(encoding="utf-8") == "not a folder\n"


def test_mine_status_says_it_needs_the_cache_folder(repo: GitRepo, cli: Any) -> None:
    _block(repo)
    for command in (("mine", "status"), ("mine", "candidates"), ("mine", "sync")):
        result = cli(*command, "--format", "json", cwd=repo.path)
        assert result.exit_code == 1 and result.stdout == ""
        error = json.loads(result.stderr)["error"]
        assert error["file"] == ".orkestra"
        assert "cache folder" in error["message"] and "move it away" in error["message"]
    assert (repo.path / ".orkestra").read_text(encoding="utf-8") == "not a folder\n"
