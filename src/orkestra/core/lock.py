"""The one advisory file lock: an exclusive lock on a lock file (or a ledger) held by a process.

`fcntl` (POSIX) or `msvcrt` (Windows) is imported inside the functions, so importing this module
works everywhere. Standard library only: the hooks take this lock too.
"""

# os-level calls, not pathlib: the hooks take this lock on their start-up path
# ruff: noqa: PTH103, PTH120

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Callable, Iterator

from orkestra.core.errors import OrkestraError, UnsafePathError

#: 0 where the platform has no O_NOFOLLOW (Windows: no symlinks to plant there by accident)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

#: bytes locked by the Windows fallback (msvcrt locks a byte range, not the whole file)
_WINDOWS_SPAN = 1


class LockError(OrkestraError):
    """The platform offers no file locking this process can use."""

    code = "lock"


def acquire(fd: int, waiting: Callable[[], None] | None = None) -> None:
    """Block until this process holds the exclusive lock of open file `fd`; `waiting` is
    called first when another open file holds it (another process, or another thread here;
    POSIX): to say why the command pauses. Whatever it raises (a closed or full stderr), the
    wait goes on; an interrupt (Ctrl-C) still ends it.

    The lock is released by `release(fd)` or when `fd` is closed.
    """
    try:
        import fcntl
    except ImportError:
        _windows(fd, unlock=False)
        return
    if waiting is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            with contextlib.suppress(Exception):
                waiting()
    fcntl.flock(fd, fcntl.LOCK_EX)


def release(fd: int) -> None:
    """Release the lock `acquire(fd)` took (closing `fd` releases it too)."""
    try:
        import fcntl
    except ImportError:
        _windows(fd, unlock=True)
        return
    fcntl.flock(fd, fcntl.LOCK_UN)


@contextlib.contextmanager
def locked(
    path: str | os.PathLike[str],
    *,
    append: bool = False,
    root: str | os.PathLike[str] | None = None,
    waiting: Callable[[], None] | None = None,
) -> Iterator[int]:
    """Open `path` (created, mode 0644, parents made) and hold its exclusive lock; yield the fd.

    A symlink at `path` is never followed (`UnsafePathError`): a planted link cannot redirect
    an append or a lock file outside the project. With `root`, the path must also stay inside
    `root` with no symlinked folder on the way (a planted `.orkestra -> elsewhere`). `waiting`
    is called once when another open file holds the lock (`acquire`).

    With `append=True` the descriptor is opened with `O_APPEND`, so a ledger append written
    through it while the lock is held lands whole at the end. The fd is closed on exit.
    """
    if root is not None:  # inside the project, no symlinked folder on the way (checked first)
        from pathlib import Path

        from orkestra.core.safewrite import check_target

        check_target(Path(root), Path(path))
    folder = os.path.dirname(os.fspath(path))
    if folder:
        os.makedirs(folder, exist_ok=True)
    flags = os.O_RDWR | os.O_CREAT | (os.O_APPEND if append else 0) | _NOFOLLOW
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            raise
        raise UnsafePathError(
            f"refusing to open '{os.fspath(path)}': it is a symlink, and Orkestra never writes "
            "through a symlink; replace it with a file",
            file=os.fspath(path),
        ) from None
    try:
        acquire(fd, waiting)
        yield fd
    finally:
        os.close(fd)


def _windows(fd: int, *, unlock: bool) -> None:
    try:
        import msvcrt
    except ImportError:
        raise LockError(
            "this platform has neither fcntl nor msvcrt: Orkestra cannot lock files here"
        ) from None
    where = os.lseek(fd, 0, os.SEEK_CUR)
    os.lseek(fd, 0, os.SEEK_SET)
    try:
        if unlock:
            msvcrt.locking(fd, msvcrt.LK_UNLCK, _WINDOWS_SPAN)  # type: ignore[attr-defined]
        else:
            while True:  # LK_LOCK gives up after ten one-second tries; keep blocking
                try:
                    msvcrt.locking(fd, msvcrt.LK_LOCK, _WINDOWS_SPAN)  # type: ignore[attr-defined]
                    break
                except OSError:
                    continue
    finally:
        os.lseek(fd, where, os.SEEK_SET)
