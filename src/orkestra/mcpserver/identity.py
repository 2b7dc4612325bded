"""File identity of every source the server answers from: (mtime_ns, size) per path.

The scan units are the search index's (`search.layout.scan`: registries, vendor roots, the
knowledge tree); the registry files that search does not index (characters, tools, values,
commands, the decisions registry) are added, so an edit anywhere under `registries/` is seen.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from orkestra.search import extract, layout

Snapshot = dict[str, tuple[int, int]]

#: folders under registries/ whose files `layout.scan` already covers
_COVERED = ("agents", "truths", "decisions/records", "domains", "skills")


def snapshot(root: Path) -> Snapshot:
    """Every source file's identity now, keyed by its project-relative path."""
    settings, _ = extract.settings(root)
    out: Snapshot = {}
    for unit, stats in layout.scan(str(root), settings).items():
        for name, ident in stats.items():
            out[layout.unit_path(unit, name, settings)] = ident
    _registry_rest(f"{root}/registries", out)
    return out


def _registry_rest(base: str, out: Snapshot) -> None:
    for dirpath, dirnames, filenames in os.walk(base):
        rel = os.path.relpath(dirpath, base).replace(os.sep, "/")
        rel = "" if rel == "." else rel + "/"
        dirnames[:] = sorted(d for d in dirnames if f"{rel}{d}" not in _COVERED)
        for name in filenames:
            try:
                st = os.lstat(f"{dirpath}/{name}")  # hot path: str paths
            except OSError:  # vanished between listing and stat: absent from this snapshot
                continue
            if stat.S_ISREG(st.st_mode):
                out[f"registries/{rel}{name}"] = (st.st_mtime_ns, st.st_size)


def changed(before: Snapshot, after: Snapshot) -> list[str]:
    """Paths added, removed or with a different identity, sorted."""
    keys = before.keys() | after.keys()
    return sorted(k for k in keys if before.get(k) != after.get(k))
