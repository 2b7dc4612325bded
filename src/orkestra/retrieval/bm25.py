"""Okapi BM25 over whole documents: the plain baseline retriever (standard library only)."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable

from orkestra.retrieval.fusion import Hit

K1 = 1.2
B = 0.75
_TOKEN = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> list[str]:
    """Lower-case alphanumeric words."""
    return _TOKEN.findall(text.lower())


class BM25:
    """An in-memory BM25 index of (key, text) documents, searched as a `Retriever`."""

    name = "bm25"

    def __init__(self, documents: Iterable[tuple[str, str]]) -> None:
        self.keys: list[str] = []
        self.freqs: list[Counter[str]] = []
        self.lengths: list[int] = []
        df: Counter[str] = Counter()
        for key, text in documents:
            words = Counter(tokens(text))
            self.keys.append(key)
            self.freqs.append(words)
            self.lengths.append(sum(words.values()))
            df.update(words.keys())
        n = len(self.keys)
        self.avg = sum(self.lengths) / n if n else 0.0
        self.idf = {w: math.log(1 + (n - f + 0.5) / (f + 0.5)) for w, f in df.items()}

    def scores(self, query: str) -> list[tuple[float, str]]:
        """(score, key) of every document matching a query word, best first."""
        words = [w for w in dict.fromkeys(tokens(query)) if w in self.idf]
        out = []
        for freqs, length, key in zip(self.freqs, self.lengths, self.keys, strict=True):
            score = 0.0
            for word in words:
                tf = freqs.get(word, 0)
                if tf:
                    norm = tf + K1 * (1 - B + B * length / (self.avg or 1.0))
                    score += self.idf[word] * tf * (K1 + 1) / norm
            if score > 0:
                out.append((score, key))
        out.sort(key=lambda item: (-item[0], item[1]))
        return out

    def search(self, query: str, limit: int) -> list[Hit]:
        """The best `limit` documents as hits (line 1: BM25 has no position)."""
        return [Hit(key, key, 1, score=round(s, 6)) for s, key in self.scores(query)[:limit]]
