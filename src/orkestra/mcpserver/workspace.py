"""The warm state of one project: loaded once, refreshed by file identity between calls.

`Workspace.refresh()` runs before every call. It compares the identity of every source file with
the last snapshot; when nothing changed it costs one `stat` per file and nothing else. When files
changed, the search index is brought up to date incrementally (the CLI's own `search.index`), and
the registry is marked stale and reloaded by the next call that needs it. A reload whose
validation finds errors keeps serving the last good entries of the broken files (everything else
is the new state) and reports the findings `orkestra validate` gives for them.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from orkestra.mcpserver import identity
from orkestra.registry.findings import Finding
from orkestra.registry.registry import Registry

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

    @classmethod
    def open(cls, root: Path) -> Workspace:
        """Load everything once (the index is built or refreshed, the registry loaded)."""
        ws = cls(root.resolve())
        ws.snapshot = identity.snapshot(ws.root)
        ws.registry()
        ws.connection()
        return ws

    def refresh(self) -> list[str]:
        """Compare file identities with the last snapshot; returns the paths that changed."""
        now = identity.snapshot(self.root)
        changes = identity.changed(self.snapshot, now)
        self.snapshot = now
        if changes:
            self.generation += 1
            self.last_changed = changes
            if self._conn is not None:
                self._refresh_index(self._conn)
        return changes

    # --- registry --------------------------------------------------------------------------------

    def registry(self) -> Registry:
        """The registry of the current generation (reloaded when stale), last good for broken files."""
        if self._registry is None or self._registry_generation != self.generation:
            self._reload()
        assert self._registry is not None
        return self._registry

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
        from orkestra.registry.loader import load
        from orkestra.registry.validate import validate

        fresh = load(self.root)
        errors = sorted(f for f in validate(fresh).findings if f.severity == "error")
        if errors and self._registry is not None:
            fresh = _keep_last_good(fresh, self._registry, {f.file for f in errors})
        self._registry, self._errors = fresh, errors
        self._registry_generation = self.generation

    # --- search index ----------------------------------------------------------------------------

    def connection(self) -> sqlite3.Connection | None:
        """The open search index (None when `.orkestra/` cannot be written: search reads sources)."""
        if self._conn is None:
            from orkestra.search import index

            self._conn = index.open_index(self.root)
        return self._conn

    def _refresh_index(self, conn: sqlite3.Connection) -> None:
        from orkestra.search import index

        try:
            index.refresh(conn, self.root)
        except sqlite3.DatabaseError:  # damaged under us: reopened (rebuilt) on the next search
            conn.close()
            self._conn = None

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


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
