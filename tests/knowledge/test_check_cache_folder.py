"""`notes check` when `.orkestra` is a regular file: the outcomes it records for search cannot be
kept, but the check's answer does not need them. It answers, with a `cache` warning naming the
file; it exited 1 with only that error, after demoting notes and before regenerating INDEX.md."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from orkestra.knowledge.check import check
from tests.conftest import write
from tests.knowledge.helpers import note, settings

DAY = dt.date(2026, 6, 1)


def _project(project: Path) -> Path:
    write(project, "app/task.py", "class Task:\n    pass\n")
    note(project, "task", sources=["app/task.py#class Task"])
    note(project, "old", sources=["app/task.py"], confidence="verified", verified_at="2025-01-01")
    (project / ".orkestra").write_text("a stray file\n", encoding="utf-8")
    return project


def test_the_check_answers_and_warns_about_the_cache(project: Path) -> None:
    report = check(settings(_project(project)), DAY)
    assert report["confirmed"] == 2 and report["errors"] == 0
    (problem,) = report["problems"]
    assert (problem["severity"], problem["code"], problem["file"]) == (
        "warning",
        "cache",
        ".orkestra",
    )
    assert "move it away" in problem["message"]
    assert report["demoted"] == ["old"]
    assert report["index"] is not None  # INDEX.md regenerated after the demotion all the same
    assert (project / "knowledge" / "INDEX.md").is_file()
    assert "confidence: observed" in (project / "knowledge/glossary/old.md").read_text()


def test_the_cli_exits_0_with_the_warning(project: Path, cli: Any) -> None:
    result = cli("notes", "check", cwd=_project(project))
    assert result.exit_code == 0, result.stderr
    report = result.json()
    assert report["warnings"] == 1 and report["problems"][0]["code"] == "cache"
    assert (project / ".orkestra").read_text(encoding="utf-8") == "a stray file\n"
