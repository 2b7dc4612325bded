"""The derived search index `.orkestra/search.sqlite3`: opened, refreshed, rebuilt when needed.

Freshness: every search stats the source files (`layout.scan`) and compares one fingerprint of
(path, mtime, size) per scan unit with the `units` table; only in a unit that differs are files
compared one by one with the `files` table, only files that differ are hashed, and only files whose
content hash changed are parsed again (their documents are replaced in one transaction). A file modified less than
`RACY_NS` before it was indexed is re-hashed on every search until it is older, because a second
edit within the file system's timestamp granularity would not change its mtime.

Concurrency: writers (refresh or rebuild) hold an exclusive `flock` on `.orkestra/search.lock`
and re-check what changed after taking it; readers need no lock (SQLite's own locking plus a busy
timeout). A missing, unreadable, corrupt or old-schema index is rebuilt from scratch into a
temporary file that replaces the old one atomically (`os.replace`), so a concurrent reader keeps
reading the file it opened.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import marshal
import os
import sqlite3
import time
from collections.abc import Collection, Iterable, Iterator, Sequence
from pathlib import Path

from orkestra.search import extract, layout, store
from orkestra.search.corpus import Entry
from orkestra.search.document import Document

INDEX_NAME = "search.sqlite3"
LOCK_NAME = "search.lock"
RACY_NS = 2_000_000_000
BUSY_TIMEOUT_S = 30.0
#: pseudo-file standing for the knowledge provider module (its change re-reads the knowledge)
PROVIDER = "@provider"
_PROVIDER_NAME = "search_docs.py"
_TODAY = "@today"


def index_path(root: Path) -> Path:
    return root / ".orkestra" / INDEX_NAME


def open_index(root: Path) -> sqlite3.Connection | None:
    """A fresh index for `root`, refreshed or rebuilt as needed; None when it cannot be used."""
    path = index_path(root)
    try:
        path.parent.mkdir(exist_ok=True)
    except OSError:
        return None
    for _attempt in range(3):
        if not path.is_file():
            rebuild(root, seen=None)
            continue
        seen = _identity(path)
        try:
            conn = _connect(path)
        except sqlite3.Error:
            rebuild(root, seen=seen)
            continue
        try:
            _check(conn)
            refresh(conn, root)
            return conn
        except sqlite3.DatabaseError:
            conn.close()
            rebuild(root, seen=seen)
    return None


def _identity(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def _check(conn: sqlite3.Connection) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version != store.SCHEMA:
        raise sqlite3.DatabaseError(f"search index schema {version}, expected {store.SCHEMA}")
    conn.execute("SELECT count(*) FROM meta").fetchone()


@contextlib.contextmanager
def _locked(root: Path) -> Iterator[None]:
    lock_path = root / ".orkestra" / LOCK_NAME
    with lock_path.open("a") as handle:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX: SQLite's locking alone
            yield
            return
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


# --- freshness ---------------------------------------------------------------------------------

#: unit -> path -> (mtime_ns, size)
Units = dict[str, layout.Stats]


def _provider_file() -> Path:
    return Path(__file__).resolve().parent.parent / "knowledge" / "search_docs.py"


def _current(root: Path, settings: layout.Settings) -> Units:
    """Every source as it is on disk now, by scan unit (plus the knowledge provider module)."""
    units = layout.scan(str(root), settings)
    provider: layout.Stats = {}
    try:
        st = _provider_file().stat()
    except OSError:
        pass
    else:
        provider[_PROVIDER_NAME] = (st.st_mtime_ns, st.st_size)
        # the provider ranks notes by age: a new day re-reads the knowledge base
        provider[_TODAY] = (_today(), 0)
    units[PROVIDER] = provider
    return units


def _today() -> int:
    from orkestra.core.clock import today

    return today().toordinal()


def _path(unit: str, name: str, settings: layout.Settings) -> str:
    return f"{PROVIDER}/{name}" if unit == PROVIDER else layout.unit_path(unit, name, settings)


def _fingerprint(stats: layout.Stats) -> str:
    return hashlib.blake2b(marshal.dumps(list(stats.items())), digest_size=16).hexdigest()


def _group(unit: str, path: str) -> str:
    """Documents are replaced per group: one file, or the whole knowledge base."""
    return layout.KNOWLEDGE if unit in (layout.KNOWLEDGE, PROVIDER) else path


def _settings(conn: sqlite3.Connection) -> layout.Settings:
    raw = store.get_meta(conn, "settings")
    if not isinstance(raw, dict):
        return layout.Settings()
    return layout.Settings(tuple(raw.get("vendor_roots", ())), str(raw.get("knowledge", "")))


def _racy(conn: sqlite3.Connection) -> list[tuple[str, int]]:
    raw = store.get_meta(conn, "racy")
    if not isinstance(raw, list):
        return []
    return [(str(item[0]), int(item[1])) for item in raw]


def _is_fresh(conn: sqlite3.Connection, root: Path, units: Units) -> bool:
    stored = dict(conn.execute("SELECT name, digest FROM units").fetchall())
    if stored.keys() != units.keys():
        return False
    if any(stored[name] != _fingerprint(stats) for name, stats in units.items()):
        return False
    now = time.time_ns()
    for path, mtime in _racy(conn):
        if mtime < now - RACY_NS:
            return False  # old enough now: one write clears it from the racy list
        row = conn.execute("SELECT hash FROM files WHERE path = ?", (path,)).fetchone()
        if row is None or row[0] != _digest(root, path):
            return False
    return True


def refresh(conn: sqlite3.Connection, root: Path) -> None:
    """Bring the index in step with the source files (no-op when nothing changed)."""
    settings = _settings(conn)
    units = _current(root, settings)
    if _is_fresh(conn, root, units):
        return
    with _locked(root):
        conn.execute("BEGIN IMMEDIATE")
        try:
            _apply(conn, root, settings, units)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise


def _digest(root: Path, path: str) -> str:
    if path == f"{PROVIDER}/{_TODAY}":
        return str(_today())
    target = _provider_file() if path.startswith(f"{PROVIDER}/") else root / path
    try:
        return hashlib.blake2b(target.read_bytes(), digest_size=16).hexdigest()
    except OSError:
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


def _apply(
    conn: sqlite3.Connection,
    root: Path,
    settings: layout.Settings,
    units: Units,
    *,
    fresh_index: bool = False,
) -> None:
    """Inside the write transaction: re-check against the tables, re-read what changed."""
    check, gone = _changes(conn, units, settings)
    if layout.CONFIG in check or fresh_index:
        fresh, _ = extract.settings(root)
        if fresh != settings or fresh_index:
            settings = fresh
            _save_settings(conn, settings)
            units = _current(root, settings)
            check, gone = _changes(conn, units, settings)
    hashes = dict(conn.execute("SELECT path, hash FROM files").fetchall()) if check else {}
    dirty: set[str] = set()
    now = time.time_ns()
    racy = []
    for path, (unit, mtime, size) in sorted(check.items()):
        digest = _digest(root, path)
        if hashes.get(path) != digest:
            dirty.add(_group(unit, path))
        if mtime >= now - RACY_NS:
            racy.append([path, mtime])
        conn.execute(
            "INSERT OR REPLACE INTO files(path, unit, mtime, size, hash) VALUES (?, ?, ?, ?, ?)",
            (path, unit, mtime, size, digest),
        )
    for path, unit in sorted(gone.items()):
        dirty.add(_group(unit, path))
        conn.execute("DELETE FROM files WHERE path = ?", (path,))
    for group in sorted(dirty):
        if not fresh_index:
            store.remove_source(conn, group)
        if group == layout.KNOWLEDGE or group not in gone:
            docs = _documents(root, group, settings)
            store.add_documents(conn, group, docs, pool_terms=not fresh_index)
    if fresh_index:
        store.fill_pool(conn)
    conn.execute("DELETE FROM units")
    conn.executemany(
        "INSERT INTO units(name, digest) VALUES (?, ?)",
        [(name, _fingerprint(stats)) for name, stats in sorted(units.items())],
    )
    store.put_meta(conn, "racy", racy)


def _documents(root: Path, group: str, settings: layout.Settings) -> list[Document]:
    if group == layout.KNOWLEDGE:
        return list(extract.knowledge_documents(root))
    if group == layout.CONFIG:
        return list(extract.settings(root)[1])
    kind = layout.kind_of(group, settings)
    return list(extract.documents(root, group, kind)) if kind else []


def _save_settings(conn: sqlite3.Connection, settings: layout.Settings) -> None:
    store.put_meta(
        conn,
        "settings",
        {"vendor_roots": list(settings.vendor_roots), "knowledge": settings.knowledge},
    )


# --- rebuild -----------------------------------------------------------------------------------


def rebuild(root: Path, *, seen: tuple[int, int, int] | None) -> None:
    """Build the index from scratch into a temporary file and move it into place.

    `seen` is the identity of the broken file the caller saw: if another process replaced it
    meanwhile, its fresh index is kept.
    """
    path = index_path(root)
    with _locked(root):
        now = _identity(path)
        if now is not None and now != seen and _usable(path):
            return
        tmp = path.with_name(f"{INDEX_NAME}.{os.getpid()}.tmp")
        tmp.unlink(missing_ok=True)
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode = OFF")
            conn.execute("PRAGMA synchronous = OFF")
            store.create(conn)
            conn.execute("BEGIN")
            settings, _ = extract.settings(root)
            _apply(conn, root, settings, _current(root, settings), fresh_index=True)
            conn.execute("COMMIT")
        finally:
            conn.close()
        for suffix in ("-journal", "-wal", "-shm"):
            path.with_name(INDEX_NAME + suffix).unlink(missing_ok=True)
        tmp.replace(path)


def _usable(path: Path) -> bool:
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S)
        try:
            _check(conn)
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return True


# --- queries -----------------------------------------------------------------------------------


class IndexCorpus:
    """The `Corpus` interface answered from the index."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._layouts: dict[str, tuple[tuple[str, ...], tuple[float, ...]]] = {}

    def frequency(self, low: str, high: str | None) -> int:
        if high is None:
            row = self._conn.execute("SELECT doc FROM termrows WHERE term = ?", (low,)).fetchone()
            return int(row[0]) if row else 0
        row = self._conn.execute(
            "SELECT total(doc) FROM termrows WHERE term >= ? AND term < ?", (low, high)
        ).fetchone()
        return int(row[0] or 0)

    def postings_range(
        self, low: str, high: str | None, within: Collection[int] | None
    ) -> Iterable[tuple[str, int, int]]:
        where = "term = ?" if high is None else "term >= ? AND term < ?"
        params: list[object] = [low] if high is None else [low, high]
        if within is not None:
            where += " AND doc IN (SELECT value FROM json_each(?))"
            params.append(json.dumps(list(within)))
        sql = f"SELECT term, doc, CAST(substr(col, 2) AS INTEGER) FROM terms WHERE {where}"
        return self._conn.execute(sql, params).fetchall()

    def postings(self, term: str, within: Collection[int] | None) -> Iterable[tuple[int, int]]:
        return [(ref, col) for _term, ref, col in self.postings_range(term, None, within)]

    def fuzzy_pool(self, shortest: int, longest: int) -> list[str]:
        rows = self._conn.execute(
            "SELECT term FROM pool WHERE len BETWEEN ? AND ? ORDER BY term", (shortest, longest)
        )
        return [term for (term,) in rows]

    def exact(self, key: str) -> list[int]:
        return [ref for (ref,) in self._conn.execute("SELECT ref FROM docs WHERE key = ?", (key,))]

    def entries(
        self, refs: Iterable[int], types: Sequence[str], with_attrs: bool
    ) -> dict[int, Entry]:
        attrs_col = "attrs" if with_attrs else "''"
        sql = (
            f"SELECT ref, type, id, path, line, fields, {attrs_col} FROM docs"
            " WHERE ref IN (SELECT value FROM json_each(?))"
        )
        params: list[str] = [json.dumps(list(refs))]
        if types:
            sql += f" AND type IN ({', '.join('?' * len(types))})"
            params.extend(types)
        out = {}
        layouts = self._layouts
        empty: dict[str, list[str]] = {}
        for ref, kind, ident, path, line, fields, attrs in self._conn.execute(sql, params):
            shape = layouts.get(fields) or self._layout(fields)
            extra = json.loads(attrs) if attrs else empty
            out[ref] = Entry(kind, ident, path, line, shape[0], shape[1], extra)
        return out

    def titles(self, refs: Iterable[int]) -> dict[int, str]:
        rows = self._conn.execute(
            "SELECT ref, title FROM docs WHERE ref IN (SELECT value FROM json_each(?))",
            (json.dumps(list(refs)),),
        )
        return dict(rows.fetchall())

    def _layout(self, fields: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
        known = self._layouts.get(fields)
        if known is None:
            pairs = json.loads(fields)
            known = self._layouts[fields] = (
                tuple(str(p[0]) for p in pairs),
                tuple(float(p[1]) for p in pairs),
            )
        return known
