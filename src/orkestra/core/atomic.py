"""Atomic file writes and locked appends: no command ever leaves half-written data."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_bytes(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Write `data` to `path` atomically: temporary file in the same folder, fsync, os.replace."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            tmp.chmod(mode)
        elif path.exists():
            tmp.chmod(path.stat().st_mode & 0o7777)
        else:
            tmp.chmod(0o644)
        tmp.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_text(path: Path, text: str) -> None:
    """Atomically write UTF-8 text with `\\n` line endings."""
    write_bytes(path, text.encode("utf-8"))


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
