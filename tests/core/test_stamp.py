"""Derived state's file marks: a stat of each file, `absent` when there is none."""

from __future__ import annotations

import os
import time
from pathlib import Path

from orkestra.core.stamp import file_marks


def test_a_mark_changes_with_the_file_and_says_absent(tmp_path: Path) -> None:
    path = tmp_path / "source.py"
    path.write_text("a = 1\n", encoding="utf-8")
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    before = file_marks([path])
    st = path.stat()
    assert before == [f"{path}:6:1000000000:{st.st_ctime_ns}:{st.st_ino}"]
    path.write_text("a = 22\n", encoding="utf-8")
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))  # same time, other size
    assert file_marks([path]) != before
    again = file_marks([path])
    time.sleep(0.01)
    path.write_text("a = 33\n", encoding="utf-8")
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))  # same size, the old time set back
    assert file_marks([path]) != again
    assert file_marks([str(tmp_path / "gone.py")]) == [f"{tmp_path}/gone.py:absent"]


def test_a_symlink_is_marked_as_itself(tmp_path: Path) -> None:
    target = tmp_path / "real.py"
    target.write_text("x\n", encoding="utf-8")
    link = tmp_path / "link.py"
    link.symlink_to(target)
    assert file_marks([link]) != file_marks([target])
