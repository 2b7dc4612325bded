"""What ranking needs from a set of documents, and the in-memory implementation.

`rank.rank` works against this small interface; the SQLite index (`index.IndexCorpus`) and the
in-memory corpus below answer it identically, so results are the same with or without the index.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from orkestra.search.document import Document
from orkestra.search.text import exact_key, tokens

#: at most this many fields of a document are searched (the index has one column per field)
MAX_FIELDS = 16
#: alphabetic tokens at least this long are candidates for typo matches
POOL_MIN_LEN = 3


@dataclass(frozen=True)
class Entry:
    """A document as ranking sees it: identity, location, field names and weights, filters."""

    type: str
    id: str
    title: str
    path: str
    line: int
    names: tuple[str, ...]
    weights: tuple[float, ...]
    attrs: Mapping[str, Sequence[str]]


class Corpus(Protocol):
    def postings_range(self, low: str, high: str | None) -> Iterable[tuple[str, int, int]]:
        """(term, doc ref, field index) for terms == low, or low <= term < high."""
        ...

    def postings(self, term: str) -> Iterable[tuple[int, int]]:
        """(doc ref, field index) for every field holding `term`."""
        ...

    def fuzzy_pool(self, shortest: int, longest: int) -> list[str]:
        """Alphabetic terms whose length is within [shortest, longest], sorted."""
        ...

    def exact(self, key: str) -> list[int]:
        """Docs whose id equals `key` (see `text.exact_key`)."""
        ...

    def entries(self, refs: Iterable[int]) -> dict[int, Entry]:
        """The entries of the given doc refs."""
        ...


def field_terms(doc: Document) -> list[list[str]]:
    """Token lists of the searched fields of a document."""
    return [tokens(f.text) for f in doc.fields[:MAX_FIELDS]]


def entry_of(doc: Document) -> Entry:
    fields = doc.fields[:MAX_FIELDS]
    return Entry(
        doc.type,
        doc.id,
        doc.title,
        doc.path,
        doc.line,
        tuple(f.name for f in fields),
        tuple(float(f.weight) for f in fields),
        doc.attrs,
    )


class MemoryCorpus:
    """Documents held in memory (no index): the reference behaviour of search."""

    def __init__(self, docs: Sequence[Document]) -> None:
        self._docs = list(docs)
        self._postings: dict[str, list[tuple[int, int]]] = {}
        self._ids: dict[str, list[int]] = {}
        for ref, doc in enumerate(self._docs):
            self._ids.setdefault(exact_key(doc.id), []).append(ref)
            for col, terms in enumerate(field_terms(doc)):
                for term in dict.fromkeys(terms):
                    self._postings.setdefault(term, []).append((ref, col))
        self._vocabulary = sorted(self._postings)
        self._pool: dict[int, list[str]] = {}
        for term in self._vocabulary:
            if len(term) >= POOL_MIN_LEN and term.isalpha():
                self._pool.setdefault(len(term), []).append(term)

    def postings_range(self, low: str, high: str | None) -> Iterable[tuple[str, int, int]]:
        if high is None:
            return [(low, ref, col) for ref, col in self._postings.get(low, [])]
        start = bisect.bisect_left(self._vocabulary, low)
        end = bisect.bisect_left(self._vocabulary, high)
        return [
            (term, ref, col)
            for term in self._vocabulary[start:end]
            for ref, col in self._postings[term]
        ]

    def postings(self, term: str) -> Iterable[tuple[int, int]]:
        return self._postings.get(term, [])

    def fuzzy_pool(self, shortest: int, longest: int) -> list[str]:
        return sorted(t for size in range(shortest, longest + 1) for t in self._pool.get(size, []))

    def exact(self, key: str) -> list[int]:
        return self._ids.get(key, [])

    def entries(self, refs: Iterable[int]) -> dict[int, Entry]:
        return {ref: entry_of(self._docs[ref]) for ref in refs}
