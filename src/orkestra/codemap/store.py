"""`.orkestra/code.sqlite`: the code map's tables (derived, safe to delete, safe to share).

An incremental update is one write transaction (`BEGIN IMMEDIATE`): readers see the map before
or after it, never half of it. A full index is built into a temporary file that then replaces the
map (`os.replace`), so readers keep the file they opened. A map with an old schema or a damaged
file is deleted and rebuilt, and so is a map another extractor built (`languages.extractor_stamp`:
another Orkestra version, other tags queries or grammars), whose facts for unchanged files would
otherwise stay as that extractor left them.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from orkestra.core import safewrite
from orkestra.core.lines import split_lines
from orkestra.core.stamp import settles_from

MAP_PATH = ".orkestra/code.sqlite"
#: held by every writer of the map for its whole transaction, and by a full build's install
LOCK_PATH = ".orkestra/code.lock"
SCHEMA = 7
BUSY_TIMEOUT_S = 30.0
#: a file changed this close to the run that read it is read again by the next run (its hash
#: compared): a second edit within the file system's timestamp tick would keep its identity
RACY_NS = 2_000_000_000

TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
  id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, language TEXT, size INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL, inode INTEGER NOT NULL,
  seen_ns INTEGER NOT NULL, sha TEXT NOT NULL, lines INTEGER NOT NULL, demoted INTEGER NOT NULL,
  centrality REAL NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS symbols (
  id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, name TEXT NOT NULL, qualname TEXT NOT NULL,
  kind TEXT NOT NULL, line INTEGER NOT NULL, end_line INTEGER NOT NULL, signature TEXT NOT NULL,
  centrality REAL NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS refs (
  id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, name TEXT NOT NULL, line INTEGER NOT NULL,
  col INTEGER NOT NULL, kind TEXT NOT NULL, member INTEGER NOT NULL, scope TEXT NOT NULL,
  owner TEXT NOT NULL, target INTEGER, guessed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS imports (
  id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, module TEXT NOT NULL, name TEXT NOT NULL,
  alias TEXT NOT NULL, line INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS import_targets (
  import_id INTEGER NOT NULL, file_id INTEGER NOT NULL, target_file INTEGER NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS text USING fts5(body, tokenize = 'trigram');
CREATE VIRTUAL TABLE IF NOT EXISTS idents USING fts5(path, names, tokenize = 'porter unicode61');
"""
#: secondary indexes: a full build creates them after the bulk inserts (cheaper than maintaining)
INDEXES = """
CREATE INDEX IF NOT EXISTS symbols_name ON symbols (name);
CREATE INDEX IF NOT EXISTS symbols_file ON symbols (file_id);
CREATE INDEX IF NOT EXISTS refs_name ON refs (name);
CREATE INDEX IF NOT EXISTS refs_target ON refs (target);
CREATE INDEX IF NOT EXISTS refs_file ON refs (file_id);
CREATE INDEX IF NOT EXISTS imports_file ON imports (file_id);
CREATE INDEX IF NOT EXISTS targets_file ON import_targets (file_id);
CREATE INDEX IF NOT EXISTS targets_import ON import_targets (import_id);
CREATE INDEX IF NOT EXISTS targets_target ON import_targets (target_file);
"""


def stamp(st: os.stat_result) -> tuple[int, int, int, int]:
    """What makes a file unchanged without reading it: size, mtime, ctime (an edit that sets
    the old mtime back still moves it) and inode (a file replaced by another), as SQLite keeps
    integers (`_signed`)."""
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, _signed(st.st_ino))


def _signed(number: int) -> int:
    """`number` folded into a signed 64-bit integer: inode numbers of 2**63 and over (SMB file
    ids, 128-bit ReFS ids) would not fit an SQLite INTEGER."""
    while number >> 64:
        number = (number & (1 << 64) - 1) ^ (number >> 64)
    return number - (1 << 64) if number >> 63 else number


def settled(mtime_ns: int, ctime_ns: int, seen_ns: int) -> bool:
    """True when a file's last change lies more than `RACY_NS` before the run that read it
    (`seen_ns`): its stat then stands for the content read. A file dated after that run is
    judged by its ctime (`core.stamp.settles_from`)."""
    return settles_from(mtime_ns, ctime_ns, seen_ns) + RACY_NS < seen_ns


def map_path(root: Path) -> Path:
    """Where the code map of `root` lives."""
    return root / MAP_PATH


def exists(root: Path) -> bool:
    """True when a code map has been built for `root`."""
    return map_path(root).is_file()


def connect(root: Path, *, create: bool) -> sqlite3.Connection:
    """Open the map (creating or rebuilding it when `create`); its folder must not be a symlink."""
    safewrite.check_target(root, MAP_PATH)
    path = map_path(root)
    if create:
        path.parent.mkdir(exist_ok=True)
    conn = None
    try:
        conn = _open(path)
        if _schema(conn) == SCHEMA:
            return conn
    except sqlite3.DatabaseError:  # damaged or foreign file: a derived map is rebuilt
        pass
    if conn is not None:
        conn.close()
    if not create:
        raise sqlite3.DatabaseError(
            f"{MAP_PATH} is out of date (an old schema, or built by another version of the "
            "extractor or its grammars) or damaged"
        )
    with writing(root):
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        return _create(path)


