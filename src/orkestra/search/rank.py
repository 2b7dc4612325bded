"""Ranking a query against a corpus, with filters (the formula itself is in `scoring`)."""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field

from orkestra.registry.models.search_fields import BOOSTS, WEIGHTS
from orkestra.search.corpus import Corpus, Entry
from orkestra.search.kinds import TYPES
from orkestra.search.scoring import (
    EXACT_ID_BONUS,
    FUZZY_MIN_LEN,
    PREFIX_MIN_LEN,
    FieldMatches,
    Hit,
    fuzzy_length_range,
    fuzzy_terms,
    matched_fields,
    prefix_quality,
    score,
)
from orkestra.search.text import exact_key, query_words, tokens

_TYPE_ORDER = {name: index for index, name in enumerate(TYPES)}
#: the retrievers of registry search and their weights in the fusion (renormalised over those
#: present; `semantic` only when a plug-in is registered, `synonyms` only when the query has some)
FUSION_WEIGHTS = {"fields": 0.35, "bm25": 0.35, "names": 0.15, "synonyms": 0.1, "semantic": 0.2}
#: the fused score is shown multiplied by this (a hit's `score`)
SCORE_SCALE = 1000.0
#: with a limit, only this many of the best `bm25()` matches are ranked (the total counts all)
POOL = 200
#: a relaxed query ranks at most this many documents matching any word ...
RELAXED_POOL = 200
#: ... that cover at least this share of what the best-covering document covers
RELAXED_SHARE = 0.5
#: the credit of a word matched only through a synonym, in a relaxed query's coverage
SYNONYM_CREDIT = 0.5
#: `bm` columns (weights 6, 5, 4, 3, 2, 1) where a prefix, and a typo, may match
PREFIX_COLUMNS = ("w0", "w1", "w2", "w3", "w4")
TYPO_COLUMNS = ("w0", "w1", "w2", "w3")
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


def _neighbours(corpus: Corpus, word: str) -> dict[str, float]:
    """Typo neighbours of a query word in the vocabulary (rapidfuzz), with their quality."""
    if len(word) < FUZZY_MIN_LEN or not word.isalpha():
        return {}
    return fuzzy_terms(word, corpus.fuzzy_pool(*fuzzy_length_range(word)))


def _gather(
    corpus: Corpus, words: Sequence[str], fuzzy: Sequence[dict[str, float]], within: set[int]
) -> dict[int, FieldMatches]:
    """Per document among `within`: the quality of each word in each field (the `fields`
    retriever's input: exact, prefix and typo matches, `scoring`)."""
    found: dict[int, FieldMatches] = {}
    count = len(words)
    for index, word in enumerate(words):
        high = _upper(word) if len(word) >= PREFIX_MIN_LEN else None
        terms: list[tuple[float, list[tuple[int, int]]]] = []
        by_term: dict[str, list[tuple[int, int]]] = {}
        for term, ref, col in corpus.postings_range(word, high, within):
            by_term.setdefault(term, []).append((ref, col))
        terms.extend((prefix_quality(word, t), p) for t, p in sorted(by_term.items()))
        for term, quality in sorted(fuzzy[index].items()):
            terms.append((quality, list(corpus.postings(term, within))))
        for quality, postings in terms:
            for ref, col in postings:
                cols = found.setdefault(ref, {})
                cell = cols.get(col)
                if cell is None:
                    cell = cols[col] = [0.0] * count
                if quality > cell[index]:
                    cell[index] = quality
    return found


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


def _group(word: str, fuzzy: dict[str, float]) -> str:
    """The FTS5 expression of one query word as search's rule 1 accepts it: the word (or its
    stem) in any field, a prefix in a field of weight >= 2, a typo in a field of weight >= 3."""
    from orkestra.retrieval import lexical

    prefix = lexical.quote(word) + "*" if len(word) >= PREFIX_MIN_LEN else ""
    typos = lexical.any_of(lexical.quote(t) for t in sorted(fuzzy))
    return lexical.any_of(
        [
            lexical.quote(word),
            lexical.in_columns(PREFIX_COLUMNS, prefix),
            lexical.in_columns(TYPO_COLUMNS, typos),
        ]
    )


@dataclass
class _Query:
    """A query prepared for the retrievers: its words, their FTS5 groups and expansions."""

    words: list[str]
    groups: list[str]
    fuzzy: list[dict[str, float]]
    expansions: list[str]
    #: per word: the FTS5 expression of its synonyms ("" when it has none)
    synonyms: list[str]


