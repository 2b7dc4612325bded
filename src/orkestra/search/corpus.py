"""What ranking needs from a set of documents, and the in-memory corpus.

`rank.rank` works against this small interface. It is answered by the SQLite index
(`sqlcorpus.IndexCorpus`); `MemoryCorpus` builds the same index in memory from documents, so results
are the same with or without `.orkestra/`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol

from orkestra.search.text import tokens

if TYPE_CHECKING:
    from orkestra.search.document import Document

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

    def match(self, expr: str, types: Sequence[str], limit: int | None) -> list[int]:
        """Refs matching an FTS5 expression (Porter-stemmed fields), best `bm25()` first."""
        ...

    def match_all(
        self, groups: Sequence[str], types: Sequence[str], limit: int | None
    ) -> list[int]:
        """`match` of the documents matching every group (each an FTS5 expression)."""
        ...

    def match_any(self, parts: Sequence[str], types: Sequence[str], limit: int | None) -> list[int]:
        """`match` of the documents matching any of `parts` (each an FTS5 expression)."""
        ...

    def match_all_counts(self, groups: Sequence[str], types: Sequence[str]) -> dict[str, int]:
        """`match_counts` of the documents matching every group."""
        ...

    def match_counts(self, expr: str, types: Sequence[str]) -> dict[str, int]:
        """Documents matching an FTS5 expression, counted by type."""
        ...

    def match_within(self, expr: str, refs: Collection[int]) -> set[int]:
        """The refs among `refs` matching an FTS5 expression."""
        ...

    def match_frequency(self, expr: str) -> int:
        """How many documents match an FTS5 expression."""
        ...

    def size(self) -> int:
        """How many documents there are."""
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


def MemoryCorpus(docs: Sequence[Document]) -> Corpus:
    """Documents held in memory (no `.orkestra/`): the same index, built in memory."""
    from orkestra.search.sqlcorpus import memory_corpus

    return memory_corpus(docs)
