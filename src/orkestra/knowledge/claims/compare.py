"""Comparing a new statement with existing claims: fuzzy similarity plus a polarity check.

Similarity is rapidfuzz's token-sort ratio (0–100) of the statements with negations and filler
words removed, so "X is not Y" and "X is Y" look alike and the polarity check tells them apart.
The check is per word: a negation denies the first content word after it (past verbs such as
"use" or "be installed with"), an antonym denies its canonical word, every other content word is
affirmed. Two alike statements contradict when a word they share is affirmed in one and denied in
the other: "use pnpm, not npm" against "use npm, not pnpm" (same words, same number of
negations), or against "the frontend must not be installed with pnpm".
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
#: words a negation reaches past to the word it denies ("never use npm", "not be installed with")
_REACH = {
    "use", "using", "used", "be", "been", "being", "is", "are", "was", "were", "get", "got",
    "install", "installed", "installing", "run", "ran", "running", "call", "called", "calling",
    "with", "by", "for", "to", "of", "in", "on", "via", "through", "from", "into",
    "the", "a", "an", "any", "ever", "always", "only", "just", "should", "must", "can", "will",
    "need", "needs", "rely", "relies", "depend", "depends", "do", "does", "have", "has", "it",
}  # fmt: skip
#: below this similarity two statements are about different things, whatever their signs
CROSSED_AT = 60.0


@dataclass(frozen=True)
class Shape:
    """A statement reduced to its content words and its polarity (True = affirmative), and the
    words it denies (a word both denied and affirmed in one statement is in neither set)."""

    words: str
    positive: bool
    denied: frozenset[str] = frozenset()
    affirmed: frozenset[str] = frozenset()


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def shape(statement: str) -> Shape:
    """Content words (negations stripped, antonyms folded), the polarity they imply, and the
    words denied and affirmed."""
    text = statement.lower().replace("n't", "nt").replace("can not", "cannot")
    negative = False
    words: list[str] = []
    denied: set[str] = set()
    affirmed: set[str] = set()
    pending = False  # a negation waits for the word it denies
    for word in re.findall(r"[a-z0-9_.]+", text.replace("'", "")):
        word = word.strip(".")
        if not word:
            continue
        if word in _NEGATIONS:
            negative, pending = not negative, True
            continue
        if word in _ANTONYMS:
            negative = not negative
            word = _ANTONYMS[word]
            denied.add(_stem(word))
        elif pending and word not in _REACH:
            denied.add(_stem(word))
            pending = False
        elif word not in _REACH:
            affirmed.add(_stem(word))
        if word not in _FILLER:
            words.append(word)
    both = denied & affirmed
    return Shape(
        " ".join(words), not negative, frozenset(denied - both), frozenset(affirmed - both)
    )


def crossed(a: Shape, b: Shape) -> list[str]:
    """Words one statement affirms and the other denies."""
    return sorted((a.denied & b.affirmed) | (a.affirmed & b.denied))


def similarity(a: Shape, b: Shape) -> float:
    """0–100: how alike the content of two statements is, regardless of polarity."""
    from rapidfuzz import fuzz

    return round(float(fuzz.token_sort_ratio(a.words, b.words)), 1)


def classify(new: Shape, old: Shape) -> tuple[str, float]:
    """NEW | REINFORCED | SIMILAR | CONTRADICTS for a new statement against one claim."""
    score = similarity(new, old)
    if score >= CROSSED_AT and crossed(new, old):
        return "CONTRADICTS", score
    if new.positive != old.positive and score >= CONTRADICTS_AT and (new.denied or old.denied):
        return "SIMILAR", score  # a negation about something the other does not name
    if score >= REINFORCED_AT:
        return "REINFORCED", score
    if score >= SIMILAR_AT:
        return "SIMILAR", score
    return "NEW", score
