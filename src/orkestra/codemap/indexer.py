"""`orkestra code index`: bring `.orkestra/code.sqlite` up to date, incrementally.

A file is re-read only when its identity (size, mtime, ctime, inode) changed, or when it changed
within `store.RACY_NS` of the run that read it (an edit in the same timestamp tick keeps the
identity; that moment is taken by the file system's clock, `core.clock.files_behind`), and
re-parsed only when its content hash changed. After any change, references and imports are
re-resolved over the whole map and centrality recomputed (in memory; a few hundred milliseconds
on a large tree), all inside one write transaction.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from orkestra.codemap import extract, gate, graph, languages, resolve, store, walk, words
from orkestra.core import gcpause
from orkestra.core.clock import Reading
from orkestra.core.lines import cr_only, line_count
from orkestra.core.readfile import open_regular
from orkestra.retrieval.fusion import is_demoted

#: re-read files after which centrality is recomputed (warm-started) on an incremental update
CENTRALITY_EVERY = 10


@dataclass
class Changes:
    """What one update touched: re-read files, names defined or bound there before and after."""

    files: set[int] = field(default_factory=set)
    names: set[str] = field(default_factory=set)
    paths: bool = False  # a file appeared or went away: import targets may all change
    #: files read again that hold the bytes indexed: (size, mtime, ctime, inode, seen, id), the
    #: stat to keep (bookkeeping: left out where the map cannot be written)
    restat: list[tuple[int, ...]] = field(default_factory=list)

    def forget(self, conn: sqlite3.Connection, file_id: int, *, keep_row: bool = False) -> None:
        """Note the names a file defined and bound, then delete it from the map."""
        self.names.update(store.names_of(conn, file_id))
        store.delete_file(conn, file_id, keep_row=keep_row)


@gcpause.paused()
def index(root: Path, *, full: bool = False) -> dict[str, Any]:
    """Index `root` (everything again with `full`); return what was done and the map's state."""
    languages.require()  # before anything is created
    started = time.perf_counter()
    if full or not store.exists(root):
        counts = build(root)
        conn = store.connect(root, create=True)
    else:
        conn, counts = current(root)
    try:
        summary = overview(conn)
    finally:
        conn.close()
    return {**counts, **summary, "seconds": round(time.perf_counter() - started, 3)}


def build(root: Path) -> dict[str, Any]:
    """A whole new map, built in a temporary file that then replaces the old one."""
    conn, temp = store.fresh(root)
    try:
        counts = _update(conn, root, full=True)
    except BaseException:
        conn.close()
        temp.unlink(missing_ok=True)
        raise
    conn.close()
    store.install(root, temp)
    return counts


def refresh(conn: sqlite3.Connection, root: Path) -> dict[str, Any]:
    """Re-index what changed since the last run, on an open map (under the writers' lock)."""
    with store.writing(root):
        return _update(conn, root, full=False)


#: how often `current` opens the map again when a full build replaced it under the update
REOPEN = 3


def current(root: Path) -> tuple[sqlite3.Connection, dict[str, Any]]:
    """The map opened and brought up to date (the commands' first step), with what was done. A
    full build in another process installs a new map file at any time; an update that meets
    one at its first write (SQLite: the file moved) is rolled back, and the new map is opened
    and updated instead, up to `REOPEN` times."""
    for attempt in range(1, REOPEN + 1):
        conn = store.connect(root, create=True)
        try:
            return conn, refresh(conn, root)
        except sqlite3.OperationalError as exc:
            conn.close()
            if exc.sqlite_errorcode != sqlite3.SQLITE_READONLY_DBMOVED or attempt == REOPEN:
                raise
        except BaseException:
            conn.close()
            raise
    raise AssertionError("unreachable")  # pragma: no cover


def _update(conn: sqlite3.Connection, root: Path, *, full: bool) -> dict[str, Any]:
    languages.require()
    paths = walk.list_files(root)
    try:
        conn.execute("BEGIN IMMEDIATE")
        changes = Changes(paths=full)
        counts = _sync(conn, root, paths, changes)
        if full:
            store.add_indexes(conn)
        if counts["indexed"] or counts["removed"] or full:
            _link(conn, None if full or changes.paths else changes)
            store.set_meta(conn, "indexed_at", str(int(time.time())))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return counts


