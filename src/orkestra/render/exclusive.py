"""One writing sync at a time in a project.

Two `orkestra sync` runs at once (an editor's save hook, an agent's hook and a terminal) would
each read the outputs, the lock and the no-op record, then write: the later lock could leave out
an output the other one just wrote, which the next sync takes for a file edited by hand. So a
writing sync holds an exclusive lock on `.orkestra/sync.lock` (`core.lock`, released when the
process ends, however it ends) from before it reads anything to after its last write; a second
one waits, then reads what the first left, as if run after it. `--check` and `--dry-run` write
no output and do not wait (a `--check` may still write its no-op record, best effort, as it
always did).

Where `.orkestra/` cannot hold the lock file (a read-only checkout, a file or a symlink planted
there), the sync runs without it: it writes nothing of its own there either (its caches and
records are best effort), and a lock file is never made through a symlink.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from orkestra.core.errors import OrkestraError

#: the lock file, relative to the project
LOCK = ".orkestra/sync.lock"


#: the projects whose lock this thread holds, with how many blocks hold it
_mine = threading.local()


@contextlib.contextmanager
def held(root: Path, waiting: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the project's sync lock for the time of the block (waiting for another writing
    sync to end first; `waiting` is called then, to say so). A block inside one that holds it
    already, in the same thread, is part of the same sync: it goes on (another thread waits,
    as another process does)."""
    from orkestra.core import lock

    root = root.resolve()  # one project, however it is named (`.`, a symlink to it)
    depth: dict[Path, int] = _mine.__dict__.setdefault("depth", {})
    if depth.get(root):
        depth[root] += 1
        try:
            yield
        finally:
            depth[root] -= 1
        return
    with contextlib.ExitStack() as stack:
        # unwritable, a file or a symlink there, no file locking on this platform: without it
        with contextlib.suppress(OSError, OrkestraError):
            stack.enter_context(lock.locked(root / LOCK, root=root, waiting=waiting))
        depth[root] = 1
        try:
            yield
        finally:
            depth[root] = 0
