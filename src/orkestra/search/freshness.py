"""Is the index in step with the sources, and bringing it there (inside a write transaction).

Every search stats the source files (`layout.scan`) and compares one fingerprint of (name, last
change: the later of mtime and ctime, size) per scan unit with the `units` table (`is_fresh`). Only
in a unit that differs are files compared one by one with the `files` table, only files that differ
are hashed, and only files whose content hash changed are parsed again, their documents replaced
(`apply`). A file modified less than `RACY_NS` before it was indexed (by the file system's clock:
`core.clock.files_behind`) is re-hashed on every search until it is older, because a second edit
within the file system's timestamp granularity would not change its mtime.
"""

from __future__ import annotations

import contextlib
import marshal
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING

from orkestra.core.digest import blake2b
from orkestra.core.stamp import changed_at
from orkestra.search import layout, store

if TYPE_CHECKING:
    from orkestra.search.document import Document, Problem
    from orkestra.search.extract import Ways

RACY_NS = 2_000_000_000
#: pseudo-unit standing for the knowledge provider module (its change re-reads the knowledge)
PROVIDER = "@provider"
_PROVIDER_NAME = "knowledge_docs.py"
_TODAY = "@today"
#: `orkestra.knowledge.outcomes.PATH` (not imported: this module is on every search's path)
_OUTCOMES = ".orkestra/notes-outcomes.json"

#: unit -> path -> (when it last changed, size): `core.stamp.changed_at`
Units = dict[str, layout.Stats]


def _provider_file() -> Path:
    return Path(__file__).resolve().parent / _PROVIDER_NAME


def current(root: Path, settings: layout.Settings) -> Units:
    """Every source as it is on disk now, by scan unit (plus the knowledge provider module)."""
    units = layout.scan(str(root), settings)
    provider: layout.Stats = {}
    try:
        st = _provider_file().stat()
    except OSError:
        pass  # the provider module has no file to stat: only the knowledge folder is watched
    else:
        provider[_PROVIDER_NAME] = (changed_at(st), st.st_size)
        # the provider ranks notes by age: a new day re-reads the knowledge base
        provider[_TODAY] = (_today(), 0)
    # the last `notes check` outcomes mark and demote notes: a new check re-reads the knowledge
    with contextlib.suppress(OSError):  # never checked: nothing to watch
        st = (root / _OUTCOMES).stat()
        provider[_OUTCOMES] = (changed_at(st), st.st_size)
    units[PROVIDER] = provider
    return units


def _today() -> int:
    from orkestra.core.clock import today

    return today().toordinal()


def _path(unit: str, name: str, settings: layout.Settings) -> str:
    return f"{PROVIDER}/{name}" if unit == PROVIDER else layout.unit_path(unit, name, settings)


def _fingerprint(stats: layout.Stats) -> str:
    """One digest of a unit's (name, last change, size) list, the same for the same values:
    marshal format 2, which writes no back-references (from format 3 an object another
    reference holds, such as an int a stat result still keeps, is written as a reference)."""
    return blake2b(marshal.dumps(list(stats.items()), 2), digest_size=16).hexdigest()


def _group(unit: str, path: str) -> str:
    """Documents are replaced per group: one file, or the whole knowledge base."""
    return layout.KNOWLEDGE if unit in (layout.KNOWLEDGE, PROVIDER) else path


def stored_settings(conn: sqlite3.Connection) -> layout.Settings:
    """The source settings the index was last built with."""
    raw = store.get_meta(conn, "settings")
    if not isinstance(raw, dict):
        return layout.Settings()
    allow = tuple(
        (str(root), tuple(str(n) for n in names)) for root, names in raw.get("vendor_allow", ())
    )
    return layout.Settings(tuple(raw.get("vendor_roots", ())), str(raw.get("knowledge", "")), allow)


def _racy(conn: sqlite3.Connection) -> list[tuple[str, int]]:
    raw = store.get_meta(conn, "racy")
    if not isinstance(raw, list):
        return []
    return [(str(item[0]), int(item[1])) for item in raw]


def _behind(conn: sqlite3.Connection) -> int:
    """The file clock's lag `apply` last read (0 when none was recorded)."""
    raw = store.get_meta(conn, "behind")
    return raw if type(raw) is int and raw >= 0 else 0


def is_fresh(conn: sqlite3.Connection, root: Path, units: Units) -> bool:
    """True when nothing scanned differs from the index (the warm path: reads only)."""
    stored = dict(conn.execute("SELECT name, digest FROM units").fetchall())
    if stored.keys() != units.keys():
        return False
    if any(stored[name] != _fingerprint(stats) for name, stats in units.items()):
        return False
    racy = _racy(conn)
    now = time.time_ns() - _behind(conn) if racy else 0  # by the file clock, as `apply` did
    for path, mtime in racy:
        if mtime < now - RACY_NS:
            return False  # old enough now: one write clears it from the racy list
        row = conn.execute("SELECT hash FROM files WHERE path = ?", (path,)).fetchone()
        if row is None or row[0] != _digest(root, path):
            return False
    return True


def _digest(root: Path, path: str) -> str:
    if path == f"{PROVIDER}/{_TODAY}":
        return str(_today())
    from orkestra.core.readfile import leaving, open_regular

    if path == f"{PROVIDER}/{_OUTCOMES}":
        if leaving(root, _OUTCOMES) is not None:
            return ""  # never read through a link out of the project (as `outcomes.read`)
        target = root / _OUTCOMES
    else:
        target = _provider_file() if path.startswith(f"{PROVIDER}/") else root / path
    try:  # a regular file only: a FIFO would block, a link to /dev/zero never end
        with open_regular(target) as handle:
            return blake2b(handle.read(), digest_size=16).hexdigest()
    except OSError:  # gone since the scan, or no file: an empty digest differs (read again)
        return ""


