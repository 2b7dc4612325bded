"""The code map as plain functions returning JSON-able dicts (the CLI and the MCP server).

Each function refreshes the map incrementally first (`refresh=True`: what changed on disk since the
last call is re-indexed) and answers from `.orkestra/code.sqlite`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from orkestra.codemap import indexer, languages, lookup, search, store
from orkestra.core.errors import NotFound, UsageError


@contextmanager
def opened(root: Path, *, refresh: bool = True) -> Iterator[sqlite3.Connection]:
    """A connection to an up-to-date map (built on first use)."""
    if refresh or not store.exists(root):
        languages.require()  # before anything is created
        if store.exists(root):
            conn, _ = indexer.current(root)
        else:
            indexer.build(root)
            conn = store.connect(root, create=True)
    else:
        conn = store.connect(root, create=False)
    try:
        if not store.meta(conn, "indexed_at"):
            indexer.refresh(conn, root)
        yield conn
    finally:
        conn.close()


def index(root: Path, *, full: bool = False) -> dict[str, Any]:
    """Bring the map up to date (everything again with `full`)."""
    return indexer.index(root, full=full)


def find_symbol(
    root: Path, name: str, kind: str | None = None, similar: bool = False, *, refresh: bool = True
) -> dict[str, Any]:
    """Definitions named `name` (exact; fuzzy only with `similar`), optionally of one `kind`
    (function, method, class, constant, variable, field, type, ...)."""
    lookup.check_kind(kind)  # before the map is built or refreshed
    if not name.strip():  # `--similar` would list every symbol of the map
        raise UsageError("give a symbol name (an empty one names nothing)")
    with opened(root, refresh=refresh) as conn:
        return lookup.find_symbol(conn, name, kind=kind, similar=similar)


def find_references(root: Path, name: str, *, refresh: bool = True) -> dict[str, Any]:
    """Who calls or uses `name`."""
    if not name.strip():  # it would list nothing but phantom uses
        raise UsageError("give a symbol name (an empty one names nothing)")
    with opened(root, refresh=refresh) as conn:
        return lookup.find_references(conn, name)


def dependencies(root: Path, path: str, *, refresh: bool = True) -> dict[str, Any]:
    """A file's imports and importers."""
    path = lookup.project_path(root, path)
    with opened(root, refresh=refresh) as conn:
        return lookup.dependencies(conn, path)


def impact(
    root: Path, target: str, depth: int = lookup.DEFAULT_DEPTH, *, refresh: bool = True
) -> dict[str, Any]:
    """Transitive dependents of a symbol or file up to `depth` reference hops, ranked by
    centrality (`truncated`: more lie further)."""
    _check_target(target)
    with opened(root, refresh=refresh) as conn:
        return lookup.impact(conn, lookup.target(conn, root, target), depth=depth)


def analyze_dependencies(
    root: Path, target: str, depth: int = lookup.DEFAULT_DEPTH, *, refresh: bool = True
) -> dict[str, Any]:
    """For a file: imports, importers and impact; for a symbol: its impact (transitive
    dependents up to `depth` reference hops; `truncated` says more lie further)."""
    _check_target(target)
    with opened(root, refresh=refresh) as conn:
        target = lookup.target(conn, root, target)
        try:
            lookup.file_id(conn, target)
        except NotFound:
            return {"target": target, "impact": lookup.impact(conn, target, depth=depth)}
        deps = lookup.dependencies(conn, target)
        return {**deps, "impact": lookup.impact(conn, target, depth=depth)}


def _check_target(target: str) -> None:
    if not target.strip():
        raise UsageError("give a symbol or a file path (an empty one names nothing)")


def outline(root: Path, path: str, *, refresh: bool = True) -> dict[str, Any]:
    """A file's definitions in order."""
    path = lookup.project_path(root, path)
    with opened(root, refresh=refresh) as conn:
        return lookup.outline(conn, path)


def check_search(query: str, limit: int) -> None:
    """A usage error for an empty query or a limit below 1 (the CLI checks before it looks for
    the project: a usage error wherever it is run)."""
    if not query.strip():
        raise UsageError("the code search query is empty; give words to look for")
    if limit < 1:
        raise UsageError(f"--limit must be a positive number, got {limit}")


def code_search(root: Path, query: str, limit: int = 10, *, refresh: bool = True) -> dict[str, Any]:
    """Ranked `path:line` answers for a question, with intent, confidence and fusion strategy."""
    check_search(query, limit)
    with opened(root, refresh=refresh) as conn:
        return search.code_search(conn, query, limit=limit)


def search_code(root: Path, query: str, limit: int = 10) -> dict[str, Any]:
    """`code_search` for other commands (`orkestra search --type code`): the map is refreshed when
    tree-sitter is installed, else an existing map is read as it is."""
    refresh = languages.available()
    if not refresh and not store.exists(root):
        languages.require()  # raises MissingExtra naming the install command
    return code_search(root, query, limit, refresh=refresh)


def get_file(
    root: Path, path: str, start: int | None = None, end: int | None = None, *, refresh: bool = True
) -> dict[str, Any]:
    """Lines `start`..`end` (1-based, inclusive; `end` past the last line reads to the end) of
    an indexed file, as the map read it."""
    for name, value in (("start", start), ("end", end)):
        if value is not None and (isinstance(value, bool) or value < 1):
            raise UsageError(f"{name} must be a line number of 1 or more, got {value}")
    if start is not None and end is not None and end < start:
        raise UsageError(f"end ({end}) is before start ({start})")
    path = lookup.project_path(root, path)
    with opened(root, refresh=refresh) as conn:
        lines = store.file_lines(conn, lookup.file_id(conn, path))
    first = start or 1
    last = min(end or len(lines), len(lines))
    if first > max(len(lines), 1):  # an empty file is read from line 1, as empty
        raise UsageError(
            f"line {first} is outside {path}: it has {len(lines)} "
            f"line{'' if len(lines) == 1 else 's'} "
            f"(ask for a start from 1 to {max(len(lines), 1)})"
        )
    return {
        "path": path,
        "start": first,
        "end": last,
        "total_lines": len(lines),
        "location": f"{path}:{first}",
        "text": "\n".join(lines[first - 1 : last]),
    }
