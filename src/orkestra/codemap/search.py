"""`code search`: text (FTS5 trigram), structural (symbol table) and graph (references) retrievers,
fused by the retrieval core with the intent's weight profile (PRODUCT.md §12)."""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Sequence
from typing import Any

from orkestra.codemap import intent as intents
from orkestra.codemap import store, words
from orkestra.retrieval import fusion
from orkestra.retrieval.fusion import Hit, Retriever

STOPWORDS = frozenset(
    """a an and are as at be by can do does for from has have how in into is it its of on or
    the this that to was what when where which who why will with without not no use used uses
    using all any each every than then there these those their our your my we you they also
    add adds added fix fixes fixed make makes one two new""".split()  # noqa: SIM905
)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
_SPLIT = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def terms(query: str) -> list[str]:
    """Lower-case words of a query worth looking for (3+ letters, not stop words), in order."""
    out: list[str] = []
    for word in _WORD.findall(query):
        for part in {word, *_SPLIT.findall(word)}:
            low = part.lower()
            if len(low) >= 3 and low not in STOPWORDS and low not in out:
                out.append(low)
    return out


def best_line(lines: Sequence[str], words: Sequence[str]) -> tuple[int, str]:
    """(1-based line, text) of the line holding the most of `words` (first line when none)."""
    best, best_score = 0, 0
    for number, text in enumerate(lines):
        low = text.lower()
        score = sum(1 for w in words if w in low)
        if score > best_score:
            best, best_score = number, score
    if not lines:
        return 1, ""
    text = lines[best]
    found = [at for at in (text.lower().find(w) for w in words) if at >= 0]
    return best + 1, store.snippet(text, min(found, default=0))


