"""A symbol's current line from an existing code map, for evidence (`path:symbol`) and note
sources: read-only, standard library only. A file changed since it was indexed is not answered
(the caller falls back to searching the text)."""

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
                "SELECT f.size, f.mtime_ns, min(s.line) FROM files f "
                "JOIN symbols s ON s.file_id = f.id "
                "WHERE f.path = ? AND (s.name = ? OR s.qualname = ?)",
                (rel, symbol, symbol.replace("::", ".")),
            ).fetchone()
            st = os.stat(os.path.join(self.root, rel))  # noqa: PTH116, PTH118 (hot path)
        except (sqlite3.Error, OSError):  # no answer from the map: the caller reads the text
            return None
        if row is None or row[2] is None or (row[0], row[1]) != (st.st_size, st.st_mtime_ns):
            return None
        return int(row[2])

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
