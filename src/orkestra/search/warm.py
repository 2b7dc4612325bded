"""What a long-running process (the MCP server) keeps of an open search index between searches.

Scored postings per query group: for each FTS5 group of a query (one query word with its prefix and
typo forms, or the OR of a query's synonyms) the `bm25()` share of every document matching it. A
strict query's documents are the intersection of its groups' documents, and its `bm25()` is the sum
of their shares: BM25 sums over the expression's phrases, and a phrase's share depends only on the
phrase and the document (its IDF, the document's length). So a word that was searched once is not
scored by SQLite again, whatever other words it comes with. Kept besides: the identity of every
document (type, id, path, line), for the counts by type and the tie order, and the typo candidates
by length.

Everything is dropped when the index changes: a commit by another connection (`PRAGMA
data_version`) or by this one (its `total_changes`, the server's own refresh), or another
connection altogether (the server reopens its index when it was deleted or damaged: a new
connection starts at the same counters, over other documents).
"""

from __future__ import annotations

import heapq
import sqlite3
from collections import Counter, OrderedDict
from collections.abc import Collection, Sequence

from orkestra.search.sqlcorpus import IndexCorpus

#: at most this many groups' scored postings are kept (least recently used dropped first)
MAX_GROUPS = 256


class WarmState:
    """The in-memory tables of one open index, valid while the index does not change."""

    def __init__(self) -> None:
        # a warm process loads rapidfuzz once: per comparison it is faster than the plain-Python
        # scorer, which only pays off in a one-off run (`retrieval.indel.preferred`)
        import rapidfuzz  # noqa: F401

        self._stamp: tuple[int, int] | None = None
        #: the connection the tables were read from (held, not its id, which may be reused)
        self._conn: sqlite3.Connection | None = None
        self.groups: OrderedDict[str, dict[int, float]] = OrderedDict()
        self.ident: dict[int, tuple[str, str, str, int]] | None = None
        self.pools: dict[tuple[int, int], list[str]] = {}
        self.kinds: dict[int, str] = {}
        #: per group: its documents counted by type
        self.counts: dict[str, dict[str, int]] = {}

    def corpus(self, conn: sqlite3.Connection) -> WarmCorpus:
        """A corpus over `conn` answering from these tables (call inside the read transaction)."""
        version = int(conn.execute("PRAGMA data_version").fetchone()[0])
        stamp = (version, conn.total_changes)
        if stamp != self._stamp or conn is not self._conn:
            self.groups.clear()
            self.ident = None
            self.pools.clear()
            self.kinds = {}
            self.counts.clear()
            self._stamp = stamp
            self._conn = conn
        return WarmCorpus(conn, self)


class WarmCorpus(IndexCorpus):
    """`IndexCorpus` whose strict matches, counts and typo pools come from a `WarmState`."""

    def __init__(self, conn: sqlite3.Connection, state: WarmState) -> None:
        super().__init__(conn)
        self._state = state
        #: this search's strict matches, shared by the ranking and the counts
        self._scored_here: dict[tuple[tuple[str, ...], tuple[str, ...]], dict[int, float]] = {}

    def _group(self, group: str) -> dict[int, float]:
        from orkestra.search.store import BM_WEIGHTS

        state = self._state
        known = state.groups.get(group)
        if known is not None:
            state.groups.move_to_end(group)
            return known
        weights = ", ".join(f"{w:g}" for w in BM_WEIGHTS)
        sql = f"SELECT rowid, bm25(bm, {weights}) FROM bm WHERE bm MATCH ?"
        known = dict(self._conn.execute(sql, (group,)).fetchall())
        state.groups[group] = known
        while len(state.groups) > MAX_GROUPS:
            state.groups.popitem(last=False)
        return known

    def _ident(self) -> dict[int, tuple[str, str, str, int]]:
        state = self._state
        if state.ident is None:
            rows = self._conn.execute("SELECT ref, type, id, path, line FROM docs")
            state.ident = {ref: (kind, ident, path, line) for ref, kind, ident, path, line in rows}
            state.kinds = {ref: entry[0] for ref, entry in state.ident.items()}
        return state.ident

    def _scored(self, groups: Sequence[str], types: Sequence[str]) -> dict[int, float]:
        """Documents matching every group (of `types`, when given) and their `bm25()`."""
        key = (tuple(groups), tuple(types))
        known = self._scored_here.get(key)
        if known is not None:
            return known
        parts = [self._group(g) for g in groups if g]
        self._ident()
        kinds = self._state.kinds
        wanted = set(types)
        if len(parts) == 1 and not wanted:
            out = parts[0]
        elif len(parts) == 1:
            out = {ref: score for ref, score in parts[0].items() if kinds[ref] in wanted}
        else:
            out = {}
            for ref in min(parts, key=len) if parts else ():
                if wanted and kinds[ref] not in wanted:
                    continue
                total = 0.0
                for part in parts:  # in the expression's order, as FTS5 sums its phrases
                    share = part.get(ref)
                    if share is None:
                        break
                    total += share
                else:
                    out[ref] = total
        self._scored_here[key] = out
        return out

    def match_all(
        self, groups: Sequence[str], types: Sequence[str], limit: int | None
    ) -> list[int]:
        return self._best(self._scored(groups, types), limit)

    def match_any(self, parts: Sequence[str], types: Sequence[str], limit: int | None) -> list[int]:
        # an OR's `bm25()` is the sum of the shares of the parts a document matches
        self._ident()
        kinds = self._state.kinds
        wanted = set(types)
        scored: dict[int, float] = {}
        for part in (self._group(p) for p in parts if p):
            for ref, share in part.items():
                if not wanted or kinds[ref] in wanted:
                    scored[ref] = scored.get(ref, 0.0) + share
        return self._best(scored, limit)

    def match_frequency(self, expr: str) -> int:
        return len(self._group(expr))

    def match_within(self, expr: str, refs: Collection[int]) -> set[int]:
        group = self._group(expr)
        return {ref for ref in refs if ref in group}

    def _best(self, scored: dict[int, float], limit: int | None) -> list[int]:
        """The refs of `scored` in `match`'s order (`bm25()` rounded, type, id, path, line)."""
        ident = self._ident()
        items = scored.items()
        if limit is not None and len(scored) > limit > 0:
            # only the documents that can be among the best `limit` once rounded get a sort key
            cutoff = heapq.nsmallest(int(limit), scored.values())[-1] + 1e-8
            items = [(ref, score) for ref, score in items if score <= cutoff]  # type: ignore[assignment]
        keys = sorted((round(score, 9), *ident[ref], ref) for ref, score in items)
        best = keys if limit is None else keys[: int(limit)]
        return [key[-1] for key in best]

    def match_all_counts(self, groups: Sequence[str], types: Sequence[str]) -> dict[str, int]:
        state = self._state
        scored = self._scored(groups, types)
        if len(groups) == 1 and not types:  # one word: its document counts by type, kept
            known = state.counts.get(groups[0])
            if known is None:
                known = state.counts[groups[0]] = dict(Counter(state.kinds[ref] for ref in scored))
            return dict(known)
        return dict(Counter(state.kinds[ref] for ref in scored))

    def fuzzy_pool(self, shortest: int, longest: int) -> list[str]:
        pools = self._state.pools
        known = pools.get((shortest, longest))
        if known is None:
            known = pools[(shortest, longest)] = super().fuzzy_pool(shortest, longest)
        return known
