"""The `Corpus` interface answered from the SQLite index (see `store` for the tables)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING

from orkestra.core import jsonio
from orkestra.search.corpus import Entry

if TYPE_CHECKING:
    from orkestra.search.document import Document

#: where a damaged JSON value of the search index is reported (derived: delete it to rebuild)
_SOURCE = ".orkestra/search.sqlite3"


class IndexCorpus:
    """The `Corpus` interface answered from the index."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._layouts: dict[str, tuple[tuple[str, ...], tuple[float, ...]]] = {}
        self._size: int | None = None

    def _typed(
        self, sql: str, params: list[object], types: Sequence[str]
    ) -> tuple[str, list[object]]:
        if types:
            sql += f" AND d.type IN ({', '.join('?' * len(types))})"
            params.extend(types)
        return sql, params

    def match(self, expr: str, types: Sequence[str], limit: int | None) -> list[int]:
        """Refs matching an FTS5 expression over `bm`, best `bm25()` first (ties: type, id, path,
        line, so the order does not depend on how the index was built)."""
        from orkestra.search.store import BM_WEIGHTS

        weights = ", ".join(f"{w:g}" for w in BM_WEIGHTS)
        sql, params = self._typed(
            "SELECT bm.rowid FROM bm JOIN docs d ON d.ref = bm.rowid WHERE bm MATCH ?",
            [expr],
            types,
        )
        sql += f" ORDER BY round(bm25(bm, {weights}), 9), d.type, d.id, d.path, d.line"
        if limit is not None:  # a pool of twice a huge --limit still fits SQLite's 64 bits
            sql += f" LIMIT {min(int(limit), 2**63 - 1)}"
        return [ref for (ref,) in self._conn.execute(sql, params)]

    def match_all(
        self, groups: Sequence[str], types: Sequence[str], limit: int | None
    ) -> list[int]:
        """`match` of the documents matching every group (`warm` answers it from memory)."""
        from orkestra.retrieval import lexical

        return self.match(lexical.all_of(groups), types, limit)

    def match_any(self, parts: Sequence[str], types: Sequence[str], limit: int | None) -> list[int]:
        """`match` of the documents matching any of `parts` (`warm` answers it from memory)."""
        from orkestra.retrieval import lexical

        return self.match(lexical.any_of(parts), types, limit)

    def match_all_counts(self, groups: Sequence[str], types: Sequence[str]) -> dict[str, int]:
        """`match_counts` of the documents matching every group."""
        from orkestra.retrieval import lexical

        return self.match_counts(lexical.all_of(groups), types)

    def match_counts(self, expr: str, types: Sequence[str]) -> dict[str, int]:
        """Documents matching an FTS5 expression over `bm`, counted by type."""
        sql, params = self._typed(
            "SELECT d.type, count(*) FROM bm JOIN docs d ON d.ref = bm.rowid WHERE bm MATCH ?",
            [expr],
            types,
        )
        return dict(self._conn.execute(sql + " GROUP BY d.type", params).fetchall())

    def match_within(self, expr: str, refs: Collection[int]) -> set[int]:
        """The refs among `refs` that match an FTS5 expression over `bm`."""
        rows = self._conn.execute(
            "SELECT rowid FROM bm WHERE bm MATCH ? AND rowid IN (SELECT value FROM json_each(?))",
            (expr, json.dumps(list(refs))),
        )
        return {ref for (ref,) in rows}

    def match_frequency(self, expr: str) -> int:
        """How many documents match an FTS5 expression over `bm`."""
        return int(
            self._conn.execute("SELECT count(*) FROM bm WHERE bm MATCH ?", (expr,)).fetchone()[0]
        )

    def size(self) -> int:
        """How many documents there are."""
        if self._size is None:
            self._size = int(self._conn.execute("SELECT count(*) FROM docs").fetchone()[0])
        return self._size

    def frequency(self, low: str, high: str | None) -> int:
        if high is None:
            row = self._conn.execute("SELECT doc FROM termrows WHERE term = ?", (low,)).fetchone()
            return int(row[0]) if row else 0
        row = self._conn.execute(
            "SELECT total(doc) FROM termrows WHERE term >= ? AND term < ?", (low, high)
        ).fetchone()
        return int(row[0] or 0)

    def postings_range(
        self, low: str, high: str | None, within: Collection[int] | None
    ) -> Iterable[tuple[str, int, int]]:
        where = "term = ?" if high is None else "term >= ? AND term < ?"
        params: list[object] = [low] if high is None else [low, high]
        if within is not None:
            where += " AND doc IN (SELECT value FROM json_each(?))"
            params.append(json.dumps(list(within)))
        sql = f"SELECT term, doc, CAST(substr(col, 2) AS INTEGER) FROM terms WHERE {where}"
        return self._conn.execute(sql, params).fetchall()

    def postings(self, term: str, within: Collection[int] | None) -> Iterable[tuple[int, int]]:
        return [(ref, col) for _term, ref, col in self.postings_range(term, None, within)]

    def fuzzy_pool(self, shortest: int, longest: int) -> list[str]:
        rows = self._conn.execute(
            "SELECT term FROM pool WHERE len BETWEEN ? AND ? ORDER BY term", (shortest, longest)
        )
        return [term for (term,) in rows]

    def exact(self, key: str) -> list[int]:
        return [ref for (ref,) in self._conn.execute("SELECT ref FROM docs WHERE key = ?", (key,))]

    def entries(
        self, refs: Iterable[int], types: Sequence[str], with_attrs: bool
    ) -> dict[int, Entry]:
        attrs_col = "attrs" if with_attrs else "''"
        sql = (
            f"SELECT ref, type, id, path, line, fields, {attrs_col} FROM docs"
            " WHERE ref IN (SELECT value FROM json_each(?))"
        )
        params: list[str] = [json.dumps(list(refs))]
        if types:
            sql += f" AND type IN ({', '.join('?' * len(types))})"
            params.extend(types)
        out = {}
        layouts = self._layouts
        empty: dict[str, list[str]] = {}
        for ref, kind, ident, path, line, fields, attrs in self._conn.execute(sql, params):
            shape = layouts.get(fields) or self._layout(fields)
            extra = jsonio.loads(attrs, source=_SOURCE) if attrs else empty
            out[ref] = Entry(kind, ident, path, line, shape[0], shape[1], extra)
        return out

    def refs(self, types: Sequence[str]) -> list[int]:
        if not types:
            return [ref for (ref,) in self._conn.execute("SELECT ref FROM docs ORDER BY ref")]
        marks = ", ".join("?" * len(types))
        sql = f"SELECT ref FROM docs WHERE type IN ({marks}) ORDER BY ref"
        return [ref for (ref,) in self._conn.execute(sql, list(types))]

    def titles(self, refs: Iterable[int]) -> dict[int, str]:
        rows = self._conn.execute(
            "SELECT ref, title FROM docs WHERE ref IN (SELECT value FROM json_each(?))",
            (json.dumps(list(refs)),),
        )
        return dict(rows.fetchall())

    def _layout(self, fields: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
        known = self._layouts.get(fields)
        if known is None:
            pairs = jsonio.loads(fields, source=_SOURCE)
            known = self._layouts[fields] = (
                tuple(str(p[0]) for p in pairs),
                tuple(float(p[1]) for p in pairs),
            )
        return known


def memory_corpus(docs: Sequence[Document]) -> IndexCorpus:
    """`docs` in a private in-memory index built by the same code as the file index, so search
    without `.orkestra/` gives exactly the hits of search with it."""
    from orkestra.search import store

    conn = sqlite3.connect(":memory:", isolation_level=None)
    store.create(conn)
    conn.execute("BEGIN")
    store.add_documents(conn, "@memory", docs)
    conn.execute("COMMIT")
    return IndexCorpus(conn)
