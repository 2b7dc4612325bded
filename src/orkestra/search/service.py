"""Search as the CLI calls it: hits for a query, the `--summary` counts, filter parsing."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from orkestra.core import project
from orkestra.core.errors import UsageError
from orkestra.search.kinds import TYPES
from orkestra.search.rank import Filters, Ranking, rank

if TYPE_CHECKING:
    from orkestra.search.document import Document, Problem
    from orkestra.search.warm import WarmState

DEFAULT_LIMIT = 20
#: the counts object of `--summary` (§7 names agents..packages; scopes and domains are indexed
#: too and counted the same way)
SUMMARY_TYPES = TYPES


def project_root(explicit: str | None) -> Path:
    """The project root: `explicit` (--root / ORKESTRA_ROOT), else the nearest registries/ above."""
    return project.find_root(explicit)


def all_documents(root: Path, problems: list[Problem] | None = None) -> list[Document]:
    """Every document of the project, read straight from the sources (no index); the files
    that failed to load are appended to `problems` when given."""
    from orkestra.search import extract, layout  # a warm index needs neither

    settings, docs = extract.settings(root, problems)
    units = layout.scan(str(root), settings)
    files = {
        layout.unit_path(unit, name, settings)
        for unit, stats in units.items()
        if unit != layout.KNOWLEDGE
        for name in stats
    }
    ways: extract.Ways = {}  # each folder's way out of the project, looked at once
    for path in sorted(files):
        kind = layout.kind_of(path, settings)
        if kind is not None and kind != "config":
            docs.extend(extract.documents(root, path, kind, problems, ways))
    docs.extend(extract.knowledge_documents(root, problems))
    return docs


def search(
    root: Path,
    query: str,
    filters: Filters | None = None,
    *,
    limit: int | None = None,
    use_index: bool = True,
    retrievers: tuple[str, ...] | None = None,
    unloaded: list[Problem] | None = None,
) -> Ranking:
    """Hits for `query` at or above the score floor, best first (at most `limit`), and counts.

    With `use_index` the derived index under `.orkestra/` is used (refreshed or rebuilt first);
    without it, or when the index cannot be written, documents are read from the sources. Both
    give the same hits. `retrievers` fuses only the retrievers named (measurements, `rank`).
    The source files left out because they failed to load are appended to `unloaded` when
    given (the caller warns about them).
    """
    if use_index:
        from orkestra.search import index, sqlcorpus, store

        conn = index.open_index(root)
        if conn is not None:
            try:
                conn.execute("BEGIN")
                corpus = sqlcorpus.IndexCorpus(conn)
                hits = rank(corpus, query, filters, limit, retrievers=retrievers)
                failed = store.problems(conn) if unloaded is not None else []
                conn.execute("COMMIT")
                if unloaded is not None:
                    _report(unloaded, failed)
                return hits
            except sqlite3.DatabaseError:
                conn.close()
                index.discard(root)  # damaged: answer from the sources; the next search rebuilds
            finally:
                conn.close()
    from orkestra.search.corpus import MemoryCorpus

    found: list[Problem] = []
    memory = MemoryCorpus(all_documents(root, found))
    if unloaded is not None:
        _report(unloaded, found)
    return rank(memory, query, filters, limit, retrievers=retrievers)


def _report(into: list[Problem], found: list[Problem]) -> None:
    """`found` appended to `into`, each problem once: a broken orkestra.yaml is met both as the
    config and by the knowledge settings read from it."""
    seen = {(p.file, p.line, p.message) for p in into}
    for problem in found:
        if (problem.file, problem.line, problem.message) not in seen:
            seen.add((problem.file, problem.line, problem.message))
            into.append(problem)


def search_open(
    conn: sqlite3.Connection,
    query: str,
    filters: Filters | None = None,
    *,
    limit: int | None = None,
    warm: WarmState | None = None,
    unloaded: list[Problem] | None = None,
) -> Ranking:
    """`search` against an index the caller keeps open and fresh (the MCP server's warm index),
    in one read transaction so a concurrent refresh by another process is seen whole or not.
    With `warm`, the tables the caller keeps in memory between searches answer what they can
    (`search.warm`; same hits). The files the index left out are appended to `unloaded`."""
    from orkestra.search import sqlcorpus, store

    conn.execute("BEGIN")
    try:
        corpus = sqlcorpus.IndexCorpus(conn) if warm is None else warm.corpus(conn)
        if unloaded is not None:
            _report(unloaded, store.problems(conn))
        return rank(corpus, query, filters, limit)
    finally:
        conn.execute("COMMIT")


def check_query(query: str, limit: int) -> None:
    """A usage error for an empty query or a limit below 1."""
    check_limit(limit)
    if not query.strip():
        raise UsageError("the search query is empty; give words to look for")


def summary(query: str, ranking: Ranking) -> dict[str, object]:
    """`{"query", "total", "counts"}`: hits per type (every type present, zeros included)."""
    counts = {name: ranking.counts.get(name, 0) for name in SUMMARY_TYPES}
    return {"query": query, "total": sum(counts.values()), "counts": counts}


def parse_types(value: str | None, option: str = "--type") -> tuple[str, ...]:
    """`agents,skills` -> ("agents", "skills"); singular spellings accepted; unknown = usage error
    naming `option` (the CLI's `--type`, MCP search's `kinds`)."""
    if value is None:
        return ()
    names = []
    for raw in value.split(","):
        name = raw.strip().lower()
        if not name:
            continue
        if name not in TYPES and f"{name}s" in TYPES:
            name = f"{name}s"
        if name not in TYPES and name != "code":
            raise UsageError(
                f"unknown type '{raw.strip()}' in {option} (use: {', '.join(TYPES)}, code)"
            )
        if name not in names:
            names.append(name)
    if not names:
        raise UsageError(f"{option} needs at least one type (use: {', '.join(TYPES)}, code)")
    return tuple(names)


def check_limit(limit: int) -> int:
    """A positive --limit, else a usage error."""
    if limit < 1:
        raise UsageError(f"--limit must be a positive number, got {limit}")
    return limit


def check_choice(
    option: str, values: list[str] | None, allowed: tuple[str, ...]
) -> tuple[str, ...]:
    """Values of a repeatable filter option, each one of `allowed` whatever its case (else a
    usage error); any value when `allowed` is empty. One rule with the list commands'
    filters (`core.choices`)."""
    from orkestra.core import choices

    if not allowed:
        return tuple(value.lower() for value in choices.values(values))
    return choices.choices(option, values, allowed)


def find(
    root: Path,
    query: str,
    *,
    filters: Filters | None = None,
    limit: int = DEFAULT_LIMIT,
    want_summary: bool = False,
    unloaded: list[Problem] | None = None,
) -> dict[str, object]:
    """What `orkestra search` prints (§5): `{"query", "total", "results": [hit...]}` with the top
    `limit` of `total` hits, or with `want_summary` `{"query", "total", "counts"}`. A query
    without words is valid when a filter (`--tag`, `--status`, `--domain`) narrows it. The
    source files left out because they failed to load are appended to `unloaded` (the CLI
    warns about them on stderr, as list commands do)."""
    if filters is not None and filters.on_attrs:
        check_limit(limit)
    else:
        check_query(query, limit)
    if filters is not None and "code" in filters.types:  # code map hits too (`--type code`)
        from orkestra.search import code_hits

        return code_hits.find_with_code(root, query, filters, limit, want_summary, unloaded)
    ranking = search(root, query, filters, limit=limit, unloaded=unloaded)
    if want_summary:
        return summary(query, ranking)
    return {"query": query, "total": ranking.total, "results": [h.to_dict() for h in ranking.hits]}


def as_text(result: dict[str, object]) -> str:
    """Lines for people (`--format table|text`): `score  type  id  title  path:line` per hit (a
    contradicted note marked), then `N of TOTAL hits for 'Q'`; or the summary's counts."""
    counts = result.get("counts")
    if isinstance(counts, dict):
        parts = [f"{k}={v}" for k, v in counts.items()]
        return f"{result.get('total')} hits for {result.get('query')!r}: " + " ".join(parts)
    hits = result.get("results")
    rows = hits if isinstance(hits, list) else []
    lines = [
        f"{hit['score']:>8}  {hit['type']:<9}  {hit['id']}  {hit['title']}  "
        f"{hit['path']}:{hit['line']}"
        + (f"  [{hit['status']}]" if hit.get("status") == "contradicted" else "")
        for hit in rows
    ]
    lines.append(f"{len(rows)} of {result.get('total')} hits for {result.get('query')!r}")
    return "\n".join(lines)
