"""The code map's state for `system status`: read-only, standard library only, never builds it."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from orkestra.codemap import gate, store


def code_status(root: Path) -> dict[str, Any]:
    """Files, symbols, languages (with their gate) and age of the map; `indexed: false` without
    (with the file in the way and what to do when a file stands where its folder belongs)."""
    if not store.exists(root):
        from orkestra.core import safewrite
        from orkestra.core.errors import ConflictError, UnsafePathError

        try:
            safewrite.check_target(root, store.MAP_PATH)
        except (ConflictError, UnsafePathError) as exc:
            return {
                "indexed": False,
                "reason": exc.message,
                "file": exc.file,
                "hint": f"move '{exc.file}' away, then run `orkestra code index`",
            }
        return {"indexed": False, "hint": "orkestra code index"}
    try:
        conn = store.connect(root, create=False)
    except sqlite3.DatabaseError as exc:  # a damaged map is rebuilt by the next `code index`
        return {"indexed": False, "reason": str(exc), "hint": "orkestra code index"}
    try:
        files = conn.execute("SELECT count(*) FROM files").fetchone()[0]
        symbols = conn.execute("SELECT count(*) FROM symbols").fetchone()[0]
        langs = dict(
            conn.execute(
                "SELECT language, count(*) FROM files WHERE language IS NOT NULL "
                "GROUP BY language ORDER BY language"
            ).fetchall()
        )
        stamp = store.indexed_at(conn)
    finally:
        conn.close()
    return {
        "indexed": True,
        "files": files,
        "symbols": symbols,
        "languages": langs,
        "not_green": sorted(name for name in langs if gate.status(name) != "GREEN"),
        "indexed_at": stamp,
        "age_seconds": int(time.time()) - stamp if stamp is not None else None,
        "path": store.MAP_PATH,
    }
