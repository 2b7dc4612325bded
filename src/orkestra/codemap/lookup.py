"""The code map's answers: symbols, references, dependencies, impact and outlines (`path:line`)."""

from __future__ import annotations

import difflib
import sqlite3
from collections import deque
from pathlib import Path, PurePath
from typing import Any

from orkestra.codemap import store
from orkestra.codemap.facts import KINDS
from orkestra.core.errors import NotFound, UsageError

SYMBOL_COLUMNS = (
    "s.id, s.name, s.qualname, s.kind, f.path, s.line, s.end_line, s.signature, f.language, "
    "s.centrality"
)
#: how many reference hops `impact` follows unless asked for more (`--depth N`)
DEFAULT_DEPTH = 3


def _symbol(row: tuple[Any, ...]) -> dict[str, Any]:
    _sid, name, qualname, kind, path, line, end_line, signature, language, centrality = row
    return {
        "name": name,
        "qualname": qualname,
        "kind": kind,
        "path": path,
        "line": line,
        "end_line": end_line,
        "location": f"{path}:{line}",
        "signature": signature,
        "language": language,
        "centrality": centrality,
    }


def _rows(conn: sqlite3.Connection, where: str, args: list[Any]) -> list[tuple[Any, ...]]:
    return conn.execute(
        f"SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE {where} "
        "ORDER BY f.demoted, s.centrality DESC, f.path, s.line",
        args,
    ).fetchall()


def symbol_rows(
    conn: sqlite3.Connection, name: str, kind: str | None = None
) -> list[tuple[Any, ...]]:
    """Definitions whose name or qualified name is exactly `name` (optionally of one kind); a
    Rust or C++ `Type::method` is the map's `Type.method`."""
    qual = name.replace("::", ".")
    where, args = "(s.name = ? OR s.qualname = ? OR s.qualname = ?)", [name, name, qual]
    if kind:
        where, args = where + " AND s.kind = ?", [*args, kind]
    return _rows(conn, where, args)


def check_kind(kind: str | None) -> None:
    """A usage error naming the kinds there are, unless `kind` is None or one of them."""
    if kind is not None and kind not in KINDS:
        raise UsageError(f"unknown kind '{kind}'; the kinds are: {', '.join(KINDS)}")


def find_symbol(
    conn: sqlite3.Connection,
    name: str,
    *,
    kind: str | None = None,
    similar: bool = False,
    limit: int = 50,
) -> dict[str, Any]:
    """Definitions of `name`: exact by default (an unknown name gives none); fuzzy with `similar`.
    `kind` is one of `KINDS` (`api.find_symbol` checks it with `check_kind` before the map is
    built)."""
    rows = symbol_rows(conn, name, kind)
    if similar:
        names = [r[0] for r in conn.execute("SELECT DISTINCT name FROM symbols")]
        low = name.lower()
        near = [n for n in names if low in n.lower()]
        near += difflib.get_close_matches(name, names, n=20, cutoff=0.7)
        seen = {r[0] for r in rows}
        for other in dict.fromkeys(near):
            rows += [r for r in symbol_rows(conn, other, kind) if r[0] not in seen]
            seen.update(r[0] for r in rows)
    found = [_symbol(r) for r in rows[:limit]]
    return {"name": name, "kind": kind, "similar": similar, "total": len(rows), "symbols": found}


def _line_text(
    conn: sqlite3.Connection, cache: dict[int, list[str]], fid: int, line: int, col: int
) -> str:
    """The snippet of a use at `line`, `col` (1-based; the column counts UTF-8 bytes, as the
    parser does): the part of a long line around it (`store.snippet`)."""
    if fid not in cache:
        cache[fid] = store.file_lines(conn, fid)
    lines = cache[fid]
    if not 0 < line <= len(lines):
        return ""
    text = lines[line - 1]
    at = 0
    if len(text) > store.SNIPPET:  # a character offset from the byte column
        at = len(text.encode("utf-8")[: col - 1].decode("utf-8", "ignore"))
    return store.snippet(text, at)


