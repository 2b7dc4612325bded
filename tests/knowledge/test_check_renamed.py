"""`notes check` names where a cited file went when git's rename detection knows it (a renamed
file committed, or `git mv` not yet committed): the source is still contradicted (a person
updates the note), but the reason says "renamed to app/job.py" instead of only "file not found
(renamed or deleted?)". git is asked once per checkout, never once per file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import git
from orkestra.knowledge.check import check
from tests.conftest import write
from tests.knowledge.helpers import note, settings
from tests.mining.gitrepo import GitRepo

DAY = dt.date(2026, 6, 1)


@pytest.fixture
def repo(project: Path) -> GitRepo:
    write(project, "app/task.py", "class Task:\n    pass\n")
    write(project, "app/billing.py", "def charge():\n    pass\n")
    write(project, "app/gone.py", "X = 1\n")
    note(project, "task", sources=["app/task.py#class Task"])
    note(project, "charge", sources=["app/billing.py#def charge"])
    note(project, "gone", sources=["app/gone.py"])
    repo = GitRepo(project)
    repo.git("add", ".")
    repo.commit("chore: start")
    repo.git("mv", "app/task.py", "app/job.py")
    repo.commit("refactor: task is a job")
    repo.git("mv", "app/billing.py", "app/payments.py")  # staged, not committed
    repo.git("rm", "-q", "app/gone.py")
    return repo


def _sources(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n["name"]: n["sources"][0] for n in report["notes"]}


def test_a_renamed_file_is_named_in_the_reason(repo: GitRepo) -> None:
    found = _sources(check(settings(repo.path), DAY, apply=False))
    assert found["task"]["status"] == "contradicted"
    assert found["task"]["renamed_to"] == "app/job.py"
    assert "renamed to app/job.py" in found["task"]["reason"]
    assert found["charge"]["renamed_to"] == "app/payments.py"  # `git mv`, not committed yet
    assert found["gone"]["reason"] == "file not found (renamed or deleted?)"
    assert "renamed_to" not in found["gone"]


def test_git_is_asked_once_for_every_missing_file(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(30):
        note(repo.path, f"more-{n}", sources=[f"app/missing_{n}.py", "app/task.py"])
    calls: list[tuple[str, ...]] = []
    real = git.run

    def counted(cwd: Any, *args: str, **kw: Any) -> Any:
        calls.append(args)
        return real(cwd, *args, **kw)

    monkeypatch.setattr(git, "run", counted)
    check(settings(repo.path), DAY, apply=False)
    assert len(calls) <= 2, calls  # the history's renames and the index's, for every file


def test_outside_git_the_plain_reason_stands(project: Path) -> None:
    note(project, "task", sources=["app/task.py"])
    found = _sources(check(settings(project), DAY, apply=False))
    assert found["task"]["reason"] == "file not found (renamed or deleted?)"


def test_the_cli_names_the_new_path(repo: GitRepo, cli: Any) -> None:
    result = cli("notes", "check", "--dry-run", cwd=repo.path)
    assert result.exit_code == 1
    reasons = {n["name"]: n["sources"][0]["reason"] for n in result.json()["notes"]}
    assert "renamed to app/job.py" in reasons["task"]
    table = cli("notes", "check", "--dry-run", "--format", "table", cwd=repo.path)
    assert "app/payments.py" in table.stdout
