"""The derived search index `.orkestra/search.sqlite3`: opened, refreshed, rebuilt when needed.

Freshness (what changed, and replacing the documents of changed files) is `freshness`; the
queries are `sqlcorpus`.

Concurrency: writers (refresh or rebuild) hold the `core.lock` lock of `.orkestra/search.lock`
and re-check what changed after taking it; readers need no lock (SQLite's own locking plus a busy
timeout). A missing, unreadable, corrupt or old-schema index is rebuilt from scratch into a
temporary file that replaces the old one atomically (`os.replace`), so a concurrent reader keeps
reading the file it opened.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from orkestra.search import freshness, store

INDEX_NAME = "search.sqlite3"
LOCK_NAME = "search.lock"
BUSY_TIMEOUT_S = 30.0


def index_path(root: Path) -> Path:
    return root / ".orkestra" / INDEX_NAME


def open_index(root: Path) -> sqlite3.Connection | None:
    """A fresh index for `root`, refreshed or rebuilt as needed; None when it cannot be used."""
    path = index_path(root)
    try:
        path.parent.mkdir(exist_ok=True)
    except OSError:  # `.orkestra/` cannot be written: search reads the sources (docs/search.md)
        return None
    from orkestra.core import safewrite

    # never opened (SQLite would read and write it) through a symlink, which may lead out of the
    # project, as the code map's `.orkestra/code.sqlite` (PRODUCT.md §13): a clear error
    safewrite.check_target(root, path)
    for _attempt in range(3):
        if not path.is_file():
            if not _rebuilt(root, None):
                return None
            continue
        seen = _identity(path)
        try:
            conn = _connect(path)
        except sqlite3.Error:  # corrupt or foreign: rebuilt from the sources (docs/search.md)
            if not _rebuilt(root, seen):
                return None
            continue
        try:
            _check(conn)
            refresh(conn, root)
            return conn
        except sqlite3.DatabaseError:  # damaged or old schema: rebuilt (docs/search.md)
            conn.close()
            if not _rebuilt(root, seen):
                return None
        except OSError as exc:  # it cannot be brought in step here (a read-only view of the
            conn.close()  # project): search reads the sources, as where `.orkestra/` cannot
            if not _read_only(exc):  # be written; anything else in the way is a clear error
                raise
            return None
    return None


def _read_only(exc: OSError) -> bool:
    """True when `exc` says the index cannot be written here at all (a read-only file system,
    no permission), as against something in the way that the user can fix (a folder where the
    index file goes), which stays a clear error."""
    return exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM)


def _rebuilt(root: Path, seen: tuple[int, int, int] | None) -> bool:
    """`rebuild`, False when the index cannot be written here (a read-only view of the
    project): search then reads the sources."""
    try:
        rebuild(root, seen=seen)
    except OSError as exc:
        if not _read_only(exc):
            raise
        return False
    return True


def _identity(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:  # no index file: no identity to compare
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
    from orkestra.core.lock import locked

    with locked(root / ".orkestra" / LOCK_NAME, root=root):
        yield


def refresh(conn: sqlite3.Connection, root: Path) -> None:
    """Bring the index in step with the source files (no-op when nothing changed)."""
    settings = freshness.stored_settings(conn)
    units = freshness.current(root, settings)
    if freshness.is_fresh(conn, root, units):
        return
    with _locked(root):
        conn.execute("BEGIN IMMEDIATE")
        try:
            freshness.apply(conn, root, settings, units)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise


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
        from orkestra.core import safewrite  # a rebuild only: not on the warm path

        for target in (tmp, path):  # never built or renamed through a symlinked folder or link
            safewrite.check_target(root, target)
        tmp.unlink(missing_ok=True)
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode = OFF")
            conn.execute("PRAGMA synchronous = OFF")
            store.create(conn)
            conn.execute("BEGIN")
            from orkestra.search import extract  # the sources are read on a rebuild only

            settings, _ = extract.settings(root)
            freshness.apply(
                conn, root, settings, freshness.current(root, settings), fresh_index=True
            )
            conn.execute("COMMIT")
        finally:
            conn.close()
        for suffix in ("-journal", "-wal", "-shm"):
            path.with_name(INDEX_NAME + suffix).unlink(missing_ok=True)
        tmp.replace(path)


def discard(root: Path) -> None:
    """Remove a damaged index (under the writers' lock); the next search rebuilds it."""
    path = index_path(root)
    with _locked(root):
        for name in (INDEX_NAME, f"{INDEX_NAME}-journal"):
            path.with_name(name).unlink(missing_ok=True)


def _usable(path: Path) -> bool:
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S)
        try:
            _check(conn)
        finally:
            conn.close()
    except sqlite3.Error:  # the answer: this file is not a usable index
        return False
    return True