def _prepare(corpus: Corpus, query: str, words: list[str]) -> _Query:
    from orkestra.retrieval import lexical
    from orkestra.search import synonyms

    fuzzy = [_neighbours(corpus, w) for w in words]
    groups = [_group(w, f) for w, f in zip(words, fuzzy, strict=True)]
    said = tokens(query)
    found = synonyms.expand_at(said)
    expansions = list(dict.fromkeys(lexical.quote(" ".join(m)) for _, ms in found for m in ms))
    # a word's synonyms: those of every member found over it (`signed out` credits `signed`)
    per_word = []
    for word in words:
        at = {i for i, w in enumerate(said) if w == word}
        members = [m for span, ms in found if at.intersection(span) for m in ms]
        per_word.append(lexical.any_of(dict.fromkeys(lexical.quote(" ".join(m)) for m in members)))
    return _Query(words, groups, fuzzy, expansions, per_word)


def _relaxable(words: Sequence[str]) -> bool:
    """Whether a query may be relaxed: not an identifier (`DEC-SR-002`: up to 3 words, one of
    them a number), which names one entry or none."""
    return len(words) > 1 and not (len(words) <= 3 and any(w.isdigit() for w in words))


def _coverage(corpus: Corpus, prepared: _Query, pool: list[int]) -> dict[int, float]:
    """IDF-weighted share of the query's words each document of `pool` matches (a synonym: half)."""
    from orkestra.retrieval import lexical

    total = corpus.size()
    weights = [lexical.idf(total, corpus.match_frequency(g)) for g in prepared.groups]
    credit: dict[int, dict[int, float]] = {ref: {} for ref in pool}
    for index, (group, syn) in enumerate(zip(prepared.groups, prepared.synonyms, strict=True)):
        if syn:
            for ref in corpus.match_within(syn, pool):
                credit[ref][index] = SYNONYM_CREDIT
        for ref in corpus.match_within(group, pool):
            credit[ref][index] = 1.0
    return {ref: lexical.coverage(matched, weights) for ref, matched in credit.items()}


def rank(
    corpus: Corpus,
    query: str,
    filters: Filters | None = None,
    limit: int | None = None,
    *,
    retrievers: Sequence[str] | None = None,
) -> Ranking:
    """Hits for `query` (best first, at most `limit`) and the counts per type (docs/search.md).

    A document is a hit when it matches every word (rule 1 of `scoring`); when none does, the
    query is relaxed: documents matching some of its words or their synonyms, ranked by how much
    of the query they cover. Hits are ordered by the retrievers' ranked lists fused with weighted
    reciprocal rank fusion (`orkestra.retrieval.fusion`); `retrievers` keeps only those named
    (for measurements). An exact id or name match ranks first; a note that its last
    `notes check` found contradicted ranks below every other hit and carries that outcome (§8.2).
    A query without words but with a filter lists what the filter accepts.
    """
    keep = filters or Filters()
    words = query_words(query)
    if not words:
        if keep.on_attrs:
            return _filtered(corpus, keep, limit)
        return Ranking([], dict.fromkeys(TYPES, 0))
    from orkestra.retrieval import lexical

    prepared = _prepare(corpus, query, words)
    strict = lexical.all_of(prepared.groups)
    exact = corpus.exact(exact_key(query))
    counts = dict.fromkeys(TYPES, 0)
    coverage: dict[int, float] | None = None
    whole = limit is None or keep.on_attrs
    top = None if whole else max(POOL, 2 * (limit or 0))
    pool = corpus.match_all(prepared.groups, keep.types, top)
    if pool or exact:
        if whole:
            matched = set(pool)
        else:
            counts.update(corpus.match_all_counts(prepared.groups, keep.types))
            matched = set(corpus.match_within(strict, exact)) if exact else set()
        pool += [ref for ref in exact if ref not in set(pool)]
    elif _relaxable(words):  # relaxed: the best-covering subsets of the words (and synonyms)
        anything = [*prepared.groups, *prepared.expansions]
        pool = corpus.match_any(anything, keep.types, RELAXED_POOL)
        coverage = _coverage(corpus, prepared, pool)
        best = max(coverage.values(), default=0.0)
        pool = [ref for ref in pool if coverage[ref] >= RELAXED_SHARE * best and coverage[ref] > 0]
        whole = True
        matched = set()
    else:
        return Ranking([], counts)
    entries = corpus.entries(pool, keep.types, keep.on_attrs)
    if keep.on_attrs:
        pool = [ref for ref in pool if ref in entries and keep.accepts(entries[ref])]
    else:
        pool = [ref for ref in pool if ref in entries]
    if whole:
        for ref in pool:
            counts[entries[ref].type] = counts.get(entries[ref].type, 0) + 1
    else:
        for ref in exact:
            if ref in entries and ref not in matched:
                counts[entries[ref].type] = counts.get(entries[ref].type, 0) + 1
    found = _gather(corpus, words, prepared.fuzzy, set(pool))
    if coverage is not None:  # the relaxed pool came with the synonyms: rank the words alone
        inside = set(pool)
        by_words = [
            ref
            for ref in corpus.match_any(prepared.groups, keep.types, RELAXED_POOL)
            if ref in inside
        ]
    else:
        by_words = pool  # already best `bm25()` first
    fused = _fuse(corpus, query, prepared, pool, entries, found, retrievers, by_words)
    outcomes = note_outcomes(corpus, {ref: entries[ref] for ref in pool}, keep.on_attrs)
    exact_set = set(exact)
    ordered = []
    for ref in pool:
        entry = entries[ref]
        value = fused.get(ref, 0.0) * SCORE_SCALE * _standing(entry)
        if coverage is not None:
            value *= coverage[ref]
        if ref in exact_set:
            value += EXACT_ID_BONUS
        demoted = outcomes.get(ref) == CONTRADICTED
        order = _TYPE_ORDER.get(entry.type, len(TYPES))
        ordered.append((demoted, -round(value, 6), order, entry.id, entry.path, entry.line, ref))
    best_first = sorted(ordered) if limit is None else heapq.nsmallest(limit, ordered)
    titles = corpus.titles(item[6] for item in best_first)
    empty: FieldMatches = {}
    hits = []
    for _demoted, neg, _order, _ident, _path, _line, ref in best_first:
        entry = entries[ref]
        fields = tuple(matched_fields(found.get(ref, empty), entry.names))
        title = titles.get(ref, entry.id)
        status = outcomes.get(ref)
        hits.append(Hit(entry.type, entry.id, title, -neg, fields, entry.path, entry.line, status))
    return Ranking(hits, counts)


