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

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orkestra.core import forking, jsonio
from orkestra.core.errors import InputError

if TYPE_CHECKING:
    from collections.abc import Callable

    from orkestra.registry.cache import ParseCache

#: the fewest agent and skill files for which a helper is forked: below it, the fork and the
#: pipe cost more than half of the parsing saves
MIN_FILES = 400


class Prefetch:
    """The parent's side: which files the helper loads, and its stream of entries."""

    def __init__(self, helper: forking.Forked, owned: list[str]) -> None:
        self.helper = helper
        self.owned = {rel: at for at, rel in enumerate(owned)}  # in the order they come
        self.taken = 0  # entries used (for tests and measurements)

    def offer(self, rel: str, cache: ParseCache) -> None:
        """Put the helper's entry for `rel` (the next it sends) into `cache`, if it has one."""
        reader = self.helper.reader
        if self.helper.pid <= 0 or reader is None:
            return
        want = self.owned[rel]
        while True:  # one line per file, in order; lines for files the parent passed over (a
            try:  # symlink leaving the project, say) are skipped
                line = reader.readline().decode("utf-8", "surrogatepass")
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
        """End the helper (if it still runs) and reap it; the parent loads the rest itself."""
        self.helper.stop()


def start(
    cache: ParseCache, files: Callable[[], list[tuple[Path, str, Callable[[Path], None]]]]
) -> Prefetch | None:
    """Fork a helper that loads every other one of `files()` (path, relative path, the loader's
    `unit` for it) on a cold load (the cache knows fewer than `MIN_FILES` files, and fewer than
    half of these); None when no helper is worth it. The files are listed only for a cold load."""
    if len(cache.files) >= MIN_FILES or not forking.can_fork():
        return None
    listed = files()
    known = sum(1 for _, rel, _ in listed if rel in cache.files)
    if len(listed) < MIN_FILES or known * 2 >= len(listed):
        return None
    owned = listed[1::2]
    cache.behind()  # read by the parent: the helper writes nothing
    helper = forking.Forked()
    if helper.child:  # the helper: load its files, send their entries, end
        status = 1
        try:
            _serve(cache, owned, helper)
            status = 0
        finally:
            os._exit(status)
    return Prefetch(helper, [rel for _, rel, _ in owned])


def _serve(
    cache: ParseCache, owned: list[tuple[Path, str, Callable[[Path], None]]], helper: forking.Forked
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
        helper.send(line.encode("utf-8", "surrogatepass"))
