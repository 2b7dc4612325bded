"""The `Corpus` interface answered from the SQLite index (see `store` for the tables)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterable, Sequence

from orkestra.core import jsonio
from orkestra.search.corpus import Entry

#: where a damaged JSON value of the search index is reported (derived: delete it to rebuild)
_SOURCE = ".orkestra/search.sqlite3"


class IndexCorpus:
    """The `Corpus` interface answered from the index."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._layouts: dict[str, tuple[tuple[str, ...], tuple[float, ...]]] = {}

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