def _sync(
    conn: sqlite3.Connection, root: Path, paths: list[str], changes: Changes
) -> dict[str, Any]:
    known = {
        row[1]: row
        for row in conn.execute(
            "SELECT id, path, size, mtime_ns, sha, ctime_ns, inode, seen_ns FROM files"
        ).fetchall()
    }
    reading = Reading(root)  # before any file is looked at
    indexed = unchanged = removed = 0
    skipped = dict.fromkeys(("binary", "oversized", "unreadable", "outside", "symlink"), 0)
    inside = walk.Inside(root)
    for rel in paths:
        old = known.pop(rel, None)
        if not walk.nameable(root, rel):  # a name that is not UTF-8: the map cannot hold it
            outcome = "unreadable"
        elif inside(rel):
            outcome = _one(conn, root, rel, old, changes, reading, inside.real)
        else:  # below a symlinked folder leading out of the project (§13): never read
            outcome = _drop(conn, old, "outside", changes)
        if outcome == "indexed":
            indexed += 1
        elif outcome == "unchanged":
            unchanged += 1
        elif outcome == "removed":
            removed += 1
        elif outcome != "gone":
            skipped[outcome] += 1
    for row in known.values():
        changes.forget(conn, row[0])
    removed += len(known)
    _restat(conn, changes.restat)
    return {"indexed": indexed, "unchanged": unchanged, "removed": removed, "skipped": skipped}


def _restat(conn: sqlite3.Connection, rows: list[tuple[int, ...]]) -> None:
    """Keep the stats of files read again with the bytes indexed. Only bookkeeping (the next run
    reads them again): a map that cannot be written (a read-only project) answers as it is."""
    if not rows:
        return
    try:
        conn.executemany(
            "UPDATE files SET size = ?, mtime_ns = ?, ctime_ns = ?, inode = ?, seen_ns = ? "
            "WHERE id = ?",
            rows,
        )
    except sqlite3.OperationalError as exc:
        code = exc.sqlite_errorcode
        if code & 0xFF != sqlite3.SQLITE_READONLY or code == sqlite3.SQLITE_READONLY_DBMOVED:
            raise


def _one(
    conn: sqlite3.Connection,
    root: Path,
    rel: str,
    old: tuple[Any, ...] | None,
    changes: Changes,
    reading: Reading,
    real_root: str,
) -> str:
    full = os.path.join(root, rel)  # noqa: PTH118 (thousands of files: strings are cheaper)
    try:
        st = os.lstat(full)
    except FileNotFoundError:  # tracked but deleted in the work tree: gone from the map
        return _drop(conn, old, "removed" if old is not None else "gone", changes)
    except OSError:  # unreadable: not in the map, counted
        return _drop(conn, old, "unreadable", changes)
    if not _regular(st.st_mode):  # a symlink is never followed (its target, if inside, is
        return _drop(conn, old, _irregular(full, st.st_mode, real_root), changes)  # mapped)
    if st.st_size > walk.MAX_BYTES:
        return _drop(conn, old, "oversized", changes)
    if (
        old is not None
        and old[2:4] + old[5:7] == store.stamp(st)
        and store.settled(old[3], old[5], old[7])
    ):
        return "unchanged"
    try:  # a regular file only (one swapped for a FIFO meanwhile would block the read)
        with open_regular(full, follow=False) as handle:
            data = handle.read()
    except OSError:  # permission denied or vanished: reported in the counts
        return _drop(conn, old, "unreadable", changes)
    if walk.is_binary(data):
        return _drop(conn, old, "binary", changes)
    sha = hashlib.sha1(data, usedforsecurity=False).hexdigest()
    if old is not None and old[4] == sha:  # the same content: its stat is kept once it
        now = store.stamp(st)  # moved, or once its change settled (else read again next run)
        if old[2:4] + old[5:7] != now or (
            store.settled(st.st_mtime_ns, st.st_ctime_ns, reading.started)
            and store.settled(st.st_mtime_ns, st.st_ctime_ns, reading.seen())
        ):
            changes.restat.append((*now, reading.seen(), old[0]))
        return "unchanged"
    if old is not None:
        changes.forget(conn, old[0], keep_row=True)
    else:
        changes.paths = True
    changes.files.add(
        _insert(conn, rel, data, (st, reading.seen()), sha, changes, old[0] if old else None)
    )
    return "indexed"


