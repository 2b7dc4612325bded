"""Derived state's file marks: a stat of each file, `absent` when there is none."""

from __future__ import annotations

import os
from pathlib import Path

from orkestra.core.stamp import file_marks


def test_a_mark_changes_with_the_file_and_says_absent(tmp_path: Path) -> None:
    path = tmp_path / "source.py"
    path.write_text("a = 1\n", encoding="utf-8")
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    before = file_marks([path])
    assert before == [f"{path}:6:1000000000"]
    path.write_text("a = 22\n", encoding="utf-8")
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))  # same time, other size
    assert file_marks([path]) != before
    assert file_marks([str(tmp_path / "gone.py")]) == [f"{tmp_path}/gone.py:absent"]


def test_a_symlink_is_marked_as_itself(tmp_path: Path) -> None:
    target = tmp_path / "real.py"
    target.write_text("x\n", encoding="utf-8")
    link = tmp_path / "link.py"
    link.symlink_to(target)
    assert file_marks([link]) != file_marks([target])
