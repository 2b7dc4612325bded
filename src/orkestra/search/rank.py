"""Ranking a query against a corpus, with filters (the formula itself is in `scoring`)."""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field

from orkestra.search.corpus import Corpus, Entry
from orkestra.search.document import TYPES
from orkestra.search.scoring import (
    FLOOR,
    FUZZY_MIN_LEN,
    PREFIX_MIN_LEN,
    FieldMatches,
    Hit,
    fuzzy_length_range,
    fuzzy_terms,
    matched_fields,
    prefix_quality,
    required_words,
    score,
)
from orkestra.search.text import exact_key, query_words

_TYPE_ORDER = {name: index for index, name in enumerate(TYPES)}
#: the outcome of `notes check` that sends a note below every other hit (PRODUCT.md §8.2)
CONTRADICTED = "contradicted"


@dataclass(frozen=True)
class Filters:
    """Which hits to keep: types (empty = all) and attribute values (any of, case-insensitive)."""

    types: tuple[str, ...] = ()
    status: tuple[str, ...] = ()
    domain: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()

    @property
    def on_attrs(self) -> bool:
        return bool(self.status or self.domain or self.tags)

    def accepts(self, entry: Entry) -> bool:
        if self.types and entry.type not in self.types:
            return False
        for name, wanted in (("status", self.status), ("domain", self.domain), ("tags", self.tags)):
            if wanted and not _overlaps(entry.attrs.get(name, ()), wanted):
                return False
        return True


@dataclass(frozen=True)
class Ranking:
    """The best hits (up to the limit asked for) and the number of hits of each type."""

    hits: list[Hit]
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def _overlaps(values: Sequence[str], wanted: Sequence[str]) -> bool:
    have = {v.casefold() for v in values}
    return any(w.casefold() in have for w in wanted)


def _upper(word: str) -> str:
    """The smallest string greater than every string starting with `word`."""
    return word[:-1] + chr(ord(word[-1]) + 1)


def _gather(
    corpus: Corpus, words: Sequence[str], need: int
) -> tuple[dict[int, FieldMatches], dict[int, int]]:
    """Per document: the quality of each word in each field, and a bit mask of matched words.

    When every word must match, the rarest word is looked up first and later words only among
    the documents that matched so far (the result is the same, the work much smaller).
    """
    found: dict[int, FieldMatches] = {}
    masks: dict[int, int] = {}
    count = len(words)
    highs = [_upper(w) if len(w) >= PREFIX_MIN_LEN else None for w in words]
    every = need == count and count > 1
    order: Sequence[int] = range(count)
    if every:
        order = sorted(range(count), key=lambda i: (corpus.frequency(words[i], highs[i]), i))
    within: set[int] | None = None
    for index in order:
        word, bit = words[index], 1 << index
        terms: list[tuple[float, list[tuple[int, int]]]] = []
        by_term: dict[str, list[tuple[int, int]]] = {}
        for term, ref, col in corpus.postings_range(word, highs[index], within):
            by_term.setdefault(term, []).append((ref, col))
        terms.extend((prefix_quality(word, t), p) for t, p in sorted(by_term.items()))
        if len(word) >= FUZZY_MIN_LEN and word.isalpha():
            pool = corpus.fuzzy_pool(*fuzzy_length_range(word))
            for term, quality in sorted(fuzzy_terms(word, pool).items()):
                terms.append((quality, list(corpus.postings(term, within))))
        matched: set[int] = set()
        for quality, postings in terms:
            for ref, col in postings:
                matched.add(ref)
                cols = found.get(ref)
                if cols is None:
                    cols = found[ref] = {}
                    masks[ref] = bit
                else:
                    masks[ref] |= bit
                cell = cols.get(col)
                if cell is None:
                    cell = cols[col] = [0.0] * count
                if quality > cell[index]:
                    cell[index] = quality
        if every:
            within = matched
            if not within:
                break
    return found, masks


