"""What ranking needs from a set of documents, and the in-memory implementation.

`rank.rank` works against this small interface; the SQLite index (`index.IndexCorpus`) and the
in-memory corpus below answer it identically, so results are the same with or without the index.
"""

from __future__ import annotations

import bisect
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import NamedTuple, Protocol

from orkestra.search.document import Document
from orkestra.search.text import exact_key, tokens

#: at most this many fields of a document are searched (the index has one column per field)
MAX_FIELDS = 16
#: alphabetic tokens at least this long are candidates for typo matches
POOL_MIN_LEN = 3


class Entry(NamedTuple):
    """A document as ranking sees it: identity, location, field names and weights, filters.

    `attrs` is only filled when asked for (filters need it); titles are fetched for the final hits.
    """

    type: str
    id: str
    path: str
    line: int
    names: tuple[str, ...]
    weights: tuple[float, ...]
    attrs: Mapping[str, Sequence[str]]


class Corpus(Protocol):
    def frequency(self, low: str, high: str | None) -> int:
        """How many documents hold a term == low, or low <= term < high (summed per term)."""
        ...

    def postings_range(
        self, low: str, high: str | None, within: Collection[int] | None
    ) -> Iterable[tuple[str, int, int]]:
        """(term, doc ref, field index) for terms == low, or low <= term < high.

        With `within`, only documents among those refs.
        """
        ...

    def postings(self, term: str, within: Collection[int] | None) -> Iterable[tuple[int, int]]:
        """(doc ref, field index) for every field holding `term` (only refs `within`, if given)."""
        ...

    def fuzzy_pool(self, shortest: int, longest: int) -> list[str]:
        """Alphabetic terms whose length is within [shortest, longest], sorted."""
        ...

    def exact(self, key: str) -> list[int]:
        """Docs whose id equals `key` (see `text.exact_key`)."""
        ...

    def entries(
        self, refs: Iterable[int], types: Sequence[str], with_attrs: bool
    ) -> dict[int, Entry]:
        """The entries of the given doc refs, only of `types` when it is not empty."""
        ...

    def titles(self, refs: Iterable[int]) -> dict[int, str]:
        """The titles of the given doc refs."""
        ...

    def refs(self, types: Sequence[str]) -> list[int]:
        """Every doc ref (only of `types` when it is not empty): a filter alone as a query."""
        ...


def field_terms(doc: Document) -> list[list[str]]:
    """Token lists of the searched fields of a document."""
    return [tokens(f.text) for f in doc.fields[:MAX_FIELDS]]


def entry_of(doc: Document) -> Entry:
    fields = doc.fields[:MAX_FIELDS]
    return Entry(
        doc.type,
        doc.id,
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

    def _terms(self, low: str, high: str | None) -> list[str]:
        if high is None:
            return [low] if low in self._postings else []
        start = bisect.bisect_left(self._vocabulary, low)
        return self._vocabulary[start : bisect.bisect_left(self._vocabulary, high)]

    def frequency(self, low: str, high: str | None) -> int:
        return sum(len({ref for ref, _ in self._postings[t]}) for t in self._terms(low, high))

    def postings_range(
        self, low: str, high: str | None, within: Collection[int] | None
    ) -> Iterable[tuple[str, int, int]]:
        return [
            (term, ref, col)
            for term in self._terms(low, high)
            for ref, col in self.postings(term, within)
        ]

    def postings(self, term: str, within: Collection[int] | None) -> Iterable[tuple[int, int]]:
        found = self._postings.get(term, [])
        if within is None:
            return found
        return [(ref, col) for ref, col in found if ref in within]

    def fuzzy_pool(self, shortest: int, longest: int) -> list[str]:
        return sorted(t for size in range(shortest, longest + 1) for t in self._pool.get(size, []))

    def exact(self, key: str) -> list[int]:
        return self._ids.get(key, [])

    def entries(
        self, refs: Iterable[int], types: Sequence[str], with_attrs: bool
    ) -> dict[int, Entry]:
        docs = self._docs
        return {ref: entry_of(docs[ref]) for ref in refs if not types or docs[ref].type in types}

    def titles(self, refs: Iterable[int]) -> dict[int, str]:
        return {ref: self._docs[ref].title for ref in refs}

    def refs(self, types: Sequence[str]) -> list[int]:
        return [ref for ref, doc in enumerate(self._docs) if not types or doc.type in types]