def _regular(mode: int) -> bool:
    import stat

    return stat.S_ISREG(mode)


def _irregular(full: str, mode: int, real_root: str) -> str:
    """Why a listed path that is no regular file is skipped: a symlink leading out of the project
    is `outside` (PRODUCT.md §13: never read), one to a file in it (mapped under its own path)
    or to nothing is a `symlink`; anything else (a FIFO, a device) is `unreadable`."""
    import stat

    if not stat.S_ISLNK(mode):
        return "unreadable"
    real = os.path.realpath(full)
    return "symlink" if real.startswith(real_root + os.sep) else "outside"


def _drop(
    conn: sqlite3.Connection, old: tuple[Any, ...] | None, outcome: str, changes: Changes
) -> str:
    if old is not None:
        changes.forget(conn, old[0])
        changes.paths = True
    return outcome


def _insert(
    conn: sqlite3.Connection,
    rel: str,
    data: bytes,
    read: tuple[os.stat_result, int],
    sha: str,
    changes: Changes,
    fid: int | None,
) -> int:
    """Put a file read into the map; `read`: its stat and when the run began reading."""
    language = languages.language_of(rel, data)  # a `.h` header: C or C++ by its text
    text, data = decoded(language, data)
    if b"\0" in data:  # past the binary test's first 8 KiB: the parser and FTS5 stop at a NUL
        text, data = text.replace("\0", " "), data.replace(b"\0", b" ")
    lines = line_count(text)
    values = (language, *store.stamp(read[0]), read[1], sha, lines, is_demoted(rel))
    if fid is None:
        cur = conn.execute(
            "INSERT INTO files (language, size, mtime_ns, ctime_ns, inode, seen_ns, sha, lines, "
            "demoted, path) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*values, rel),
        )
        fid = int(cur.lastrowid or 0)
    else:
        conn.execute(
            "UPDATE files SET language = ?, size = ?, mtime_ns = ?, ctime_ns = ?, inode = ?, "
            "seen_ns = ?, sha = ?, lines = ?, demoted = ? WHERE id = ?",
            (*values, fid),
        )
    conn.execute("INSERT INTO text (rowid, body) VALUES (?, ?)", (fid, text))
    if language is None:
        return fid
    facts = extract.extract(language, data)
    conn.execute(
        "INSERT INTO idents (rowid, path, names) VALUES (?, ?, ?)",
        (fid, words.path_words(rel), words.symbol_words(facts.symbols)),
    )
    changes.names.update(s.name for s in facts.symbols)
    changes.names.update(i.alias or i.name for i in facts.imports)
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
    return fid


def decoded(language: str | None, data: bytes) -> tuple[str, bytes]:
    """A file's text and the UTF-8 bytes parsed: a Python source in the encoding its coding
    declaration names (PEP 263: `# -*- coding: latin-1 -*-` on one of its first two lines),
    else UTF-8 with each undecodable byte replaced. A UTF-8 byte order mark is dropped (no part
    of the first line's snippet or signature), and a file whose lines end in `\\r` only
    (classic Mac OS: no `\\n` at all) is read with `\\n` endings, one line per `\\r`, as
    `core.lines.split_lines` numbers it (tree-sitter counts rows at `\\n` only)."""
    if cr_only(data):
        data = data.replace(b"\r", b"\n")
    if language == "python" and b"coding" in data[:400]:
        import io
        import tokenize

        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            if encoding not in ("utf-8", "utf-8-sig"):
                text = data.decode(encoding)
                return text, text.encode("utf-8")
        except (SyntaxError, UnicodeDecodeError, LookupError):
            pass  # a declaration Python itself would refuse: read as UTF-8 below
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8", "replace"), data


