"""Locked, all-or-nothing appends to JSONL ledgers and logs. Whole-file writes are `core.safewrite`'s.

An append holds the file's exclusive lock, writes every byte (a short `os.write` is continued, a
write that makes no progress is a full disk), fsyncs, and on any failure truncates the file back to
the size it had before: a full disk or an interrupt never leaves a torn or partial batch behind.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Sequence
from pathlib import Path

from orkestra.core.errors import WriteFailed


def append_line(path: Path, line: str) -> None:
    """Append one line under an exclusive lock, so lines never interleave."""
    append_lines(path, [line])


def append_lines(path: Path, lines: list[str]) -> None:
    """Append lines under one exclusive lock; the batch lands whole or not at all.

    If the file ends with a torn line (no trailing newline), a newline is written first so the new
    lines stay whole; the lines end as the file's last line does (`\r\n` or `\n`).
    """
    append_all([(path, lines)])


def append_all(batches: Sequence[tuple[Path, list[str]]]) -> None:
    """Append each file's lines, all or nothing across every file.

    The files are locked in the order given (callers that append to the same files use one
    order), each batch is written in full and fsynced; if any write fails, every file is truncated
    back to its size before the call and `WriteFailed` (naming the file and the cause) is raised.
    """
    batches = [(path, lines) for path, lines in batches if lines]
    for _, lines in batches:
        if any("\n" in line for line in lines):
            raise ValueError("a ledger line must not contain a newline")
    from orkestra.core.lock import locked

    with contextlib.ExitStack() as stack:
        held = [(stack.enter_context(locked(path, append=True)), lines) for path, lines in batches]
        sizes = [os.fstat(fd).st_size for fd, _ in held]
        path = None
        try:
            for index, (fd, lines) in enumerate(held):
                path = batches[index][0]
                ending, separator = _ending(fd, sizes[index])
                write_all(fd, separator + _payload(lines, ending))
                os.fsync(fd)
        except BaseException as exc:
            for (fd, _), size in zip(held, sizes, strict=True):
                _truncate(fd, size)
            if isinstance(exc, OSError):
                raise WriteFailed(
                    f"cannot append to '{path}': {exc.strerror or exc}; nothing was appended "
                    f"to {'any of the files' if len(batches) > 1 else 'it'}",
                    file=str(path),
                ) from exc
            raise


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of `data` to `fd`, continuing after short writes.

    A write that makes no progress raises `OSError(ENOSPC)`, the usual cause on a regular file.
    """
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


def _payload(lines: list[str], ending: str = "\n") -> bytes:
    return "".join(f"{line}{ending}" for line in lines).encode("utf-8")


def _ending(fd: int, size: int) -> tuple[str, bytes]:
    """The line ending the new lines take, the file's own (`\r\n` when its last line ends so:
    a ledger checked out with CRLF endings stays of one kind), and what to write first: a
    newline when the file ends with an unterminated (torn) line, else nothing."""
    if not size:
        return "\n", b""
    start = max(size - 2, 0)
    os.lseek(fd, start, os.SEEK_SET)  # reading only: O_APPEND writes still go to the end
    tail = os.read(fd, size - start)
    if tail.endswith(b"\r\n"):
        return "\r\n", b""
    return "\n", b"" if tail.endswith(b"\n") else b"\n"


def _truncate(fd: int, size: int) -> None:
    """Cut `fd` back to `size` bytes (a no-op for a file that did not grow)."""
    with contextlib.suppress(OSError):  # the original error is the one worth raising
        if os.fstat(fd).st_size != size:
            os.ftruncate(fd, size)
            os.fsync(fd)
