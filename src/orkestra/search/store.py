"""The SQLite schema of the search index and the writes that keep it in step with the sources.

Tables: `meta` (schema, settings, the "racy" files modified too recently for their mtime to be
trusted), `units` (a fingerprint per scan unit), `files` (one row per source file: unit, mtime,
size, content hash), `docs` (one
row per document: identity, location, field names and weights, filter attributes), `fts` (an FTS5
table holding each field's tokens in its own column) with `terms` and `termrows` (fts5vocab over it:
postings and document counts by term) and `pool` (alphabetic terms by length, the candidates for typo matching),
`problems` (the files of a source that failed to load and were left out, with the loader's
error at `file:line`, for search to warn about), and `bm` (FTS5 with Porter stemming: each field's text in the column of its weight, `BM_WEIGHTS`, so
`bm25()` weighs fields as §7 does; the lexical retriever and the candidate counts query it).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import TYPE_CHECKING

from orkestra.core import jsonio
from orkestra.search.corpus import MAX_FIELDS, POOL_MIN_LEN, field_terms
from orkestra.search.text import exact_key

if TYPE_CHECKING:
    from orkestra.search.document import Document, Problem

SCHEMA = 13  # 11: a key its model refuses; 12: a name that is no name (the loader's ORK002);
# 13: a YAML name that is a folder or FIFO (the loader's ORK004)
_COLUMNS = [f"c{i}" for i in range(MAX_FIELDS)]
#: the weight of each column of `bm`, in order; a field goes to the column nearest its weight
BM_WEIGHTS = (6.0, 5.0, 4.0, 3.0, 2.0, 1.0)
_BM = [f"w{i}" for i in range(len(BM_WEIGHTS))]

DDL = f"""
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE units(name TEXT PRIMARY KEY, digest TEXT NOT NULL);
CREATE TABLE files(
    path TEXT PRIMARY KEY, unit TEXT NOT NULL, mtime INTEGER NOT NULL, size INTEGER NOT NULL,
    hash TEXT NOT NULL
);
CREATE INDEX files_unit ON files(unit);
CREATE TABLE docs(
    ref INTEGER PRIMARY KEY, source TEXT NOT NULL, type TEXT NOT NULL, id TEXT NOT NULL,
    key TEXT NOT NULL, title TEXT NOT NULL, path TEXT NOT NULL, line INTEGER NOT NULL,
    fields TEXT NOT NULL, attrs TEXT NOT NULL
);
CREATE INDEX docs_source ON docs(source);
CREATE INDEX docs_key ON docs(key);
CREATE VIRTUAL TABLE fts USING fts5({", ".join(_COLUMNS)},
    tokenize='ascii', detail='column', columnsize=0);
CREATE VIRTUAL TABLE terms USING fts5vocab(fts, 'instance');
CREATE VIRTUAL TABLE termrows USING fts5vocab(fts, 'row');
CREATE VIRTUAL TABLE bm USING fts5({", ".join(_BM)}, tokenize='porter unicode61', prefix='3 4');
CREATE TABLE problems(
    source TEXT NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL, file TEXT NOT NULL,
    line INTEGER, "check" TEXT NOT NULL
);
CREATE TABLE pool(len INTEGER NOT NULL, term TEXT NOT NULL, PRIMARY KEY(len, term))
    WITHOUT ROWID;
