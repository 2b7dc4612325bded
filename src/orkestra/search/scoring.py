"""The search score: the one place the ranking formula lives (also described in docs/search.md).

Notation: the query's words are `w1..wn` (`text.query_words`: distinct tokens, stop words dropped
unless nothing else remains). A document has fields `f` with weights `W(f)` (PRODUCT.md §7, see
`weights.py`) and each field is a list of tokens `t` (`text.tokens`).

1. Word-to-token quality `m(w, t)`:
   - exact (`t == w`): 1.0
   - prefix (`t` starts with `w`, `len(w) >= 3`): 0.75
   - fuzzy (both alphabetic, `len(w) >= 4`, rapidfuzz `fuzz.ratio(w, t) >= 80`): 0.6 x ratio/100,
     so at most 0.6 (always below a prefix match) and at least 0.48
2. Word-to-field quality `M(w, f) = max over t in f of m(w, t)`.
3. Per word: `best(w) = max_f W(f)·M(w, f)` and `support(w) = sum_f W(f)·M(w, f) - best(w)`.
4. `relevance = (sum_w best(w) + 0.1 · sum_w support(w)) / n`: the strongest field counts in
   full, further fields that also match add a tenth of their weight.
5. `coverage = (number of words with best(w) > 0) / n`; multi-word queries therefore reward
   documents that match more of the words. (Which documents are hits at all, and the relaxation
   when none matches every word, is `rank`'s; docs/search.md.)
6. Same-field bonus (n >= 2): `0.5 · max W(f)` over the fields matching every word.
7. `score = coverage · relevance + same-field bonus (+ 100 when the query's tokens are exactly
   the id's or name's tokens: `dec-pl-142` is `DEC-PL-142`)`, so an exact id or name match
   always ranks first.
8. This is the `fields` retriever's score: `rank` fuses its order with the other retrievers'
   (weighted reciprocal rank fusion, `orkestra.retrieval.fusion`); the match rule of
   `rank._group` decides what is a hit.
9. Ties: higher score first (compared at 6 decimals), then the type order of `document.TYPES`,
   then id, path and line, so the order is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from orkestra.retrieval import indel

EXACT = 1.0
PREFIX = 0.75
PREFIX_MIN_LEN = 3
FUZZY = 0.6
FUZZY_MIN_LEN = 4
FUZZY_MIN_RATIO = 80.0
#: the largest fuzzy pool scored without rapidfuzz (`fuzzy_terms`)
SMALL_POOL = 2000
SUPPORT = 0.1
SAME_FIELD = 0.5
EXACT_ID_BONUS = 100.0

#: per document: field index -> quality of each query word in that field (0.0 = no match)
FieldMatches = dict[int, list[float]]


def fuzzy_length_range(word: str) -> tuple[int, int]:
    """Token lengths that can reach FUZZY_MIN_RATIO against `word` (ratio <= 2·min/(a+b))."""
    size = len(word)
    return (2 * size + 2) // 3, (3 * size) // 2


def fuzzy_terms(word: str, pool: Sequence[str]) -> dict[str, float]:
    """Quality of each token of `pool` that is a typo-distance neighbour of `word`.

    The ratio is rapidfuzz's `fuzz.ratio`. A pool of at most `SMALL_POOL` terms (a small project's
    vocabulary) is scored by `retrieval.indel.ratio`, which gives the same values, so that a
    one-off `search` does not pay rapidfuzz's import (~8 ms); a larger pool, or a process that
    has rapidfuzz loaded already (the MCP server), uses rapidfuzz, which is faster per term."""
    if len(word) < FUZZY_MIN_LEN or not word.isalpha() or not pool:
        return {}
    if indel.preferred(len(pool), SMALL_POOL):
        scored = ((term, indel.ratio(word, term)) for term in pool)
        matches = [(term, ratio) for term, ratio in scored if ratio >= FUZZY_MIN_RATIO]
    else:
        from rapidfuzz import fuzz, process

        matches = [
            (term, ratio)
            for term, ratio, _ in process.extract(
                word, pool, scorer=fuzz.ratio, score_cutoff=FUZZY_MIN_RATIO, limit=None
            )
        ]
    found: dict[str, float] = {}
    for term, ratio in matches:
        if term != word and term.isalpha() and not term.startswith(word):
            found[term] = FUZZY * ratio / 100.0
    return found


def prefix_quality(word: str, term: str) -> float:
    """Quality of an exact or prefix match (0.0 when `term` is neither)."""
    if term == word:
        return EXACT
    if len(word) >= PREFIX_MIN_LEN and term.startswith(word):
        return PREFIX
    return 0.0


def score(matches: FieldMatches, weights: Sequence[float], words: int, exact_id: bool) -> float:
    """The formula of the module docstring for one document."""
    if words == 1:  # the common case, the same arithmetic without the per-word lists
        top = whole = 0.0
        for index in sorted(matches):
            weight = weights[index] if index < len(weights) else 0.0
            part = weight * matches[index][0]
            whole += part
            if part > top:
                top = part
        single = top + SUPPORT * (whole - top) if top > 0 else 0.0
        return round(single + EXACT_ID_BONUS if exact_id else single, 6)
    best = [0.0] * words
    total = [0.0] * words
    same_field = 0.0
    for index in sorted(matches):
        weight = weights[index] if index < len(weights) else 0.0
        qualities = matches[index]
        for i, quality in enumerate(qualities):
            value = weight * quality
            total[i] += value
            if value > best[i]:
                best[i] = value
        if words >= 2 and all(q > 0 for q in qualities) and weight > same_field:
            same_field = weight
    covered = sum(1 for b in best if b > 0)
    support = sum(t - b for t, b in zip(total, best, strict=True))
    relevance = (sum(best) + SUPPORT * support) / words if words else 0.0
    value = covered / words * relevance if words else 0.0
    value += SAME_FIELD * same_field
    if exact_id:
        value += EXACT_ID_BONUS
    return round(value, 6)


def matched_fields(matches: FieldMatches, names: Sequence[str]) -> list[str]:
    """Names of the fields where some query word matched, in the document's field order."""
    return [names[i] for i in sorted(matches) if i < len(names) and any(q > 0 for q in matches[i])]


@dataclass(frozen=True)
class Hit:
    """One ranked result (`to_dict` gives the JSON shape of §7)."""

    type: str
    id: str
    title: str
    score: float
    matched_fields: tuple[str, ...]
    path: str
    line: int
    #: a note's last `notes check` outcome (confirmed|contradicted|ambiguous|unchecked), §8.2
    status: str | None = None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "type": self.type,
            "id": self.id,
            "title": self.title,
            "score": round(self.score, 3),
            "matched_fields": list(self.matched_fields),
            "path": self.path,
            "line": self.line,
        }
        if self.status is not None:
            out["status"] = self.status
        return out
