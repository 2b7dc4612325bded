"""A symbol's current line from an existing code map, for evidence (`path:symbol`) and note
sources: read-only, standard library only. A file changed since it was indexed is not answered
(the caller falls back to searching the text); one indexed so soon after its change that its
stat does not vouch for its content (`store.settled`) is answered only while it holds the bytes
indexed."""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

from orkestra.codemap import store

SYMBOL = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*")


class Locator:
    """Answers many look-ups with one connection to the map of one project."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.conn: sqlite3.Connection | None = None
        self.opened = False

    def line(self, path: str, symbol: str) -> int | None:
        """1-based line where `symbol` (a name, `Class.method` or `Class::method`) is defined in
        `path`, when the map holds the file as it is on disk now; else None."""
        if not SYMBOL.fullmatch(symbol):
            return None
        conn = self._connect()
        if conn is None:
            return None
        rel = path.removeprefix("./")
        try:
            row = conn.execute(
                "SELECT f.size, f.mtime_ns, f.ctime_ns, f.inode, f.seen_ns, f.sha, min(s.line) "
                "FROM files f JOIN symbols s ON s.file_id = f.id "
                "WHERE f.path = ? AND (s.name = ? OR s.qualname = ?)",
                (rel, symbol, symbol.replace("::", ".")),
            ).fetchone()
            full = os.path.join(self.root, rel)  # noqa: PTH118 (hot path)
            st = os.stat(full)  # noqa: PTH116
        except (sqlite3.Error, OSError):  # no answer from the map: the caller reads the text
            return None
        if row is None or row[6] is None or row[:4] != store.stamp(st):
            return None
        if not store.settled(row[1], row[2], row[4]) and _sha(full, row[:4]) != row[5]:
            return None  # read in its change's tick, and changed since: its stat vouches nothing
        return int(row[6])

    def _connect(self) -> sqlite3.Connection | None:
        if not self.opened:
            self.opened = True
            if store.exists(self.root):
                try:
                    self.conn = store.connect(self.root, create=False)
                except sqlite3.DatabaseError:  # damaged or old map: answer from the text
                    self.conn = None
        return self.conn

    def close(self) -> None:
        """Close the connection, if one was opened."""
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def symbol_line(root: Path, path: str, symbol: str) -> int | None:
    """One look-up (see `Locator.line`)."""
    locator = Locator(root)
    try:
        return locator.line(path, symbol)
    finally:
        locator.close()


def _sha(path: str, stamp: tuple[int, ...]) -> str | None:
    """The sha1 the indexer keeps of a file's bytes, read from the regular file with the stamp
    the map holds (None when it cannot be read so: another file, a FIFO, gone)."""
    import hashlib

    from orkestra.core.readfile import open_regular

    try:
        with open_regular(path, follow=False) as handle:
            if store.stamp(os.fstat(handle.fileno())) != stamp:
                return None
            return hashlib.sha1(handle.read(), usedforsecurity=False).hexdigest()
    except OSError:
        return None