def find_references(conn: sqlite3.Connection, name: str, *, limit: int = 500) -> dict[str, Any]:
    """Where `name` is used: resolved references to its definitions, then unresolved uses."""
    defs = symbol_rows(conn, name)
    ids = [r[0] for r in defs]
    short = name.replace("::", ".").rsplit(".", 1)[-1]
    marks = ",".join("?" * len(ids)) or "NULL"
    where = f"r.target IN ({marks}) OR (r.name = ? AND r.target IS NULL)"
    rows = conn.execute(
        "SELECT r.file_id, f.path, r.line, r.col, r.kind, r.scope, r.target, t.path, s.line, "
        "r.guessed FROM refs r JOIN files f ON f.id = r.file_id "
        "LEFT JOIN symbols s ON s.id = r.target LEFT JOIN files t ON t.id = s.file_id "
        f"WHERE {where} "
        "ORDER BY r.target IS NULL, r.guessed, f.demoted, f.path, r.line, r.col LIMIT ?",
        [*ids, short, limit],
    ).fetchall()
    total = len(rows)
    if total == limit:  # the list is cut: count them all
        total = conn.execute(
            f"SELECT count(*) FROM refs r WHERE {where}", [*ids, short]
        ).fetchone()[0]
    cache: dict[int, list[str]] = {}
    refs = [
        {
            "path": path,
            "line": line,
            "col": col,
            "location": f"{path}:{line}",
            "kind": kind,
            "scope": scope,
            "resolved": f"{tpath}:{tline}" if target is not None else None,
            "guessed": bool(guessed),
            "snippet": _line_text(conn, cache, fid, line, col),
        }
        for fid, path, line, col, kind, scope, target, tpath, tline, guessed in rows
    ]
    return {
        "name": name,
        "definitions": [_symbol(r) for r in defs],
        "total": total,
        "references": refs,
    }


def project_path(root: Path, path: str) -> str:
    """`path` as the map names files (`core.project.within`: absolute under any spelling of the
    root, `./`, `//` and `x/../` dropped; a Windows-style `src\\pkg\\mod.py` is `src/pkg/mod.py`
    unless a file of that very name exists); a path outside the project (`../x` too) is a
    NotFound saying so; anything else (a symbol name) is returned as it is."""
    import os

    from orkestra.core.project import within

    if not path.strip():
        raise UsageError("give a file path (an empty one names nothing)")
    if "\\" in path and not os.path.lexists(root / path):
        path = path.replace("\\", "/")

    if not PurePath(path).is_absolute() and "/" not in path and path not in (".", ".."):
        return path  # a symbol name (`Engine.start`, `Shop::new`) or a file at the top
    rel = within(root, path)
    if rel is None:
        raise NotFound(f"'{path}' is outside the project ({root}); give a path inside it")
    return rel


def file_id(conn: sqlite3.Connection, path: str) -> int:
    """The id of an indexed file, or NotFound naming the path."""
    rel = path.removeprefix("./")
    row = conn.execute("SELECT id FROM files WHERE path = ?", (rel,)).fetchone()
    if row is None:
        folder = "" if rel == "." else rel.rstrip("/") + "/"  # `.`: the project's own folder
        inside = conn.execute(
            "SELECT path FROM files WHERE substr(path, 1, ?) = ? ORDER BY path LIMIT 1",
            (len(folder), folder),
        ).fetchone()
        if inside is not None and folder != "/":
            raise NotFound(f"'{path}' is a folder; give one file in it, such as '{inside[0]}'")
        raise NotFound(
            f"'{path}' is not in the code map (not tracked, ignored, binary, too big, or "
            "below a symlink leaving the project)"
        )
    return int(row[0])


def dependencies(conn: sqlite3.Connection, path: str) -> dict[str, Any]:
    """What a file imports (and which indexed files that is) and which files import it."""
    fid = file_id(conn, path)
    imports = []
    for iid, module, name, alias, line in conn.execute(
        "SELECT id, module, name, alias, line FROM imports WHERE file_id = ? ORDER BY line", (fid,)
    ).fetchall():
        targets = [
            r[0]
            for r in conn.execute(
                "SELECT f.path FROM import_targets t JOIN files f ON f.id = t.target_file "
                "WHERE t.import_id = ? ORDER BY f.path",
                (iid,),
            )
        ]
        imports.append(
            {"module": module, "name": name, "alias": alias, "line": line,
             "location": f"{path}:{line}", "files": targets}
        )  # fmt: skip
    importers = [
        {"path": p, "line": line, "location": f"{p}:{line}", "module": module}
        for p, line, module in conn.execute(
            "SELECT DISTINCT f.path, i.line, i.module FROM import_targets t "
            "JOIN imports i ON i.id = t.import_id JOIN files f ON f.id = t.file_id "
            "WHERE t.target_file = ? ORDER BY f.path, i.line",
            (fid,),
        )
    ]
    return {"path": path, "imports": imports, "importers": importers}


