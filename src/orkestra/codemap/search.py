"""`code search`: text (FTS5 trigram), structural (symbol table) and graph (references) retrievers,
fused by the retrieval core with the intent's weight profile (PRODUCT.md §12)."""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Sequence
from typing import Any

from orkestra.codemap import intent as intents
from orkestra.retrieval import fusion
from orkestra.retrieval.fusion import Hit, Retriever

STOPWORDS = frozenset(
    """a an and are as at be by can do does for from has have how in into is it its of on or
    the this that to was what when where which who why will with without not no use used uses
    using all any each every than then there these those their our your my we you they also
    add adds added fix fixes fixed make makes one two new""".split()  # noqa: SIM905
)
#: the bonus of a definition whose whole name the query spells out
EXACT = 10.0
#: modules whose neighbourhood the graph retriever explores for a question in words
SEEDS = 5
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


def _file_text(conn: sqlite3.Connection, fid: int) -> list[str]:
    row = conn.execute("SELECT body FROM text WHERE rowid = ?", (fid,)).fetchone()
    return str(row[0]).splitlines() if row else []


def best_line(lines: Sequence[str], words: Sequence[str]) -> tuple[int, str]:
    """(1-based line, text) of the line holding the most of `words` (first line when none)."""
    best, best_score = 0, 0
    for number, text in enumerate(lines):
        low = text.lower()
        score = sum(1 for w in words if w in low)
        if score > best_score:
            best, best_score = number, score
    return best + 1, (lines[best].strip()[:200] if lines else "")


class TextRetriever:
    """Files whose content matches the query's words (SQLite FTS5, trigram tokenizer, bm25)."""

    name = "text"

    def __init__(self, conn: sqlite3.Connection, *, phrase: bool = False) -> None:
        self.conn = conn
        self.phrase = phrase

    def search(self, query: str, limit: int) -> list[Hit]:
        words = [query.lower()] if self.phrase and len(query) >= 3 else terms(query)
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        rows = self.conn.execute(
            "SELECT t.rowid, f.path, f.centrality FROM text t JOIN files f ON f.id = t.rowid "
            "WHERE text MATCH ? ORDER BY bm25(text) LIMIT ?",
            (match, limit),
        ).fetchall()
        hits = []
        for fid, path, centrality in rows:
            line, snippet = best_line(_file_text(self.conn, fid), words)
            hits.append(Hit(path, path, line, snippet, centrality=centrality))
        return hits


class StructuralRetriever:
    """Definitions whose names match the query's words (exact names first, then name parts)."""

    name = "structural"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def symbols(self, query: str, limit: int) -> list[tuple[float, Any]]:
        """(score, row) of matching symbols, best first: row = id, path, line, signature, ...

        A symbol scores the rarity (idf over all symbol names) of the query words its name is
        made of, divided by the square root of its name's word count; a name the query spells
        out exactly scores EXACT more."""
        raw = {w.lower() for w in _WORD.findall(query) if len(w) >= 2}
        words = terms(query)
        if not words and not raw:
            return []
        total = self.conn.execute("SELECT count(*) FROM symbols").fetchone()[0] or 1
        idf = {}
        for word in words:
            df = self.conn.execute(
                "SELECT count(*) FROM symbols WHERE lower(name) LIKE ?", (f"%{word}%",)
            ).fetchone()[0]
            idf[word] = math.log((total + 1) / (df + 1))
        likes = " OR ".join("lower(s.name) LIKE ?" for _ in words) or "0"
        rows = self.conn.execute(
            "SELECT s.id, f.path, s.line, s.signature, s.centrality, s.name, s.kind FROM symbols s "
            f"JOIN files f ON f.id = s.file_id WHERE lower(s.name) IN ({','.join('?' * len(raw))}) "
            f"OR {likes} LIMIT 20000",
            [*raw, *(f"%{w}%" for w in words)],
        ).fetchall()
        scored = []
        for row in rows:
            name = row[5].lower()
            parts = set(terms(row[5])) or {name}
            hits = [idf[w] for w in words if w in parts]
            # one matching word is weak evidence (`folder`, `find`): it counts half
            matched = sum(hits) * len(hits) / (len(hits) + 1)
            score = (EXACT if name in raw else 0.0) + matched / math.sqrt(len(parts))
            if score > 0:
                scored.append((score + min(row[4], 10.0) * 0.01, row))
        scored.sort(key=lambda item: (-item[0], item[1][1], item[1][2]))
        return scored[:limit]

    def search(self, query: str, limit: int) -> list[Hit]:
        """Files ranked by their modules' names (the path's folders and stem, a module being a
        definition too) plus their best matching definitions (the sum of their top three)."""
        per_file: dict[str, list[tuple[float, Any]]] = {}
        for score, row in self.symbols(query, limit * 20):
            per_file.setdefault(row[1], []).append((score, row))
        modules = self.modules(query)
        scores = {
            path: modules.get(path, (0.0, 0.0))[0] + sum(s for s, _ in found[:3])
            for path, found in per_file.items()
        }
        for path, (score, _centrality) in modules.items():
            scores.setdefault(path, score)
        ranked = sorted(scores, key=lambda path: (-scores[path], path))[:limit]
        hits = []
        for path in ranked:
            if path in per_file:
                row = per_file[path][0][1]
                hits.append(Hit(path, path, row[2], row[3], centrality=row[4]))
            else:
                hits.append(Hit(path, path, 1, path, centrality=modules[path][1]))
        return hits

    def modules(self, query: str) -> dict[str, tuple[float, float]]:
        """{path: (score, centrality)} of code files whose path words are query words (idf-weighted
        over all paths, divided by the square root of the path's word count)."""
        words = terms(query)
        rows = self.conn.execute(
            "SELECT path, centrality FROM files WHERE language IS NOT NULL"
        ).fetchall()
        if not words or not rows:
            return {}
        parts = {path: set(terms(path.rsplit(".", 1)[0].replace("/", " "))) for path, _ in rows}
        df = {w: sum(1 for p in parts.values() if w in p) for w in words}
        idf = {w: math.log((len(rows) + 1) / (df[w] + 1)) for w in words}
        out = {}
        for path, centrality in rows:
            matched = sum(idf[w] for w in words if w in parts[path])
            if matched > 0:
                out[path] = (matched / math.sqrt(len(parts[path]) or 1), centrality)
        return out