PRAGMA user_version = {SCHEMA};
"""

_INSERT_FTS = f"INSERT INTO fts(rowid, {', '.join(_COLUMNS)}) VALUES (?{', ?' * MAX_FIELDS})"
_INSERT_BM = f"INSERT INTO bm(rowid, {', '.join(_BM)}) VALUES (?{', ?' * len(_BM)})"
_INSERT_DOC = (
    "INSERT INTO docs(source, type, id, key, title, path, line, fields, attrs)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def create(conn: sqlite3.Connection) -> None:
    """Create the schema in an empty database."""
    conn.executescript(DDL)


def add_documents(
    conn: sqlite3.Connection, source: str, docs: Iterable[Document], *, pool_terms: bool = True
) -> None:
    """Insert documents coming from one source (a file, or the knowledge group).

    `pool_terms=False` leaves the typo-candidate pool alone (a full build fills it once at the end
    with `fill_pool`).
    """
    pool: set[tuple[int, str]] = set()
    for doc in docs:
        fields = doc.fields[:MAX_FIELDS]
        layout = json.dumps([[f.name, float(f.weight)] for f in fields], separators=(",", ":"))
        attrs = json.dumps(
            {k: list(v) for k, v in sorted(doc.attrs.items())}, separators=(",", ":")
        )
        cur = conn.execute(
            _INSERT_DOC,
            (
                source,
                doc.type,
                doc.id,
                exact_key(doc.id),
                doc.title,
                doc.path,
                doc.line,
                layout,
                attrs,
            ),
        )
        terms = field_terms(doc)
        if pool_terms:
            pool.update((len(t), t) for ts in terms for t in ts if len(t) >= POOL_MIN_LEN)
        columns = [" ".join(ts) for ts in terms]
        columns += [""] * (MAX_FIELDS - len(columns))
        conn.execute(_INSERT_FTS, (cur.lastrowid, *columns))
        conn.execute(_INSERT_BM, (cur.lastrowid, *bm_columns(terms, [f.weight for f in fields])))
    if pool:
        rows = sorted(item for item in pool if item[1].isalpha())
        conn.executemany("INSERT OR IGNORE INTO pool(len, term) VALUES (?, ?)", rows)


def bm_column(weight: float) -> int:
    """The column of `bm` for a field of this weight (the nearest weight; ties: the higher)."""
    return min(range(len(BM_WEIGHTS)), key=lambda i: (abs(BM_WEIGHTS[i] - weight), i))


def bm_columns(terms: list[list[str]], weights: list[float]) -> list[str]:
    """The texts of `bm`'s columns for a document's field tokens and weights."""
    out: list[list[str]] = [[] for _ in BM_WEIGHTS]
    for tokens, weight in zip(terms, weights, strict=True):
        out[bm_column(weight)].extend(tokens)
    return [" ".join(ts) for ts in out]


def fill_pool(conn: sqlite3.Connection) -> None:
    """Fill the typo-candidate pool from every indexed term (after a full build)."""
    terms = [t for (t,) in conn.execute("SELECT term FROM termrows")]
    rows = [(len(t), t) for t in terms if len(t) >= POOL_MIN_LEN and t.isalpha()]
    conn.executemany("INSERT OR IGNORE INTO pool(len, term) VALUES (?, ?)", rows)


def remove_source(conn: sqlite3.Connection, source: str) -> None:
    """Delete every document of one source."""
    conn.execute(
        "DELETE FROM fts WHERE rowid IN (SELECT ref FROM docs WHERE source = ?)", (source,)
    )
    conn.execute("DELETE FROM bm WHERE rowid IN (SELECT ref FROM docs WHERE source = ?)", (source,))
    conn.execute("DELETE FROM docs WHERE source = ?", (source,))
    conn.execute("DELETE FROM problems WHERE source = ?", (source,))


def add_problems(conn: sqlite3.Connection, source: str, problems: Iterable[Problem]) -> None:
    """Record the files of one source that failed to load (`extract.documents`)."""
    conn.executemany(
        'INSERT INTO problems(source, code, message, file, line, "check") VALUES (?, ?, ?, ?, ?, ?)',
        [(source, p.code, p.message, p.file, p.line, p.check) for p in problems],
    )


def problems(conn: sqlite3.Connection) -> list[Problem]:
    """Every file the index left out because it failed to load, by file and line."""
    from orkestra.search.document import Problem

    rows = conn.execute(
        'SELECT code, message, file, line, "check" FROM problems ORDER BY file, line, code'
    )
    return [Problem(code, message, file, line, check) for code, message, file, line, check in rows]


def put_meta(conn: sqlite3.Connection, key: str, value: object) -> None:
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, json.dumps(value)))


def get_meta(conn: sqlite3.Connection, key: str) -> object:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else jsonio.loads(row[0], source=".orkestra/search.sqlite3")