def prefix(word: str) -> str:
    """A query word cut to what its inflections share, for substring (trigram) matching:
    `indexing`, `indexed` -> `index`; `resolves`, `resolved` -> `resolv` (4+ letters kept)."""
    if len(word) <= 5 or not word.isalpha():
        return word
    for suffix in ("ations", "ation", "ings", "ing", "ies", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            base = word[: -len(suffix)]
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                return word  # `process`, `status`, `analysis`
            return base[:-1] if len(base) > 4 and base[-1] == base[-2] else base
    return word


class _Memo:
    """The last few answers of a retriever, so a retriever seeded by it does not ask twice."""

    def __init__(self) -> None:
        self._answers: dict[tuple[str, int], list[Hit]] = {}

    def search(self, query: str, limit: int) -> list[Hit]:
        key = (query, limit)
        if key not in self._answers:
            if len(self._answers) > 8:
                self._answers.clear()
            self._answers[key] = self._search(query, limit)
        return list(self._answers[key])

    def _search(self, query: str, limit: int) -> list[Hit]:
        raise NotImplementedError


class TextRetriever(_Memo):
    """Files whose content matches the query's words (SQLite FTS5, trigram tokenizer, bm25); a
    word of a question is looked for by the part its inflections share (`prefix`)."""

    name = "text"

    def __init__(self, conn: sqlite3.Connection, *, phrase: bool = False) -> None:
        super().__init__()
        self.conn = conn
        self.phrase = phrase

    def _words(self, query: str) -> list[str]:
        if self.phrase and len(query) >= 3:
            return [query.lower()]
        return list(dict.fromkeys(prefix(w) for w in terms(query)))

    @staticmethod
    def _match(words: Sequence[str]) -> str:
        return " OR ".join('"' + w.replace('"', '""') + '"' for w in words)

    def keys(self, query: str) -> set[str]:
        """Every file the query matches (what `search` ranks, uncut by a limit)."""
        words = self._words(query)
        if not words:
            return set()
        return {
            row[0]
            for row in self.conn.execute(
                "SELECT f.path FROM text t JOIN files f ON f.id = t.rowid WHERE text MATCH ?",
                (self._match(words),),
            )
        }

    def _search(self, query: str, limit: int) -> list[Hit]:
        words = self._words(query)
        if not words:
            return []
        rows = self.conn.execute(
            "SELECT t.rowid, f.path, f.centrality FROM text t JOIN files f ON f.id = t.rowid "
            "WHERE text MATCH ? ORDER BY bm25(text) LIMIT ?",
            (self._match(words), limit),
        ).fetchall()
        hits = []
        for fid, path, centrality in rows:
            line, snippet = best_line(store.file_lines(self.conn, fid), words)
            hits.append(Hit(path, path, line, snippet, centrality=centrality))
        return hits


#: bm25 column weights of the identifier-words table: path words, definition words
IDENT_WEIGHTS = (8.0, 1.0)


class StructuralRetriever(_Memo):
    """Code files ranked by a BM25 over their identifier words (`words`): the path's folders and
    file name, the names, qualified names and signature lines of their definitions. A file
    defining a name the query spells out exactly comes first."""

    name = "structural"

    def __init__(self, conn: sqlite3.Connection) -> None:
        super().__init__()
        self.conn = conn

    @staticmethod
    def _names(query: str) -> list[str]:
        """The whole names the query spells out (identifiers with `_` or inner capitals, or
        the one word of a one-word query)."""
        raw = [w for w in _WORD.findall(query) if len(w) >= 3]
        names = [w for w in raw if "_" in w.strip("_") or w[1:] != w[1:].lower()]
        return raw if len(raw) == 1 else names

    def keys(self, query: str) -> set[str]:
        """Every file the query matches (what `search` ranks, uncut by a limit)."""
        found: set[str] = set()
        names = self._names(query)
        if names:
            found.update(
                row[0]
                for row in self.conn.execute(
                    "SELECT DISTINCT f.path FROM symbols s JOIN files f ON f.id = s.file_id "
                    f"WHERE s.name IN ({','.join('?' * len(names))})",
                    names,
                )
            )
        wanted = terms(query)
        if wanted:
            found.update(
                row[0]
                for row in self.conn.execute(
                    "SELECT f.path FROM idents i JOIN files f ON f.id = i.rowid "
                    "WHERE idents MATCH ?",
                    (" OR ".join('"' + w + '"' for w in wanted),),
                )
            )
        return found

    def exact(self, query: str) -> list[tuple[int, str, int, str, float]]:
        """(symbol id, path, line, signature, centrality) of definitions whose whole name the
        query spells out (identifiers with `_` or inner capitals, or a one-word query)."""
        names = self._names(query)
        if not names:
            return []
        rows = self.conn.execute(
            "SELECT s.id, f.path, s.line, s.signature, s.centrality FROM symbols s "
            f"JOIN files f ON f.id = s.file_id WHERE s.name IN ({','.join('?' * len(names))}) "
            "ORDER BY s.centrality DESC LIMIT 50",
            names,
        ).fetchall()
        return [tuple(r) for r in rows]

    def _search(self, query: str, limit: int) -> list[Hit]:
        found = self.exact(query)
        hits = [Hit(r[1], r[1], r[2], r[3], centrality=r[4]) for r in found]
        wanted = terms(query)
        if wanted:
            match = " OR ".join('"' + w + '"' for w in wanted)
            rows = self.conn.execute(
                "SELECT i.rowid, f.path, f.centrality FROM idents i JOIN files f ON f.id = i.rowid "
                "WHERE idents MATCH ? ORDER BY bm25(idents, ?, ?) LIMIT ?",
                (match, *IDENT_WEIGHTS, limit),
            ).fetchall()
            for fid, path, centrality in rows:
                line, signature = self._best_symbol(fid, wanted)
                hits.append(Hit(path, path, line, signature or path, centrality=centrality))
        return fusion.direct(hits, limit=limit)

    def _best_symbol(self, fid: int, wanted: Sequence[str]) -> tuple[int, str]:
        """(line, signature) of the file's definition whose name holds most query words."""
        best, best_score = (1, ""), 0
        for name, line, signature in self.conn.execute(
            "SELECT name, line, signature FROM symbols WHERE file_id = ? ORDER BY line", (fid,)
        ):
            parts = set(words.split(name))
            score = sum(1 for w in wanted if w in parts or prefix(w) in name.lower())
            if score > best_score:
                best, best_score = (line, signature), score
        return best


#: a graph walk: (score of each file reached, the seeds' cited lines, the seeds)
_Walk = tuple[dict[str, float], dict[str, tuple[int, str, float]], dict[str, float]]
#: how many top hits of each seeding retriever start the graph walk
SEED_HITS = 3
#: restart probability's complement of the personalised PageRank walk
WALK_DAMPING = 0.5
WALK_ROUNDS = 12


class GraphRetriever:
    """Files near the best text and structural hits in the reference and import graph: a
    personalised PageRank seeded by those hits (each by its reciprocal rank), so a file the
    matches use or are used by ranks high even when it does not say the query's words. With a
    definition the query names exactly, the files that use it seed the walk too."""

    name = "graph"

    def __init__(self, conn: sqlite3.Connection, seeders: Sequence[Retriever] = ()) -> None:
        self.conn = conn
        self.structural = StructuralRetriever(conn)
        self.seeders = list(seeders) or [TextRetriever(conn), self.structural]
        self._edges: dict[str, dict[str, float]] | None = None
        self._last: tuple[str, _Walk] | None = None

    def search(self, query: str, limit: int) -> list[Hit]:
        scores, lines, seeds = self._walk(query, limit)
        ranked = sorted(scores, key=lambda path: (-scores[path], path))[:limit]
        return [self._hit(path, lines, seeds) for path in ranked]

    def keys(self, query: str) -> set[str]:
        """Every file the walk reaches (what `search` ranks, uncut by a limit)."""
        return set(self._walk(query, SEED_HITS)[0])

    def _walk(self, query: str, limit: int) -> _Walk:
        """(score of each file reached, the seeds' cited lines, the seeds) of the query's walk;
        the last one is kept (`keys` after `search` walks once)."""
        if self._last is not None and self._last[0] == query:
            return self._last[1]
        seeds: dict[str, float] = {}
        lines: dict[str, tuple[int, str, float]] = {}
        for seeder in self.seeders:
            for rank, hit in enumerate(seeder.search(query, max(limit, SEED_HITS))[:SEED_HITS]):
                seeds[hit.path] = seeds.get(hit.path, 0.0) + 1.0 / (rank + 1)
                lines.setdefault(hit.path, (hit.line, hit.snippet, hit.centrality))
        exact = [row[0] for row in self.structural.exact(query)]
        if exact:
            for rank, hit in enumerate(self._users(exact, SEED_HITS)):
                seeds[hit.path] = seeds.get(hit.path, 0.0) + 1.0 / (rank + 1)
                lines.setdefault(hit.path, (hit.line, hit.snippet, hit.centrality))
        scores = personalised_pagerank(self.edges(), seeds) if seeds else {}
        self._last = (query, (scores, lines, seeds))
        return scores, lines, seeds

    def edges(self) -> dict[str, dict[str, float]]:
        """The file graph, both directions: resolved references and imports between files."""
        if self._edges is None:
            graph: dict[str, dict[str, float]] = {}
            rows = self.conn.execute(
                "SELECT a.path, b.path, count(*) FROM refs r JOIN symbols s ON s.id = r.target "
                "JOIN files a ON a.id = r.file_id JOIN files b ON b.id = s.file_id "
                "WHERE a.id != b.id GROUP BY a.id, b.id "
                "UNION ALL SELECT a.path, b.path, 1 FROM import_targets t "
                "JOIN files a ON a.id = t.file_id JOIN files b ON b.id = t.target_file "
                "WHERE a.id != b.id"
            ).fetchall()
            for src, dst, count in rows:
                weight = 1.0 + math.log(count)
                for one, other in ((src, dst), (dst, src)):
                    links = graph.setdefault(one, {})
                    links[other] = links.get(other, 0.0) + weight
            self._edges = graph
        return self._edges

    def _hit(
        self, path: str, lines: dict[str, tuple[int, str, float]], seeds: dict[str, float]
    ) -> Hit:
        if path in lines:
            line, snippet, centrality = lines[path]
            return Hit(path, path, line, snippet, centrality=centrality)
        row = self.conn.execute(
            "SELECT min(r.line), r.name, f.centrality FROM refs r JOIN files f ON f.id = r.file_id "
            "JOIN symbols s ON s.id = r.target JOIN files d ON d.id = s.file_id "
            f"WHERE f.path = ? AND d.path IN ({','.join('?' * len(seeds))})",
            (path, *seeds),
        ).fetchone()
        if row and row[0] is not None:
            return Hit(path, path, row[0], f"uses {row[1]}", centrality=row[2])
        found = self.conn.execute("SELECT centrality FROM files WHERE path = ?", (path,)).fetchone()
        return Hit(path, path, 1, path, centrality=found[0] if found else 0.0)

    def _users(self, targets: list[int], limit: int) -> list[Hit]:
        marks = ",".join("?" * len(targets))
        rows = self.conn.execute(
            "SELECT f.path, r.line, r.name, f.centrality, count(*) AS uses FROM refs r "
            f"JOIN files f ON f.id = r.file_id WHERE r.target IN ({marks}) "
            "GROUP BY f.id ORDER BY uses * (1 + f.centrality) DESC, f.path LIMIT ?",
            [*targets, limit],
        ).fetchall()
        return [
            Hit(path, path, line, f"uses {name}", centrality=centrality)
            for path, line, name, centrality, _uses in rows
        ]


def personalised_pagerank(
    edges: dict[str, dict[str, float]], seeds: dict[str, float], *, rounds: int = WALK_ROUNDS
) -> dict[str, float]:
    """PageRank with restarts to `seeds` (weights normalised): how near each node is to them."""
    total = sum(seeds.values())
    restart = {node: weight / total for node, weight in seeds.items()}
    rank = dict(restart)
    for _ in range(rounds):
        new = {node: (1.0 - WALK_DAMPING) * weight for node, weight in restart.items()}
        lost = 0.0
        for node, value in rank.items():
            links = edges.get(node)
            if not links:
                lost += value
                continue
            out = sum(links.values())
            share = WALK_DAMPING * value / out
            for other, weight in links.items():
                new[other] = new.get(other, 0.0) + share * weight
        for node, weight in restart.items():  # a dead end's walk starts again at the seeds
            new[node] += WALK_DAMPING * lost * weight
        rank = new
    return rank


def retrievers(conn: sqlite3.Connection, extra: Sequence[Retriever] = ()) -> dict[str, Retriever]:
    """The built-in retrievers plus optional plug-ins (a semantic retriever, off by default)."""
    text, structural = TextRetriever(conn), StructuralRetriever(conn)
    found: dict[str, Retriever] = {
        "text": text,
        "structural": structural,
        "graph": GraphRetriever(conn, [text, structural]),
    }
    for plugin in extra:
        found[plugin.name] = plugin
    return found


def code_search(
    conn: sqlite3.Connection, query: str, *, limit: int = 10, extra: Sequence[Retriever] = ()
) -> dict[str, Any]:
    """Ranked `path:line` hits for a question, with the intent, confidence and strategy used."""
    guess = intents.classify(query)
    wanted = intents.subject(query) or query
    available = retrievers(conn, extra)
    if guess.name == "exact_match":
        available["text"] = TextRetriever(conn, phrase=True)
    weights = fusion.renormalise(intents.PROFILES[guess.name], available)
    depth = min(max(limit * 5, 50), 2**63 - 1)  # a SQLite LIMIT: 64 bits, however big --limit
    lead = fusion.dominant(weights)
    if guess.confidence >= intents.DIRECT_AT and lead is not None:
        answers = {lead: available[lead].search(wanted, depth)}
        hits = fusion.direct(answers[lead], limit=limit, source=lead)
        strategy = "direct"
    else:
        answers = {name: r.search(wanted, depth) for name, r in available.items() if weights[name]}
        hits = fusion.weighted_rrf(answers, weights, limit=limit)
        strategy = "weighted_rrf"
    total = set().union(*(_keys(available[name], wanted, hits) for name, hits in answers.items()))
    return {
        "query": query,
        "intent": guess.name,
        "confidence": guess.confidence,
        "fusion_strategy": strategy,
        "retrievers": sorted(name for name, w in weights.items() if w > 0),
        "total": len(total),
        "results": [_hit(h) for h in hits],
    }


def _keys(retriever: Retriever, query: str, answered: Sequence[Hit]) -> set[str]:
    """Every file `retriever` matches for `query` (the total, not the hits a limit kept): its
    own `keys` when it has one, else the keys of the hits it answered (a plug-in)."""
    keys = getattr(retriever, "keys", None)
    found: set[str] = keys(query) if callable(keys) else set()
    return found | {hit.key for hit in answered}


def _hit(hit: Hit) -> dict[str, Any]:
    return {
        "path": hit.path,
        "line": hit.line,
        "location": f"{hit.path}:{hit.line}",
        "snippet": hit.snippet,
        "score": hit.score,
        "sources": list(hit.sources),
    }