def _changes(
    conn: sqlite3.Connection, units: Units, settings: layout.Settings
) -> tuple[dict[str, tuple[str, int, int]], dict[str, str]]:
    """(path -> (unit, mtime, size) to re-check; path gone -> its unit) for changed units."""
    stored = dict(conn.execute("SELECT name, digest FROM units").fetchall())
    check: dict[str, tuple[str, int, int]] = {}
    gone: dict[str, str] = {}
    for unit in sorted(set(units) | set(stored)):
        stats = units.get(unit, {})
        if unit in units and stored.get(unit) == _fingerprint(stats):
            continue
        rows = conn.execute("SELECT path, mtime, size FROM files WHERE unit = ?", (unit,))
        known = {path: (mtime, size) for path, mtime, size in rows}
        present = set()
        for name, stat in stats.items():
            path = _path(unit, name, settings)
            present.add(path)
            if known.get(path) != stat:
                check[path] = (unit, *stat)
        gone.update((path, unit) for path in known if path not in present)
    racy = {path for path, _ in _racy(conn)}
    if racy:
        for unit, stats in units.items():
            for name, stat in stats.items():
                path = _path(unit, name, settings)
                if path in racy:
                    check.setdefault(path, (unit, *stat))
    return check, gone


def apply(
    conn: sqlite3.Connection,
    root: Path,
    settings: layout.Settings,
    units: Units,
    *,
    fresh_index: bool = False,
) -> None:
    """Inside the write transaction: re-check against the tables, re-read what changed."""
    check, gone = _changes(conn, units, settings)
    overlays = f"{layout.OVERLAYS}/"
    if (
        fresh_index
        or layout.CONFIG in check
        or any(p.startswith(overlays) for p in [*check, *gone])
    ):
        from orkestra.search import extract  # only when the sources changed

        fresh, _ = extract.settings(root)
        if fresh != settings or fresh_index:
            settings = fresh
            save_settings(conn, settings)
            units = current(root, settings)
            check, gone = _changes(conn, units, settings)
    hashes = _hashes(conn, check)
    dirty: set[str] = set()
    from orkestra.core.clock import files_behind

    behind = files_behind(root)
    now = time.time_ns() - behind  # by the clock the file system stamps with
    racy = []
    for path, (unit, mtime, size) in sorted(check.items()):
        digest = _digest(root, path)
        if hashes.get(path) != digest:
            dirty.add(_group(unit, path))
            if path == layout.CONFIG:  # the knowledge base is read with its settings
                dirty.add(layout.KNOWLEDGE)
        if mtime >= now - RACY_NS:
            racy.append([path, mtime])
        conn.execute(
            "INSERT OR REPLACE INTO files(path, unit, mtime, size, hash) VALUES (?, ?, ?, ?, ?)",
            (path, unit, mtime, size, digest),
        )
    for path, unit in sorted(gone.items()):
        dirty.add(_group(unit, path))
        conn.execute("DELETE FROM files WHERE path = ?", (path,))
    ways: Ways = {}  # each folder's way out of the project, looked at once
    for group in sorted(dirty):
        if not fresh_index:
            store.remove_source(conn, group)
        if group == layout.KNOWLEDGE or group not in gone:
            problems: list[Problem] = []
            docs = _documents(root, group, settings, problems, ways)
            store.add_documents(conn, group, docs, pool_terms=not fresh_index)
            store.add_problems(conn, group, problems)
    if fresh_index:
        store.fill_pool(conn)
    conn.execute("DELETE FROM units")
    conn.executemany(
        "INSERT INTO units(name, digest) VALUES (?, ?)",
        [(name, _fingerprint(stats)) for name, stats in sorted(units.items())],
    )
    store.put_meta(conn, "racy", racy)
    store.put_meta(conn, "behind", behind)


def _hashes(conn: sqlite3.Connection, paths: dict[str, tuple[str, int, int]]) -> dict[str, str]:
    if len(paths) > 200:
        return dict(conn.execute("SELECT path, hash FROM files").fetchall())
    out = {}
    for path in paths:
        row = conn.execute("SELECT hash FROM files WHERE path = ?", (path,)).fetchone()
        if row is not None:
            out[path] = row[0]
    return out


def _documents(
    root: Path,
    group: str,
    settings: layout.Settings,
    problems: list[Problem],
    ways: Ways,
) -> list[Document]:
    from orkestra.search import extract

    if group == layout.KNOWLEDGE:
        return list(extract.knowledge_documents(root, problems))
    if group == layout.CONFIG:
        return list(extract.settings(root, problems)[1])
    kind = layout.kind_of(group, settings)
    return list(extract.documents(root, group, kind, problems, ways)) if kind else []


def save_settings(conn: sqlite3.Connection, settings: layout.Settings) -> None:
    """Remember the source settings (vendor roots, knowledge folder) in the index."""
    store.put_meta(
        conn,
        "settings",
        {
            "vendor_roots": list(settings.vendor_roots),
            "knowledge": settings.knowledge,
            "vendor_allow": [[root, list(names)] for root, names in settings.vendor_allow],
        },
    )
