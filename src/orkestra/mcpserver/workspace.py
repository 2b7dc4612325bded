"""The warm state of one project: loaded once, refreshed by file identity between calls.

`Workspace.refresh()` runs before every call. With an inotify watcher (`watch`) and no event it
returns at once; otherwise it compares the identity of every source file with the last snapshot
(one `stat` per file). When files changed, the search index is brought up to date incrementally
(the CLI's own `search.index`), remembered search answers are dropped, and the registry is marked
stale: the next call that needs it reloads it, and after the current call a background thread
starts that reload. A reload whose validation finds errors keeps serving the last good entries of
the broken files (everything else is the new state) and reports the findings `orkestra validate`
gives for them.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orkestra.core.errors import OrkestraError
from orkestra.mcpserver import identity, watch
from orkestra.registry.findings import Finding
from orkestra.registry.registry import Registry

if TYPE_CHECKING:
    from orkestra.search.warm import WarmState

#: remembered search answers (dropped at every change)
MEMO_SIZE = 256
#: how long a reading of the file clock's lag stands (`Workspace.files_behind`)
BEHIND_TTL_S = 60.0
#: Registry attributes holding entries, by the location kind of their entries
_KINDS = {
    "agent": "agents",
    "skill": "skills",
    "scope": "scopes",
    "truth": "truths",
    "decision": "decisions",
    "command": "commands",
}


@dataclass
class Workspace:
    """One project's registry, search index connection and change tracking."""

    root: Path
    generation: int = 0
    snapshot: identity.Snapshot = field(default_factory=dict)
    last_changed: list[str] = field(default_factory=list)
    _registry: Registry | None = None
    _registry_generation: int = -1
    _errors: list[Finding] = field(default_factory=list)
    _conn: sqlite3.Connection | None = None
    watcher: watch.Watcher = field(default_factory=watch.Watcher)
    _day: int = -1
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _loaders: list[threading.Thread] = field(default_factory=list)
    _memo: dict[Hashable, dict[str, Any]] = field(default_factory=dict)
    _memo_generation: int = -1
    _reload_after_call: bool = False
    #: how far the file clock lags ours (`core.clock.files_behind`), and until when (monotonic
    #: seconds) that reading stands
    _behind: tuple[int, float] = (0, -1.0)
    #: the search index's tables kept in memory between searches (`search.warm`)
    warm_search: WarmState = field(default_factory=lambda: _warm_state())

    @classmethod
    def open(cls, root: Path) -> Workspace:
        """Open once: the search index built or refreshed, the registry loading in the background."""
        ws = cls(root.resolve())
        ws._day = _today()
        ws.watcher.watch(ws._folders())
        ws.snapshot = identity.snapshot(ws.root, ws.files_behind())
        ws.preload()
        ws.connection()
        return ws

    def refresh(self) -> list[str]:
        """Compare file identities with the last snapshot; returns the paths that changed.

        With a working watcher (inotify) and no event since the last call, and the same day (the
        search ranks notes by age), nothing is compared: nothing can have changed.
        """
        today = _today()
        new_day = today != self._day  # a new day re-ranks the notes (by age)
        if self.watcher.active and not self.watcher.maybe_changed() and not new_day:
            return []
        self._day = today
        if self.watcher.active:  # before the snapshot: a new folder's files are seen
            self.watcher.watch(self._folders())
        now = identity.snapshot(self.root, self.files_behind(), self.snapshot)
        changes = identity.changed(self.snapshot, now)
        self.snapshot = now
        if changes or new_day:
            self.generation += 1
            self.last_changed = changes
            if self._conn is not None:
                self._refresh_index(self._conn)
            self._reload_after_call = True
        return changes

    def files_behind(self) -> int:
        """How far the clock that stamps the project's files lags ours, read again (a write
        under `.orkestra/`) at most every `BEHIND_TTL_S` seconds."""
        import time

        lag, until = self._behind
        if time.monotonic() >= until:
            from orkestra.core.clock import files_behind

            lag = files_behind(self.root)
            self._behind = (lag, time.monotonic() + BEHIND_TTL_S)
        return lag

    def after_call(self) -> None:
        """Start the registry's background reload once the answer is out (not during the call,
        where it would compete with it), unless the call already reloaded it."""
        if self._reload_after_call:
            self._reload_after_call = False
            if self._registry_generation != self.generation:
                self.preload()

    def memo(self, key: Hashable, work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """`work()`, remembered until the next change (a copy: callers may add keys)."""
        if self._memo_generation != self.generation:
            self._memo.clear()
            self._memo_generation = self.generation
        if key not in self._memo:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.pop(next(iter(self._memo)))
            self._memo[key] = work()
        return dict(self._memo[key])

    # --- registry --------------------------------------------------------------------------------

    def registry(self) -> Registry:
        """The registry of the current generation (reloaded when stale), last good for broken files."""
        with self._lock:
            if self._registry is None or self._registry_generation != self.generation:
                self._reload()
            assert self._registry is not None
            return self._registry

    def preload(self) -> None:
        """Load the registry of this generation in the background (search does not wait for it;
        the next call that needs the registry waits only for what is left)."""
        self._loaders = [t for t in self._loaders if t.is_alive()]
        loader = threading.Thread(target=self._load_quietly, name="orkestra-registry", daemon=True)
        loader.start()  # an older load still running finishes first (the lock), then this one
        self._loaders.append(loader)

    def _load_quietly(self) -> None:
        try:
            self.registry()
        except (OrkestraError, OSError):  # the call that needs the registry meets it again
            return
        finally:
            # the load runs with the collector paused (`core.gcpause`): its full collection over
            # the new registry (and the old one, now garbage) is done here in the background,
            # not by the first request's allocations
            import gc

            gc.collect()

    def join(self) -> None:
        """Wait for the background loads to finish."""
        for loader in self._loaders:
            loader.join()
        self._loaders.clear()

    def findings(self) -> list[dict[str, Any]]:
        """The validation errors of the current files (empty when the registry is valid)."""
        self.registry()
        return [f.to_dict() for f in self._errors]

    def known_findings(self) -> list[dict[str, Any]]:
        """`findings()` when the registry is current, else nothing (no reload just for them:
        on a large registry a reload takes seconds, and search does not need the registry)."""
        if self._registry is None or self._registry_generation != self.generation:
            return []
        return [f.to_dict() for f in self._errors]

    def _reload(self) -> None:
        """Load the registry as the files are now. It stands for the generation current when
        the load began: a change that `refresh` counts while it runs (a background load started
        before an edit) makes the next call that needs the registry load it again."""
        from orkestra.registry.loader import load
        from orkestra.registry.validate import validate

        generation = self.generation
        fresh = load(self.root)
        errors = sorted(f for f in validate(fresh).findings if f.severity == "error")
        if errors and self._registry is not None:
            fresh = _keep_last_good(fresh, self._registry, {f.file for f in errors})
        self._registry, self._errors = fresh, errors
        self._registry_generation = generation

    # --- search index ----------------------------------------------------------------------------

    def connection(self) -> sqlite3.Connection | None:
        """The open search index (None when `.orkestra/` cannot be written: search reads sources)."""
        if self._conn is None:
            from orkestra.search import index

            self._conn = index.open_index(self.root)
        return self._conn

    def discard_index(self) -> None:
        """Close and remove a search index found damaged during a call (under the writers'
        lock, as `search.service` does); the next `connection()` rebuilds it."""
        from orkestra.search import index

        if self._conn is not None:
            self._conn.close()
            self._conn = None
        index.discard(self.root)

    def _refresh_index(self, conn: sqlite3.Connection) -> None:
        from orkestra.search import index

        try:
            index.refresh(conn, self.root)
        except sqlite3.DatabaseError:  # damaged under us: reopened (rebuilt) on the next search
            conn.close()
            self._conn = None

    def _folders(self) -> list[str]:
        from orkestra.search import extract

        settings, _ = extract.settings(self.root)
        tops = ["registries", settings.knowledge, *settings.vendor_roots]
        return watch.folders(str(self.root), [t for t in tops if t])

    def close(self) -> None:
        self.join()
        self.watcher.close()
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _today() -> int:
    from orkestra.core.clock import today

    return today().toordinal()


def _keep_last_good(fresh: Registry, good: Registry, broken: set[str]) -> Registry:
    """`fresh`, plus the entries `good` had in the files that now fail validation."""
    updates: dict[str, dict[str, Any]] = {}
    locations = dict(fresh.locations)
    for (kind, name), loc in good.locations.items():
        attr = _KINDS.get(kind)
        if attr is None or loc.file not in broken:
            continue
        table = updates.setdefault(attr, dict(getattr(fresh, attr)))
        if name not in table:
            table[name] = getattr(good, attr)[name]
            locations[(kind, name)] = loc
    if not updates:
        return fresh
    merged = replace(fresh, locations=locations)
    for attr, table in updates.items():
        setattr(merged, attr, table)
    return merged


def _warm_state() -> WarmState:
    from orkestra.search.warm import WarmState

    return WarmState()
