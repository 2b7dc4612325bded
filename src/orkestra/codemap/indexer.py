"""`orkestra code index`: bring `.orkestra/code.sqlite` up to date, incrementally.

A file is re-read only when its size or modification time changed, and re-parsed only when its
content hash changed. After any change, references and imports are re-resolved over the whole map
and centrality recomputed (in memory; a few hundred milliseconds on a large tree), all inside one
write transaction.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from orkestra.codemap import extract, gate, graph, languages, resolve, store, walk
from orkestra.retrieval.fusion import is_demoted


def index(root: Path, *, full: bool = False) -> dict[str, Any]:
    """Index `root` (everything again with `full`); return what was done and the map's state."""
    languages.require()
    started = time.perf_counter()
    paths = walk.list_files(root)
    conn = store.connect(root, create=True)
    try:
        conn.execute("BEGIN IMMEDIATE")
        if full:
            for (fid,) in conn.execute("SELECT id FROM files").fetchall():
                store.delete_file(conn, fid)
        counts = _sync(conn, root, paths)
        if counts["indexed"] or counts["removed"] or full:
            _link(conn)
            store.set_meta(conn, "indexed_at", str(int(time.time())))
        conn.execute("COMMIT")
        summary = overview(conn)
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        conn.close()
    return {**counts, **summary, "seconds": round(time.perf_counter() - started, 3)}


def _sync(conn: sqlite3.Connection, root: Path, paths: list[str]) -> dict[str, Any]:
    known = {
        row[1]: row
        for row in conn.execute("SELECT id, path, size, mtime_ns, sha FROM files").fetchall()
    }
    indexed = unchanged = removed = 0
    skipped: dict[str, int] = {"binary": 0, "oversized": 0, "unreadable": 0}
    for rel in paths:
        outcome = _one(conn, root, rel, known.pop(rel, None))
        if outcome == "indexed":
            indexed += 1
        elif outcome == "unchanged":
            unchanged += 1
        elif outcome == "removed":
            removed += 1
        elif outcome != "gone":
            skipped[outcome] += 1
    for row in known.values():
        store.delete_file(conn, row[0])
    removed += len(known)
    return {"indexed": indexed, "unchanged": unchanged, "removed": removed, "skipped": skipped}


def _one(conn: sqlite3.Connection, root: Path, rel: str, old: tuple[Any, ...] | None) -> str:
    full = os.path.join(root, rel)  # noqa: PTH118 (thousands of files: strings are cheaper)
    try:
        st = os.lstat(full)
    except FileNotFoundError:  # tracked but deleted in the work tree: gone from the map
        return _drop(conn, old, "removed" if old is not None else "gone")
    except OSError:  # unreadable: not in the map, counted
        return _drop(conn, old, "unreadable")
    if not _regular(st.st_mode):
        return _drop(conn, old, "unreadable")
    if st.st_size > walk.MAX_BYTES:
        return _drop(conn, old, "oversized")
    if old is not None and old[2] == st.st_size and old[3] == st.st_mtime_ns:
        return "unchanged"
    try:
        with open(full, "rb") as handle:  # noqa: PTH123
            data = handle.read()
    except OSError:  # permission denied or vanished: reported in the counts
        return _drop(conn, old, "unreadable")
    if walk.is_binary(data):
        return _drop(conn, old, "binary")
    sha = hashlib.sha1(data, usedforsecurity=False).hexdigest()
    if old is not None and old[4] == sha:
        conn.execute(
            "UPDATE files SET size = ?, mtime_ns = ? WHERE id = ?",
            (st.st_size, st.st_mtime_ns, old[0]),
        )
        return "unchanged"
    if old is not None:
        store.delete_file(conn, old[0])
    _insert(conn, rel, data, st, sha)
    return "indexed"


def _regular(mode: int) -> bool:
    import stat

    return stat.S_ISREG(mode)


def _drop(conn: sqlite3.Connection, old: tuple[Any, ...] | None, outcome: str) -> str:
    if old is not None:
        store.delete_file(conn, old[0])
    return outcome


def _insert(conn: sqlite3.Connection, rel: str, data: bytes, st: os.stat_result, sha: str) -> None:
    language = languages.language_of(rel)
    text = data.decode("utf-8", "replace")
    cur = conn.execute(
        "INSERT INTO files (path, language, size, mtime_ns, sha, lines, demoted) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (rel, language, st.st_size, st.st_mtime_ns, sha, text.count("\n") + 1, is_demoted(rel)),
    )
    fid = cur.lastrowid
    conn.execute("INSERT INTO text (rowid, body) VALUES (?, ?)", (fid, text))
    if language is None:
        return
    facts = extract.extract(language, data)
    conn.executemany(
        "INSERT INTO symbols (file_id, name, qualname, kind, line, end_line, signature) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(fid, s.name, s.qualname, s.kind, s.line, s.end_line, s.signature) for s in facts.symbols],
    )
    conn.executemany(
        "INSERT INTO refs (file_id, name, line, col, kind, member, scope, owner) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(fid, r.name, r.line, r.col, r.kind, r.member, r.scope, r.owner) for r in facts.refs],
    )
    conn.executemany(
        "INSERT INTO imports (file_id, module, name, alias, line) VALUES (?, ?, ?, ?, ?)",
        [(fid, i.module, i.name, i.alias, i.line) for i in facts.imports],
    )


def _link(conn: sqlite3.Connection) -> None:
    """Resolve imports and references over the whole map, then recompute centrality."""
    resolver = resolve.Resolver(conn)
    resolver.load_bases(conn)
    conn.execute("DELETE FROM import_targets")
    conn.executemany(
        "INSERT INTO import_targets (import_id, file_id, target_file) VALUES (?, ?, ?)",
        resolver.resolve_imports(conn),
    )
    changed = []
    for rid, fid, name, member, scope, owner, old in conn.execute(
        "SELECT id, file_id, name, member, scope, owner, target FROM refs"
    ).fetchall():
        new = resolver.resolve(fid, name, bool(member), scope, owner)
        if new != old:
            changed.append((new, rid))
    conn.executemany("UPDATE refs SET target = ? WHERE id = ?", changed)
    graph.update(conn)


def overview(conn: sqlite3.Connection) -> dict[str, Any]:
    """Files, symbols, references and per-language counts with each language's quality gate."""
    total = conn.execute("SELECT count(*) FROM files").fetchone()[0]
    symbols = conn.execute("SELECT count(*) FROM symbols").fetchone()[0]
    refs, resolved = conn.execute("SELECT count(*), count(target) FROM refs").fetchone()
    langs: dict[str, Any] = {}
    for language, files, syms in conn.execute(
        "SELECT f.language, count(DISTINCT f.id), count(s.id) FROM files f "
        "LEFT JOIN symbols s ON s.file_id = f.id WHERE f.language IS NOT NULL "
        "GROUP BY f.language ORDER BY f.language"
    ):
        langs[language] = {"files": files, "symbols": syms, "gate": gate.status(language)}
    not_green = sorted(name for name, info in langs.items() if info["gate"] != "GREEN")
    return {
        "files": total,
        "symbols": symbols,
        "references": refs,
        "resolved_references": resolved,
        "languages": langs,
        "not_green": not_green,
        "indexed_at": store.meta(conn, "indexed_at"),
        "path": store.MAP_PATH,
    }
