"""A second process that loads every other agent and skill file of a cold load.

A load that finds the parse cache empty (the first run in a clone, a new Orkestra version, a
deleted `.orkestra/`) parses every registry file on one core. With `MIN_FILES` or more agent
and skill files, `start` forks a helper at the beginning of the load: it loads every other one
of those files through the loader's own `unit` (the same parse, the same handler, the same
parse-cache entry) and sends each file's cache entry back through a pipe, as one JSON line, in
the order the load will reach them. The parent, on reaching such a file, puts the helper's entry
in its parse cache and looks the file up as it would on any run: the entry is used only if the
file's identity (size, mtime, ctime, inode, device) is still the one the helper saw, confirmed
by content within the racy window; anything else (the file changed, the helper failed, the
stream ended or is out of step) and the parent parses the file itself. The result is the one a
single process gives, and the cache it saves is the same.

The helper writes nothing and never returns into the load: it ends with `os._exit` once its
files are sent. It is forked only where `core.forking.can_fork` allows.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from orkestra.core import forking, jsonio
from orkestra.core.errors import InputError
from orkestra.core.forking import can_fork

if TYPE_CHECKING:
    from collections.abc import Callable

    from orkestra.registry.cache import ParseCache

#: the fewest agent and skill files for which a helper is forked: below it, the fork and the
#: pipe cost more than half of the parsing saves
MIN_FILES = 400


class Prefetch:
    """The parent's side: which files the helper loads, and its stream of entries."""

    def __init__(self, pid: int, reader: BinaryIO, owned: list[str]) -> None:
        self.pid = pid
        self.reader = reader
        self.owned = {rel: at for at, rel in enumerate(owned)}  # in the order they come
        self.taken = 0  # entries used (for tests and measurements)

    def offer(self, rel: str, cache: ParseCache) -> None:
        """Put the helper's entry for `rel` (the next it sends) into `cache`, if it has one."""
        if self.pid < 0:
            return
        want = self.owned[rel]
        while True:  # one line per file, in order; lines for files the parent passed over (a
            try:  # symlink leaving the project, say) are skipped
                line = self.reader.readline().decode("utf-8", "surrogatepass")
                sent = jsonio.loads_derived(line, source="the load's helper") if line else None
            except (OSError, ValueError, InputError):
                sent = None
            name = sent[0] if isinstance(sent, list) and len(sent) == 2 else None
            at = self.owned.get(name) if isinstance(name, str) else None
            if not isinstance(at, int) or at > want:
                self.stop()  # ended, failed or out of step: the parent loads the rest itself
                return
            if at == want:
                break
        assert isinstance(sent, list)
        if sent[1] is not None:  # None: the helper had nothing to cache (the parent reports)
            cache.offer(rel, sent[1])
            self.taken += 1

    def stop(self) -> None:
        """End the helper (if it still runs) and reap it; the parent loads the rest itself
        (once: a reaped helper's pid is -1, which `kill` would read as every process there is)."""
        if self.pid <= 0:
            return
        with contextlib.suppress(OSError):
            os.kill(self.pid, 9)
        self.reap()

    def reap(self) -> None:
        if self.pid <= 0:
            return
        with contextlib.suppress(OSError):
            self.reader.close()
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(self.pid, 0)
        self.pid = -1


def worth_trying(cache: ParseCache) -> bool:
    """A cold load (the cache knows fewer than `MIN_FILES` files) where a helper may fork:
    only then are the agent and skill files listed for one."""
    return len(cache.files) < MIN_FILES and can_fork()


def start(
    cache: ParseCache,
    files: list[tuple[Path, str, Callable[[Path], None]]],
) -> Prefetch | None:
    """Fork a helper that loads every other one of `files` (path, relative path, the loader's
    `unit` for it) when the cache knows few of them; None when no helper is worth it."""
    if len(files) < MIN_FILES or not can_fork():
        return None
    known = sum(1 for _, rel, _ in files if rel in cache.files)
    if known * 2 >= len(files):  # a warm cache: most files are looked up, not parsed
        return None
    owned = files[1::2]
    read, write = os.pipe()
    pid = forking.fork_helper()
    if pid == 0:  # the helper: load its files, send their entries, end
        os.close(read)
        status = 1
        try:
            _serve(cache, owned, write)
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    return Prefetch(pid, os.fdopen(read, "rb", buffering=1 << 16), [rel for _, rel, _ in owned])


def _serve(
    cache: ParseCache, owned: list[tuple[Path, str, Callable[[Path], None]]], fd: int
) -> None:
    """The helper's loop: each file loaded as the parent would, its cache entry sent."""
    for path, rel, load in owned:
        try:
            load(path)
        except Exception:  # the parent loads this one itself and reports what is wrong
            entry: Any = None
        else:
            entry = cache.files.get(rel)
        line = json.dumps([rel, entry], ensure_ascii=False, separators=(",", ":")) + "\n"
        view = memoryview(line.encode("utf-8", "surrogatepass"))
        while view:
            view = view[os.write(fd, view) :]