def fresh(root: Path) -> tuple[sqlite3.Connection, Path]:
    """An empty map in a temporary file beside the real one (journal off: it is rebuilt anyway)."""
    safewrite.check_target(root, MAP_PATH)
    path = map_path(root)
    path.parent.mkdir(exist_ok=True)
    temp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    temp.unlink(missing_ok=True)
    conn = _create(temp, indexes=False)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    return conn, temp


@contextmanager
def writing(root: Path) -> Iterator[None]:
    """Hold the map's writers' lock (`LOCK_PATH`). A write transaction keeps a journal named
    after the map's path: a full build renamed over the map meanwhile would make a reader of the
    new file take that journal for its own and roll it back into it (a damaged map). So every
    update holds this lock from before its transaction to after it ends, and an install holds it
    to rename. Where the lock cannot be made (a read-only project) nobody writes the map."""
    from orkestra.core import lock

    with contextlib.ExitStack() as stack:
        with contextlib.suppress(OSError):  # a read-only project: its map is not written either
            stack.enter_context(lock.locked(root / LOCK_PATH, root=root))
        yield


def install(root: Path, temp: Path) -> None:
    """Replace the map with a finished temporary build, under the writers' lock: no update is
    in a transaction, so a journal still there is a killed writer's, of the map being replaced
    (removed first, or the new map's first reader would roll it back into the new file)."""
    safewrite.check_target(root, MAP_PATH)
    path = map_path(root)
    with writing(root):
        Path(f"{path}-journal").unlink(missing_ok=True)
        temp.replace(path)


def add_indexes(conn: sqlite3.Connection) -> None:
    """Create the secondary indexes (idempotent; safe inside an open transaction)."""
    for statement in INDEXES.split(";"):
        if statement.strip():
            conn.execute(statement)


def _create(path: Path, *, indexes: bool = True) -> sqlite3.Connection:
    from orkestra.codemap.languages import extractor_stamp

    conn = _open(path)
    conn.executescript(TABLES + (INDEXES if indexes else ""))
    set_meta(conn, "extractor", extractor_stamp())
    conn.execute(f"PRAGMA user_version = {SCHEMA}")
    return conn


def _open(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(os.fspath(path), timeout=BUSY_TIMEOUT_S, isolation_level=None)
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def _schema(conn: sqlite3.Connection) -> int:
    """The map's schema version; -1 for a map of this schema that another extractor built."""
    from orkestra.codemap.languages import extractor_stamp

    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version == SCHEMA:
        conn.execute("SELECT count(*) FROM files").fetchone()
        if meta(conn, "extractor") != extractor_stamp():
            return -1
    return version


def meta(conn: sqlite3.Connection, key: str) -> str | None:
    """One value of the meta table."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def indexed_at(conn: sqlite3.Connection) -> int | None:
    """When the map was last brought up to date (seconds since the epoch), None before that:
    the one reading `code index` and `system status` report."""
    stamp = meta(conn, "indexed_at")
    return int(stamp) if stamp else None


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    """Set one value of the meta table."""
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))


#: the longest snippet a hit cites (a line's head, or the part of a long line around the hit)
SNIPPET = 200


def snippet(line: str, at: int = 0) -> str:
    """A line as a hit cites it: stripped, at most `SNIPPET` characters: its head, or, when the
    hit lies further into a long line (a minified bundle), the part from a little before `at`
    (a character offset into the line)."""
    head = line.strip()
    if len(head) <= SNIPPET:
        return head
    start = at - (len(line) - len(line.lstrip()))  # `at` in the stripped line
    if start < SNIPPET * 3 // 4:
        return head[:SNIPPET]
    return head[start - SNIPPET // 4 :][:SNIPPET].strip()


def file_lines(conn: sqlite3.Connection, file_id: int) -> list[str]:
    """The lines of an indexed file as the map read it (none when it holds no text)."""
    row = conn.execute("SELECT body FROM text WHERE rowid = ?", (file_id,)).fetchone()
    return split_lines(str(row[0])) if row else []


def names_of(conn: sqlite3.Connection, file_id: int) -> set[str]:
    """Names a file defines or binds by import (what other files' references may mean)."""
    rows = conn.execute(
        "SELECT name FROM symbols WHERE file_id = ? UNION "
        "SELECT CASE alias WHEN '' THEN name ELSE alias END FROM imports WHERE file_id = ?",
        (file_id, file_id),
    )
    return {str(r[0]) for r in rows}


def delete_file(conn: sqlite3.Connection, file_id: int, *, keep_row: bool = False) -> None:
    """Remove everything extracted from a file, and the file itself unless `keep_row` (a file
    read again keeps its id, so other files' import targets stay valid)."""
    conn.execute("DELETE FROM symbols WHERE file_id = ?", (file_id,))
    conn.execute("DELETE FROM refs WHERE file_id = ?", (file_id,))
    conn.execute("DELETE FROM import_targets WHERE file_id = ?", (file_id,))
    conn.execute("DELETE FROM imports WHERE file_id = ?", (file_id,))
    conn.execute("DELETE FROM text WHERE rowid = ?", (file_id,))
    conn.execute("DELETE FROM idents WHERE rowid = ?", (file_id,))
    if not keep_row:
        conn.execute("DELETE FROM files WHERE id = ?", (file_id,))
