"""Ranking a query against a corpus, with filters (the formula itself is in `scoring`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from orkestra.search.corpus import Corpus, Entry
from orkestra.search.scoring import (
    FLOOR,
    FUZZY_MIN_LEN,
    PREFIX_MIN_LEN,
    FieldMatches,
    Hit,
    fuzzy_length_range,
    fuzzy_terms,
    matched_fields,
    ordered,
    prefix_quality,
    score,
)
from orkestra.search.text import exact_key, query_words


@dataclass(frozen=True)
class Filters:
    """Which hits to keep: types (empty = all) and attribute values (any of, case-insensitive)."""

    types: tuple[str, ...] = ()
    status: tuple[str, ...] = ()
    domain: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()

    def accepts(self, entry: Entry) -> bool:
        if self.types and entry.type not in self.types:
            return False
        for name, wanted in (("status", self.status), ("domain", self.domain), ("tags", self.tags)):
            if wanted and not _overlaps(entry.attrs.get(name, ()), wanted):
                return False
        return True


def _overlaps(values: Sequence[str], wanted: Sequence[str]) -> bool:
    have = {v.casefold() for v in values}
    return any(w.casefold() in have for w in wanted)


def _upper(word: str) -> str:
    """The smallest string greater than every string starting with `word`."""
    return word[:-1] + chr(ord(word[-1]) + 1)


def _gather(corpus: Corpus, words: Sequence[str]) -> dict[int, FieldMatches]:
    found: dict[int, FieldMatches] = {}
    count = len(words)

    def note(ref: int, col: int, index: int, quality: float) -> None:
        cols = found.get(ref)
        if cols is None:
            cols = found[ref] = {}
        cell = cols.get(col)
        if cell is None:
            cell = cols[col] = [0.0] * count
        if quality > cell[index]:
            cell[index] = quality

    for index, word in enumerate(words):
        high = _upper(word) if len(word) >= PREFIX_MIN_LEN else None
        for term, ref, col in corpus.postings_range(word, high):
            note(ref, col, index, prefix_quality(word, term))
        if len(word) >= FUZZY_MIN_LEN and word.isalpha():
            pool = corpus.fuzzy_pool(*fuzzy_length_range(word))
            for term, quality in sorted(fuzzy_terms(word, pool).items()):
                for ref, col in corpus.postings(term):
                    note(ref, col, index, quality)
    return found


def rank(corpus: Corpus, query: str, filters: Filters | None = None) -> list[Hit]:
    """Every document scoring at least the floor, best first (see `scoring`)."""
    words = query_words(query)
    if not words:
        return []
    found = _gather(corpus, words)
    exact = set(corpus.exact(exact_key(query)))
    for ref in exact:
        found.setdefault(ref, {})
    entries = corpus.entries(found)
    keep = filters or Filters()
    hits = []
    for ref, matches in found.items():
        entry = entries.get(ref)
        if entry is None or not keep.accepts(entry):
            continue
        value = score(matches, entry.weights, len(words), ref in exact)
        if value >= FLOOR:
            fields = tuple(matched_fields(matches, entry.names))
            hits.append(
                Hit(entry.type, entry.id, entry.title, value, fields, entry.path, entry.line)
            )
    return ordered(hits)