def note_outcomes(corpus: Corpus, entries: dict[int, Entry], with_attrs: bool) -> dict[int, str]:
    """The last `notes check` outcome of each note among `entries` ("unchecked" when none)."""
    notes = [ref for ref, entry in entries.items() if entry.type == "notes"]
    if not notes:
        return {}
    known = entries if with_attrs else corpus.entries(notes, ("notes",), True)
    return {ref: next(iter(known[ref].attrs.get("outcome", ())), "unchecked") for ref in notes}


def _filtered(corpus: Corpus, keep: Filters, limit: int | None) -> Ranking:
    """A filter alone as the query (`truths search --tag security`): every entry it accepts,
    by type then id, contradicted notes last; the score is 0 and `matched_fields` the filters."""
    entries = corpus.entries(corpus.refs(keep.types), keep.types, True)
    outcomes = note_outcomes(corpus, entries, True)
    fields = tuple(n for n in ("status", "domain", "tags") if getattr(keep, n))
    counts = dict.fromkeys(TYPES, 0)
    chosen = []
    for ref, entry in entries.items():
        if keep.accepts(entry):
            counts[entry.type] = counts.get(entry.type, 0) + 1
            order = _TYPE_ORDER.get(entry.type, len(TYPES))
            chosen.append((outcomes.get(ref) == CONTRADICTED, order, entry.id, ref))
    chosen.sort()
    top = chosen if limit is None else chosen[:limit]
    titles = corpus.titles(item[3] for item in top)
    hits = [
        Hit(e.type, e.id, titles.get(ref, e.id), 0.0, fields, e.path, e.line, outcomes.get(ref))
        for *_, ref in top
        for e in (entries[ref],)
    ]
    return Ranking(hits, counts)


def rank(
    corpus: Corpus, query: str, filters: Filters | None = None, limit: int | None = None
) -> Ranking:
    """Hits scoring at least the floor (best first, at most `limit`) and the counts per type.

    A note that its last `notes check` found contradicted ranks below every other hit and
    carries that outcome (§8.2). A query without words but with a filter lists what the filter
    accepts.
    """
    keep = filters or Filters()
    words = query_words(query)
    if not words:
        if keep.on_attrs:
            return _filtered(corpus, keep, limit)
        return Ranking([], dict.fromkeys(TYPES, 0))
    need = required_words(len(words))
    found, masks = _gather(corpus, words, need)
    exact = set(corpus.exact(exact_key(query)))
    refs = {ref for ref, mask in masks.items() if mask.bit_count() >= need} | exact
    entries = corpus.entries(sorted(refs), keep.types, keep.on_attrs)
    outcomes = note_outcomes(corpus, entries, keep.on_attrs)
    counts = dict.fromkeys(TYPES, 0)
    scored = []
    empty: FieldMatches = {}
    for ref, entry in entries.items():
        if keep.on_attrs and not keep.accepts(entry):
            continue
        value = score(found.get(ref, empty), entry.weights, len(words), ref in exact)
        if value >= FLOOR:
            counts[entry.type] = counts.get(entry.type, 0) + 1
            order = _TYPE_ORDER.get(entry.type, len(TYPES))
            demoted = outcomes.get(ref) == CONTRADICTED
            scored.append((demoted, -value, order, entry.id, entry.path, entry.line, ref))
    top = sorted(scored) if limit is None else heapq.nsmallest(limit, scored)
    titles = corpus.titles(item[6] for item in top)
    hits = []
    for _demoted, neg, _order, _ident, _path, _line, ref in top:
        entry = entries[ref]
        fields = tuple(matched_fields(found.get(ref, empty), entry.names))
        title = titles.get(ref, entry.id)
        status = outcomes.get(ref)
        hits.append(Hit(entry.type, entry.id, title, -neg, fields, entry.path, entry.line, status))
    return Ranking(hits, counts)
