"""File identity of every source the server answers from: (last change, size) per path (the
later of mtime and ctime: `core.stamp.changed_at`).

The scan units are the search index's (`search.layout.scan`: registries, vendor roots, the
knowledge tree); the registry files that search does not index (characters, tools, values,
commands, the decisions registry) are added, so an edit anywhere under `registries/` is seen.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from pathlib import Path

from orkestra.core.stamp import changed_at
from orkestra.search import extract, layout

#: path -> (last change, size, content digest); the digest only for a file changed less than
#: `RACY_NS` before the snapshot, by the clock that stamps the files (else ""): a second edit
#: within the file system's timestamp granularity that keeps the size would not change the
#: first two (as `search.freshness`)
Snapshot = dict[str, tuple[int, int, str]]
RACY_NS = 2_000_000_000

#: folders under registries/ whose files `layout.scan` already covers
_COVERED = ("agents", "truths", "decisions/records", "domains", "skills")


def snapshot(root: Path, behind: int = 0, before: Snapshot | None = None) -> Snapshot:
    """Every source file's identity now, keyed by its project-relative path; `behind`: how far
    the file clock lags ours (`core.clock.files_behind`). A racy file keeps its content digest.
    So, once, does a file that was racy in the last snapshot (`before`) and keeps its identity:
    an edit in the tick of its change, after that snapshot, shows only in its bytes. Its digest
    is kept when they differ (`changed` reports it) and dropped when they match (settled: its
    identity vouches from then on)."""
    settings, _ = extract.settings(root)
    stats: dict[str, tuple[int, int]] = {}
    left: list[str] = []  # names search leaves out (not UTF-8): `validate` reports them
    for unit, files in layout.scan(str(root), settings, left).items():
        for name, ident in files.items():
            stats[layout.unit_path(unit, name, settings)] = ident
    _registry_rest(f"{root}/registries", stats)
    for path in left:
        try:
            st = os.lstat(path)
        except OSError:  # gone since the scan: absent from this snapshot
            continue
        stats[os.path.relpath(path, root)] = (changed_at(st), st.st_size)
    racy = time.time_ns() - behind - RACY_NS
    out: Snapshot = {}
    for path, (changed, size) in stats.items():
        digest = ""
        if changed > racy:
            digest = _digest(root, path)
        elif before is not None:
            was = before.get(path)
            if was is not None and was[2] and was[:2] == (changed, size):
                digest = _digest(root, path)
                digest = "" if digest == was[2] else digest
        out[path] = (changed, size, digest)
    return out


def _digest(root: Path, path: str) -> str:
    try:
        with open(f"{root}/{path}", "rb") as handle:  # noqa: PTH123 - str paths
            return hashlib.blake2b(handle.read(), digest_size=16).hexdigest()
    except OSError:  # vanished or unreadable since the scan: no digest, the next scan sees it
        return "?"


def _registry_rest(base: str, out: dict[str, tuple[int, int]]) -> None:
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
                out[f"registries/{rel}{name}"] = (changed_at(st), st.st_size)


def changed(before: Snapshot, after: Snapshot) -> list[str]:
    """Paths added, removed or with a different identity, sorted."""
    keys = before.keys() | after.keys()
    return sorted(k for k in keys if _differ(before.get(k), after.get(k)))


def _differ(old: tuple[int, int, str] | None, new: tuple[int, int, str] | None) -> bool:
    if old is None or new is None:
        return old is not new
    if old[:2] != new[:2]:
        return True
    return bool(old[2] and new[2]) and old[2] != new[2]