def impact(conn: sqlite3.Connection, target: str, *, depth: int = DEFAULT_DEPTH) -> dict[str, Any]:
    """Transitive dependents of a symbol or file up to `depth` reference hops, with their depth,
    ranked by centrality; `truncated` says that dependents lie further (ask a larger depth)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise UsageError(f"the impact depth must be a whole number of 1 or more, got {depth!r}")
    start = [r[0] for r in symbol_rows(conn, target)]
    files: set[int] = set()
    if not start:
        files = {_target_file(conn, target)}
        start = [r[0] for r in conn.execute("SELECT id FROM symbols WHERE file_id = ?", (*files,))]
    seen, truncated = _dependents(conn, start, files, depth)
    for fid in files:
        for path, line, centrality in conn.execute(
            "SELECT DISTINCT f.path, i.line, f.centrality FROM import_targets t "
            "JOIN imports i ON i.id = t.import_id JOIN files f ON f.id = t.file_id "
            "WHERE t.target_file = ?",
            (fid,),
        ).fetchall():
            importer = _dependent(conn, None, path, line, centrality, 1)
            seen.setdefault((path, -1), importer | {"guessed": False})
    found = sorted(seen.values(), key=lambda d: (d["depth"], -d["centrality"], d["location"]))
    out: dict[str, Any] = {"target": target, "depth": depth, "truncated": truncated}
    if truncated:
        out["hint"] = (
            f"more dependents lie beyond depth {depth}: ask again with a larger depth "
            f"(depth={depth * 2}, `orkestra code impact {target} --depth {depth * 2}`)"
        )
    return out | {"total": len(found), "dependents": found}


def target(conn: sqlite3.Connection, root: Path, name: str) -> str:
    """What `impact` looks at: a symbol when the map defines one by that name (a C++
    `Vec::operator/` holds a `/` and is no path), else a path (`project_path`)."""
    if symbol_rows(conn, name):
        return name
    path = project_path(root, name)
    if "\\" in name and "/" not in name:  # `App\\Models\\User`: a PHP name, or a Windows path
        try:
            file_id(conn, path)
        except NotFound:
            _target_file(conn, name)  # neither: said as typed, with both readings
    return path


def _target_file(conn: sqlite3.Connection, target: str) -> int:
    """The file `impact` starts from when `target` names no symbol; a NotFound that speaks of
    both when it could have meant either (no `/`: `Engine.strat`, `setup.py`)."""
    try:
        return file_id(conn, target)
    except NotFound:
        if "/" in target:
            raise
    raise NotFound(
        f"'{target}' is neither a symbol nor a file of the code map: for a symbol, look for "
        f"near names with `orkestra code symbol {target} --similar`; a file is left out when "
        "it is not tracked, ignored, binary, too big, or below a symlink leaving the project"
    )


def _dependents(
    conn: sqlite3.Connection, start: list[int], files: set[int], depth: int
) -> tuple[dict[tuple[str, int], dict[str, Any]], bool]:
    """The users of the `start` definitions up to `depth` reference hops, by (path, symbol),
    each `guessed` when reached only through a guessed reference; and whether more lie
    further. A user first reached through a guess is walked again when a certain path
    reaches it."""
    scopes = {
        (fid, qual): sid
        for sid, fid, qual in conn.execute("SELECT id, file_id, qualname FROM symbols")
    }
    seen: dict[tuple[str, int], dict[str, Any]] = {}
    queue = deque((sid, 0, False) for sid in start)
    visited = dict.fromkeys(start, False)  # symbol -> reached only through a guess
    truncated = False
    while queue:
        sid, level, via_guess = queue.popleft()
        for fid, scope, path, line, centrality, guessed in conn.execute(
            "SELECT r.file_id, r.scope, f.path, r.line, f.centrality, r.guessed FROM refs r "
            "JOIN files f ON f.id = r.file_id WHERE r.target = ? ORDER BY r.guessed",
            (sid,),
        ).fetchall():
            user = scopes.get((fid, scope))
            key = (path, user or 0)
            if fid in files and user is None:
                continue
            if level >= depth:  # one hop too far: only note that there is more
                truncated = truncated or key not in seen
                continue
            guess = via_guess or bool(guessed)
            if key not in seen:
                seen[key] = _dependent(conn, user, path, line, centrality, level + 1)
                seen[key]["guessed"] = guess
            seen[key]["guessed"] = seen[key]["guessed"] and guess
            if user is not None and (user not in visited or (visited[user] and not guess)):
                visited[user] = guess
                queue.append((user, level + 1, guess))
    return seen, truncated


def _dependent(
    conn: sqlite3.Connection, sid: int | None, path: str, line: int, centrality: float, depth: int
) -> dict[str, Any]:
    if sid is not None:
        qual, kind, sline, scentral = conn.execute(
            "SELECT qualname, kind, line, centrality FROM symbols WHERE id = ?", (sid,)
        ).fetchone()
        return {"symbol": qual, "kind": kind, "path": path, "line": line,
                "location": f"{path}:{line}", "defined_at": f"{path}:{sline}",
                "depth": depth, "centrality": scentral}  # fmt: skip
    return {"symbol": None, "kind": "file", "path": path, "line": line,
            "location": f"{path}:{line}", "defined_at": None, "depth": depth,
            "centrality": centrality}  # fmt: skip


def outline(conn: sqlite3.Connection, path: str) -> dict[str, Any]:
    """A file's definitions in order, each with its nesting depth."""
    fid = file_id(conn, path)
    rows = conn.execute(
        f"SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id "
        "WHERE s.file_id = ? ORDER BY s.line, s.id",
        (fid,),
    ).fetchall()
    symbols = [_symbol(r) | {"depth": r[2].count(".")} for r in rows]
    return {"path": path, "total": len(symbols), "symbols": symbols}
