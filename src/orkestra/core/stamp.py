"""The keys of derived state: which versions of which files an answer was computed with.

Standard library only: the no-op record and `system status` build their keys at start-up.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable


def file_marks(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """`path:size:mtime_ns:ctime_ns:inode` of each file (`path:absent` when it cannot be stat'ed;
    a symlink is not followed): an edit, a replacement or an upgrade changes it, for the price
    of a stat, even one that keeps the size and sets the old time back (`rsync -t`, a copy
    with `cp -p`)."""
    marks = []
    for path in paths:
        try:
            st = os.lstat(path)
        except (OSError, ValueError):
            marks.append(f"{os.fspath(path)}:absent")
            continue
        marks.append(
            f"{os.fspath(path)}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"
        )
    return marks


def changed_at(st: os.stat_result) -> int:
    """When a file last changed: its mtime, or its ctime when later. An edit that sets the old
    mtime back (`touch -d`, `cp -p`, `tar x`, a restore) still moves the ctime; so does a chmod,
    which costs only a content check."""
    return max(st.st_mtime_ns, st.st_ctime_ns)


def settles_from(mtime_ns: int, ctime_ns: int, at_ns: int) -> int:
    """The change a racy window is counted from, for a file recorded at `at_ns`: its last change
    (`changed_at`), or on POSIX its ctime alone when its mtime is after `at_ns` (a file dated in
    the future: a clock ahead, an archive from one). Every change moves the ctime to the clock's
    now, and an edit also replaces the mtime, so such a file's identity does not stay through an
    edit once its ctime has settled; counted from its mtime it would never settle before that
    date. (Elsewhere the ctime is the creation time.)"""
    if mtime_ns > at_ns and os.name == "posix":
        return ctime_ns
    return max(mtime_ns, ctime_ns)


def library_marks() -> list[str]:
    """`folder:mtime_ns:ctime_ns:inode` of each library folder on `sys.path` (`site-packages`,
    `dist-packages`): installing, upgrading or removing a library (PyYAML, pydantic, Jinja)
    adds and removes entries there, which changes its times."""
    marks = []
    for folder in sys.path:
        if os.path.basename(folder) in ("site-packages", "dist-packages"):  # noqa: PTH119
            try:
                st = os.stat(folder)  # noqa: PTH116
            except OSError:
                continue
            marks.append(f"{folder}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}")
    return marks
