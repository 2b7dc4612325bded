"""A folder the review cannot list is reported, never silently left out of the review."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from orkestra.intake.review import review_folder
from orkestra.intake.rules import default_rules
from orkestra.intake.walker import walk
from tests.conftest import write


def test_an_unlistable_sub_folder_is_a_blocking_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "skill"
    write(folder, "SKILL.md", "x\n")
    write(folder, "scripts/run.sh", "echo hi\n")
    real = os.scandir

    def scandir(path: str | os.PathLike[str]) -> object:
        if Path(path).name == "scripts":
            raise PermissionError(errno.EACCES, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    assert [(e.rel, e.kind, e.target) for e in walk(folder)] == [
        ("SKILL.md", "file", None),
        ("scripts", "unlistable", "Permission denied"),
    ]
    findings = review_folder(folder, "skill/", default_rules()).findings
    assert [(f.file, f.rule) for f in findings] == [("skill/scripts", "special-file")]
    assert "nothing inside it was reviewed" in findings[0].excerpt
