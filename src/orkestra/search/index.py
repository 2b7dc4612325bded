"""The derived search index `.orkestra/search.sqlite3`: opened, refreshed, rebuilt when needed.

Freshness: every search stats the source files (`layout.scan`) and compares mtime and size with
the `files` table; only files that differ are hashed, and only files whose content hash changed
are parsed again (their documents are replaced in one transaction). A file modified less than
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
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
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


def _provider_stat() -> tuple[int, int] | None:
    path = Path(__file__).resolve().parent.parent / "knowledge" / "search_docs.py"
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def _current(root: Path, settings: layout.Settings) -> dict[str, tuple[str, int, int]]:
    """path -> (group, mtime, size) of every source as it is on disk now."""
    files, knowledge = layout.scan(str(root), settings)
    current = {p: (p, m, s) for p, (m, s) in files.items()}
    current.update({p: (layout.KNOWLEDGE, m, s) for p, (m, s) in knowledge.items()})
    provider = _provider_stat()
    if provider is not None:
        current[PROVIDER] = (layout.KNOWLEDGE, *provider)
    return current


def _settings(conn: sqlite3.Connection) -> layout.Settings:
    raw = store.get_meta(conn, "settings")
    if not isinstance(raw, dict):
        return layout.Settings()
    return layout.Settings(tuple(raw.get("vendor_roots", ())), str(raw.get("knowledge", "")))


def _stale(
    conn: sqlite3.Connection, current: dict[str, tuple[str, int, int]]
) -> tuple[list[str], list[str]]:
    """(paths new or changed on disk, or racy; paths gone) against the files table."""
    stored = {
        path: (mtime, size, racy)
        for path, mtime, size, racy in conn.execute("SELECT path, mtime, size, racy FROM files")
    }
    changed = []
    for path, (_group, mtime, size) in current.items():
        old = stored.get(path)
        if old is None or old[0] != mtime or old[1] != size or old[2]:
            changed.append(path)
    gone = [path for path in stored if path not in current]
    return changed, gone


def refresh(conn: sqlite3.Connection, root: Path) -> None:
    """Bring the index in step with the source files (no-op when nothing changed)."""
    settings = _settings(conn)
    current = _current(root, settings)
    changed, gone = _stale(conn, current)
    if not changed and not gone:
        return
    with _locked(root):
        conn.execute("BEGIN IMMEDIATE")
        try:
            _apply(conn, root, settings, current)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise


def _digest(root: Path, path: str) -> str:
    if path == PROVIDER:
        target = Path(__file__).resolve().parent.parent / "knowledge" / "search_docs.py"
    else:
        target = root / path
    try:
        return hashlib.blake2b(target.read_bytes(), digest_size=16).hexdigest()
    except OSError:
        return ""


def _apply(
    conn: sqlite3.Connection,
    root: Path,
    settings: layout.Settings,
    current: dict[str, tuple[str, int, int]],
    *,
    fresh_index: bool = False,
) -> None:
    """Inside the write transaction: re-check against the table, re-read what changed."""
    if layout.CONFIG in _stale(conn, current)[0]:
        fresh, _ = extract.settings(root)
        if fresh != settings:
            settings = fresh
            _save_settings(conn, settings)
            current = _current(root, settings)
    changed, gone = _stale(conn, current)
    hashes = dict(conn.execute("SELECT path, hash FROM files").fetchall())
    dirty: set[str] = set()
    now = time.time_ns()
    for path in changed:
        group, mtime, size = current[path]
        digest = _digest(root, path)
        if hashes.get(path) != digest:
            dirty.add(group)
        racy = int(mtime >= now - RACY_NS)
        conn.execute(
            "INSERT OR REPLACE INTO files(path, grp, mtime, size, hash, racy)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (path, group, mtime, size, digest, racy),
        )
    for path in gone:
        row = conn.execute("SELECT grp FROM files WHERE path = ?", (path,)).fetchone()
        dirty.add(row[0] if row else path)
        conn.execute("DELETE FROM files WHERE path = ?", (path,))
    for group in sorted(dirty):
        if not fresh_index:
            store.remove_source(conn, group)
        if group in current or group == layout.KNOWLEDGE:
            store.add_documents(conn, group, _documents(root, group, settings))


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
            _save_settings(conn, settings)
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

    def postings_range(self, low: str, high: str | None) -> Iterable[tuple[str, int, int]]:
        if high is None:
            rows = self._conn.execute("SELECT term, doc, col FROM terms WHERE term = ?", (low,))
        else:
            rows = self._conn.execute(
                "SELECT term, doc, col FROM terms WHERE term >= ? AND term < ?", (low, high)
            )
        return [(term, doc, int(col[1:])) for term, doc, col in rows]

    def postings(self, term: str) -> Iterable[tuple[int, int]]:
        rows = self._conn.execute("SELECT doc, col FROM terms WHERE term = ?", (term,))
        return [(doc, int(col[1:])) for doc, col in rows]

    def fuzzy_pool(self, shortest: int, longest: int) -> list[str]:
        rows = self._conn.execute(
            "SELECT term FROM pool WHERE len BETWEEN ? AND ? ORDER BY term", (shortest, longest)
        )
        return [term for (term,) in rows]

    def exact(self, key: str) -> list[int]:
        return [ref for (ref,) in self._conn.execute("SELECT ref FROM docs WHERE key = ?", (key,))]

    def entries(self, refs: Iterable[int]) -> dict[int, Entry]:
        wanted = json.dumps(list(refs))
        rows = self._conn.execute(
            "SELECT ref, type, id, title, path, line, fields, attrs FROM docs"
            " WHERE ref IN (SELECT value FROM json_each(?))",
            (wanted,),
        )
        out = {}
        for ref, kind, ident, title, path, line, fields, attrs in rows:
            names, weights = self._layout(fields)
            out[ref] = Entry(kind, ident, title, path, line, names, weights, json.loads(attrs))
        return out

    def _layout(self, fields: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
        known = self._layouts.get(fields)
        if known is None:
            pairs = json.loads(fields)
            known = self._layouts[fields] = (
                tuple(str(p[0]) for p in pairs),
                tuple(float(p[1]) for p in pairs),
            )
        return known