class GraphRetriever:
    """Code that uses the definitions the query names: reference sites, ranked by centrality."""

    name = "graph"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.structural = StructuralRetriever(conn)

    def search(self, query: str, limit: int) -> list[Hit]:
        """With a definition the query names exactly: the files that use it. Otherwise the
        neighbourhood of the best matching modules: files that use what they define."""
        scored = self.structural.symbols(query, 10)
        exact = [row[0] for score, row in scored if score >= EXACT]
        if exact:
            return self._users(exact, limit)
        return self._neighbours([h.path for h in self.structural.search(query, SEEDS)], limit)

    def _neighbours(self, seeds: list[str], limit: int) -> list[Hit]:
        score: dict[str, float] = {}
        where: dict[str, tuple[int, str, float]] = {}
        for rank, seed in enumerate(seeds):
            rows = self.conn.execute(
                "SELECT f.path, min(r.line), r.name, f.centrality, count(*), "
                "(SELECT count(*) FROM refs a WHERE a.file_id = f.id AND a.target IS NOT NULL) "
                "FROM refs r JOIN symbols s ON s.id = r.target JOIN files d ON d.id = s.file_id "
                "JOIN files f ON f.id = r.file_id WHERE d.path = ? AND f.id != d.id "
                "GROUP BY f.id",
                (seed,),
            ).fetchall()
            for path, line, name, centrality, uses, out in rows:
                # the share of a file's resolved uses that go to the seed, not the raw count
                score[path] = score.get(path, 0.0) + uses / math.sqrt(out or 1) / (rank + 1)
                where.setdefault(path, (line, name, centrality))
        ranked = sorted(score, key=lambda path: (-score[path], path))[:limit]
        return [
            Hit(p, p, where[p][0], f"uses {where[p][1]}", centrality=where[p][2]) for p in ranked
        ]

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


def retrievers(conn: sqlite3.Connection, extra: Sequence[Retriever] = ()) -> dict[str, Retriever]:
    """The built-in retrievers plus optional plug-ins (a semantic retriever, off by default)."""
    found: dict[str, Retriever] = {
        "text": TextRetriever(conn),
        "structural": StructuralRetriever(conn),
        "graph": GraphRetriever(conn),
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
    depth = max(limit * 5, 50)
    lead = fusion.dominant(weights)
    if guess.confidence >= intents.DIRECT_AT and lead is not None:
        hits = fusion.direct(available[lead].search(wanted, depth), limit=limit, source=lead)
        strategy = "direct"
    else:
        ranked = {name: r.search(wanted, depth) for name, r in available.items() if weights[name]}
        hits = fusion.weighted_rrf(ranked, weights, limit=limit)
        strategy = "weighted_rrf"
    return {
        "query": query,
        "intent": guess.name,
        "confidence": guess.confidence,
        "fusion_strategy": strategy,
        "retrievers": sorted(name for name, w in weights.items() if w > 0),
        "total": len(hits),
        "results": [_hit(h) for h in hits],
    }


def _hit(hit: Hit) -> dict[str, Any]:
    return {
        "path": hit.path,
        "line": hit.line,
        "location": f"{hit.path}:{hit.line}",
        "snippet": hit.snippet,
        "score": hit.score,
        "sources": list(hit.sources),
    }
