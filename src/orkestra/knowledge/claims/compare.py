"""Comparing a new statement with existing claims: fuzzy similarity plus a polarity check.

Similarity is rapidfuzz's token-sort ratio (0–100) of the statements with negations and filler
words removed, so "X is not Y" and "X is Y" look alike and the polarity check tells them apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

REINFORCED_AT = 90.0
CONTRADICTS_AT = 80.0
SIMILAR_AT = 65.0

_NEGATIONS = {
    "not", "no", "never", "none", "nothing", "neither", "nor", "without", "cannot",
    "dont", "doesnt", "isnt", "arent", "wasnt", "werent", "wont", "shouldnt", "mustnt",
    "cant", "didnt", "hasnt", "havent", "wouldnt", "couldnt", "avoid",
}  # fmt: skip
#: words whose opposite is a negation of a canonical word
_ANTONYMS = {"disabled": "enabled", "disable": "enable", "false": "true", "forbidden": "allowed",
             "optional": "required", "unsafe": "safe", "slow": "fast", "fails": "works",
             "deprecated": "supported", "async": "sync"}  # fmt: skip
_FILLER = {"always", "the", "a", "an", "really", "actually", "do", "does", "be"}


@dataclass(frozen=True)
class Shape:
    """A statement reduced to its content words and its polarity (True = affirmative)."""

    words: str
    positive: bool


def shape(statement: str) -> Shape:
    """Content words (negations stripped, antonyms folded) and the polarity they imply."""
    text = statement.lower().replace("n't", "nt").replace("can not", "cannot")
    negative = False
    words = []
    for word in re.findall(r"[a-z0-9_.]+", text.replace("'", "")):
        if word in _NEGATIONS:
            negative = not negative
        elif word in _ANTONYMS:
            negative = not negative
            words.append(_ANTONYMS[word])
        elif word not in _FILLER:
            words.append(word)
    return Shape(" ".join(words), not negative)


def similarity(a: Shape, b: Shape) -> float:
    """0–100: how alike the content of two statements is, regardless of polarity."""
    from rapidfuzz import fuzz

    return round(float(fuzz.token_sort_ratio(a.words, b.words)), 1)


def classify(new: Shape, old: Shape) -> tuple[str, float]:
    """NEW | REINFORCED | SIMILAR | CONTRADICTS for a new statement against one claim."""
    score = similarity(new, old)
    if new.positive != old.positive and score >= CONTRADICTS_AT:
        return "CONTRADICTS", score
    if new.positive == old.positive and score >= REINFORCED_AT:
        return "REINFORCED", score
    if score >= SIMILAR_AT:
        return "SIMILAR", score
    return "NEW", score
