"""Locked appends to JSONL ledgers and logs. Whole-file writes are `core.safewrite`'s."""

from __future__ import annotations

import os
from pathlib import Path


def append_line(path: Path, line: str) -> None:
    """Append one line under an exclusive lock with a single write, so lines never interleave."""
    append_lines(path, [line])


def append_lines(path: Path, lines: list[str]) -> None:
    """Append lines under one exclusive lock with one `write`, so appends never interleave.

    If the file ends with a torn line (no trailing newline), a newline is written first so the new
    lines stay whole. A batch lands whole or not at all.
    """
    if not lines:
        return
    if any("\n" in line for line in lines):
        raise ValueError("a ledger line must not contain a newline")
    from orkestra.core.lock import locked

    with locked(path, append=True) as fd:
        size = os.fstat(fd).st_size
        prefix = b""
        if size:
            os.lseek(fd, size - 1, os.SEEK_SET)
            if os.read(fd, 1) != b"\n":
                prefix = b"\n"
        os.write(fd, prefix + "".join(f"{line}\n" for line in lines).encode("utf-8"))
        os.fsync(fd)
