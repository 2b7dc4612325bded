"""When and how a command forks a helper process to use a second core (standard library only).

A fork copies the process as it is: a thread holding a lock in the parent would leave that lock
held forever in the child, and a child of a server would hold its sockets and its event loop.
So a helper is forked only from the main thread with no other thread running and no event loop
running (the MCP server's), on POSIX, and only where a second core exists to run it.

`fork_helper` marks the fork as a helper's: the no-op record (`render.noop.Trace`), which counts
any other fork as a spawn it cannot vouch for, knows that a helper reads only what the record
stats anyway (registry files and templates) and writes nothing.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from typing import BinaryIO

_helper_forking = False


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _loop_running() -> bool:
    asyncio = sys.modules.get("asyncio")  # never imported here: only a process that uses it
    return asyncio is not None and asyncio.events._get_running_loop() is not None


def can_fork() -> bool:
    """True where a fork copies nothing half-done and a second core can run the helper."""
    return (
        hasattr(os, "fork")
        and sys.platform != "win32"
        and threading.current_thread() is threading.main_thread()
        and threading.active_count() == 1
        and not _loop_running()
        and cores() >= 2
    )


def fork_helper() -> int:
    """`os.fork`, marked as a helper's for the time of the call (see the module's docstring)."""
    global _helper_forking
    _helper_forking = True
    try:
        return os.fork()
    finally:
        _helper_forking = False


def forking_helper() -> bool:
    """True while `fork_helper` forks (read by the audit hook that sees the fork)."""
    return _helper_forking


class Forked:
    """A helper forked now, with the pipe from it to the process that forked it, seen from
    either side: the helper `send`s, the parent reads `reader`, then `stop`s or `reap`s it."""

    def __init__(self) -> None:
        read, write = os.pipe()
        with contextlib.suppress(ImportError, OSError):  # fewer stalls with a bigger pipe
            import fcntl

            fcntl.fcntl(write, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
        self.pid = fork_helper()
        self.child = self.pid == 0
        self.reader: BinaryIO | None = None
        if self.child:
            os.close(read)
            self.fd = write
        else:
            os.close(write)
            self.fd = read
            self.reader = os.fdopen(read, "rb", buffering=1 << 16)

    def send(self, data: bytes) -> None:
        """Write all of `data` to the parent (the helper's side)."""
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]

    def stop(self) -> None:
        """End the helper if it still runs, and reap it. Once only: a reaped helper's pid is
        -1, which `kill` would read as every process the user may signal."""
        if self.child or self.pid <= 0:
            return
        with contextlib.suppress(OSError):
            os.kill(self.pid, 9)
        self.reap()

    def reap(self) -> None:
        """Wait for the helper to end (it ends itself once its work is sent)."""
        if self.child or self.pid <= 0:
            return
        with contextlib.suppress(OSError, AttributeError):
            self.reader.close()  # type: ignore[union-attr]
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(self.pid, 0)
        self.pid = -1
