"""The keys of derived state: which versions of which files an answer was computed with.

Standard library only: the no-op record and `system status` build their keys at start-up.
"""

from __future__ import annotations

import os
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