def _link(conn: sqlite3.Connection, changes: Changes | None) -> None:
    """Resolve imports and references, then centrality: everything after a full index or when
    files appeared or went away; otherwise only the imports of the re-read files and the
    references that could mean a name those files define or bind, or all of them when a
    class's bases changed (and warm-started centrality)."""
    resolver = resolve.Resolver(conn)
    only = None if changes is None else changes.files
    targets = resolver.resolve_imports(conn, only)  # a base class is the one a file imports
    resolver.load_bases(conn)
    bases = _digest(resolver.bases, resolver.base_files)
    if store.meta(conn, "bases") != bases:  # a class's bases changed: a use of an inherited
        refs_of = None  # member (`Foo().run()`) may mean another definition, whatever its name
        store.set_meta(conn, "bases", bases)
    else:
        refs_of = changes
    if only is None:
        conn.execute("DELETE FROM import_targets")
    conn.executemany(
        "INSERT INTO import_targets (import_id, file_id, target_file) VALUES (?, ?, ?)", targets
    )
    updates = []
    for rid, fid, name, member, scope, owner, old, was_guessed in _refs(conn, refs_of):
        new = resolver.resolve(fid, name, bool(member), scope, owner)
        guessed = resolver.guessed(fid, name, bool(member), scope, owner)
        if (new, guessed) != (old, bool(was_guessed)):
            updates.append((new, guessed, rid))
    conn.executemany("UPDATE refs SET target = ?, guessed = ? WHERE id = ?", updates)
    _centrality(conn, changes)


def _digest(bases: dict[str, list[str]], files: dict[str, set[int]]) -> str:
    """A short fingerprint of the superclasses of every class (`Resolver.bases`) and of the
    files each is taken from (`Resolver.base_files`)."""
    text = "\n".join(f"{cls}\t{' '.join(sorted(of))}" for cls, of in sorted(bases.items()) if of)
    text += "\n" + "\n".join(f"{cls}\t{sorted(at)}" for cls, at in sorted(files.items()))
    return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()


def _centrality(conn: sqlite3.Connection, changes: Changes | None) -> None:
    """Recompute centrality after a full link, or once a few files changed since the last time
    (a ranking signal: a handful of edits moves it little, and re-index stays fast)."""
    pending = int(store.meta(conn, "centrality_pending") or 0)
    pending += len(changes.files) if changes is not None else 0
    if changes is None or pending >= CENTRALITY_EVERY:
        graph.update(conn, warm=changes is not None)
        pending = 0
    store.set_meta(conn, "centrality_pending", str(pending))


def _refs(conn: sqlite3.Connection, changes: Changes | None) -> list[tuple[Any, ...]]:
    columns = "SELECT id, file_id, name, member, scope, owner, target, guessed FROM refs"
    if changes is None:
        return conn.execute(columns).fetchall()
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS dirty_files (id INTEGER PRIMARY KEY)")
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS dirty_names (name TEXT PRIMARY KEY)")
    conn.execute("DELETE FROM dirty_files")
    conn.execute("DELETE FROM dirty_names")
    conn.executemany("INSERT INTO dirty_files VALUES (?)", [(f,) for f in changes.files])
    conn.executemany("INSERT OR IGNORE INTO dirty_names VALUES (?)", [(n,) for n in changes.names])
    return conn.execute(
        f"{columns} WHERE file_id IN (SELECT id FROM dirty_files) "
        "OR name IN (SELECT name FROM dirty_names) "
        # a name imported under another name (`load_config as read_conf`)
        "OR name IN (SELECT alias FROM imports WHERE alias != '' "
        "AND name IN (SELECT name FROM dirty_names)) "
        # a definition that went away
        "OR (target IS NOT NULL AND NOT EXISTS (SELECT 1 FROM symbols s WHERE s.id = target))"
    ).fetchall()


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
        "indexed_at": store.indexed_at(conn),
        "path": store.MAP_PATH,
    }