def _fuse(
    corpus: Corpus,
    query: str,
    prepared: _Query,
    pool: list[int],
    entries: dict[int, Entry],
    found: dict[int, FieldMatches],
    only: Sequence[str] | None,
    ranked_pool: list[int],
) -> dict[int, float]:
    """The fused score of each document of `pool` (weighted RRF over the retrievers' lists)."""
    from orkestra.retrieval import fusion, lexical, names, semantic
    from orkestra.retrieval.fusion import Hit as Ranked

    def hit(ref: int) -> Ranked:
        entry = entries[ref]
        return Ranked(str(ref), entry.path, entry.line, kind=entry.type)

    inside = set(pool)
    words = prepared.words
    empty: FieldMatches = {}

    def identity(ref: int) -> tuple[int, str, str, int]:
        entry = entries[ref]
        return (_TYPE_ORDER.get(entry.type, len(TYPES)), entry.id, entry.path, entry.line)

    def field_score(ref: int) -> float:
        return score(found.get(ref, empty), entries[ref].weights, len(words), False)

    by_fields = sorted(pool, key=lambda ref: (-field_score(ref), identity(ref)))
    lists: dict[str, list[Ranked]] = {
        "fields": [hit(ref) for ref in by_fields],
        "bm25": [hit(ref) for ref in ranked_pool],
    }
    if prepared.expansions:
        expanded = corpus.match_all([lexical.any_of(prepared.expansions)], (), POOL)
        lists["synonyms"] = [hit(ref) for ref in expanded if ref in inside]
    ids = {str(ref): entries[ref].id for ref in pool}
    lists["names"] = [hit(int(key)) for key, _ in names.rank(" ".join(words), ids, POOL)]
    model = semantic.embedder()
    if model is not None:
        titles = corpus.titles(pool)
        texts = {str(ref): f"{entries[ref].id} {titles.get(ref, '')}" for ref in pool}
        lists["semantic"] = semantic.rank(model, query, texts, {str(r): hit(r) for r in pool})
    if only is not None:
        lists = {name: ranked for name, ranked in lists.items() if name in only}
    weights = fusion.renormalise(FUSION_WEIGHTS, lists)
    fused = fusion.weighted_rrf(lists, weights, demote=_never, boosts=BOOSTS)
    return {int(h.key): h.score for h in fused}


def _standing(entry: Entry) -> float:
    """A document's weights against its kind's (a note neither read nor verified for long has
    its weights halved, `knowledge_docs`): its fused score is scaled the same way."""
    nominal = max(WEIGHTS.get(entry.type, {}).values(), default=0.0)
    if nominal <= 0 or not entry.weights:
        return 1.0
    return min(max(entry.weights) / nominal, 1.0)


def _never(_path: str) -> bool:
    return False
