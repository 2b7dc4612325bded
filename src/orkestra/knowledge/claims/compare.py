"""Comparing a new statement with existing claims: fuzzy similarity plus a polarity check.

Similarity is rapidfuzz's token-sort ratio (0–100) of the statements with negations and filler
words removed, so "X is not Y" and "X is Y" look alike and the polarity check tells them apart.
The check is per word: a negation denies the first content word after it (past verbs such as
"use" or "be installed with"), an antonym denies its canonical word, `non-` denies the word it
prefixes ("non-admin users"), every other content word is affirmed. Two alike statements contradict when a word they share is affirmed in one and denied in
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
#: words a negation reaches past to the word it denies ("never use npm", "not be installed with"),
#: and words too common to carry a side ("in this repo")
_REACH = {
    "use", "using", "used", "be", "been", "being", "is", "are", "was", "were", "get", "got",
    "install", "installed", "installing", "run", "ran", "running", "call", "called", "calling",
    "with", "by", "for", "to", "of", "in", "on", "at", "via", "through", "from", "into",
    "the", "a", "an", "any", "ever", "always", "only", "just", "should", "must", "can", "will",
    "need", "needs", "rely", "relies", "depend", "depends", "do", "does", "have", "has", "it",
    "this", "that", "these", "those", "here", "there", "repo", "repository", "project", "code",
    "we", "you", "our", "your", "its", "their", "and", "or", "so", "when", "if", "then",
}  # fmt: skip
#: two-word negations of the word after them ("pnpm instead of npm")
_NEGATING_PAIRS = {("instead", "of"), ("rather", "than")}
#: below this similarity two statements are about different things, whatever their signs
CROSSED_AT = 60.0
#: number words, read as their digits ("three times" says what "3 times" says)
_ONES = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
)  # fmt: skip
_NUMBER_WORDS = {word: str(n) for n, word in enumerate(_ONES)} | {"twice": "2", "thrice": "3", "thirty": "30", "forty": "40", "fifty": "50", "sixty": "60",
     "hundred": "100", "thousand": "1000"}  # fmt: skip
#: units a quantity is written with, by their one spelling ("30 seconds" is "30s", "500 ms" "500ms")
_UNITS = {
    "s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s",
    "ms": "ms", "msec": "ms", "millisecond": "ms", "milliseconds": "ms",
    "min": "min", "mins": "min", "minute": "min", "minutes": "min",
    "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h", "d": "d", "day": "d", "days": "d",
    "kb": "kb", "mb": "mb", "gb": "gb", "tb": "tb", "kib": "kib", "mib": "mib", "gib": "gib",
}  # fmt: skip
#: words around "one" that make it a pronoun ("each one", "the one", "one of them"), no count
_ONE_AFTER = {"each", "the", "this", "that", "which", "any", "every", "another", "no", "some"}
_ONE_BEFORE = {"of", "another"}


@dataclass(frozen=True)
class Shape:
    """A statement reduced to its content words and its polarity (True = affirmative), the words
    it denies and affirms (a word both denied and affirmed in one statement is in neither), and
    whether it denies a word by an explicit negation (a choice: "X, not Y"), not an antonym only."""

    words: str
    positive: bool
    denied: frozenset[str] = frozenset()
    affirmed: frozenset[str] = frozenset()
    chooses: bool = False
    #: the quantities it states ("3", "30s", "3.11"): two statements giving different ones
    #: conflict, however alike their words
    numbers: frozenset[str] = frozenset()


def _stem(word: str) -> str:
    """One spelling for a word's inflections: `quote`, `quotes`, `quoted` and `quoting` are all
    `quot` (a verb ending in `e` loses it as its inflections do), `retries` is `retry`."""
    if len(word) > 4 and word.endswith(("ies", "ied")):  # retries, retried: retry
        return word[:-3] + "y"
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    if len(word) > 4 and word.endswith("e"):
        return word[:-1]  # quote: quot, as quotes and quoted are
    return word


def shape(statement: str) -> Shape:
    """Content words (negations stripped, antonyms folded), the polarity they imply, and the
    words denied and affirmed. A negation denies the first content word after it in its clause
    (punctuation ends a clause)."""
    text = statement.lower().replace("n't", "nt").replace("can not", "cannot")
    text = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)  # 1,000 is 1000
    tokens = re.findall(r"[a-z0-9_]+(?:\.[a-z0-9_]+)*|[,;:!?()]|\.(?=\s|$)", text.replace("'", ""))
    negative = chooses = pending = prefixed = False
    words: list[str] = []
    denied: set[str] = set()
    affirmed: set[str] = set()
    numbers: set[str] = set()
    for index, word in enumerate(tokens):
        quantity = _quantity(tokens, index)
        if quantity is not None:
            numbers.add(quantity)
        word = _NUMBER_WORDS.get(word, word)
        if not (word[0].isalnum() or word[0] == "_"):
            pending = False  # a clause ends: a negation denies nothing beyond it
            continue
        after = tokens[index + 1] if index + 1 < len(tokens) else ""
        if word == "non" and after[:1].isalnum():  # non-idempotent: `idempotent` denied
            prefixed = True
            continue
        if prefixed:  # the word after `non-`: a side, as an antonym is ("non-admin users")
            negative, prefixed = not negative, False
            denied.add(_stem(word))
            words.append(word)
            continue
        if word in _NEGATIONS or (word, after) in _NEGATING_PAIRS:
            negative, pending = not negative, True
            continue
        if (tokens[index - 1] if index else "", word) in _NEGATING_PAIRS:
            continue  # the "of" of "instead of"
        if word in _ANTONYMS:
            negative = not negative
            word = _ANTONYMS[word]
            denied.add(_stem(word))
        elif pending and word not in _REACH:
            denied.add(_stem(word))
            chooses, pending = True, False
        elif word not in _REACH:
            affirmed.add(_stem(word))
        if word not in _FILLER:
            words.append(word)
    both = denied & affirmed
    return Shape(
        " ".join(words),
        not negative,
        frozenset(denied - both),
        frozenset(affirmed - both),
        chooses,
        frozenset(numbers),
    )


def _quantity(tokens: list[str], index: int) -> str | None:
    """The quantity token `index` states, in one spelling (a number word as its digits, its unit
    attached and spelled one way: "30 seconds", "30 s" and "30s" are "30s"), or None."""
    word = tokens[index]
    before = tokens[index - 1] if index else ""
    after = tokens[index + 1] if index + 1 < len(tokens) else ""
    if word == "one" and (before in _ONE_AFTER or after in _ONE_BEFORE):
        return None  # a pronoun: "each one", "one of them"
    word = _NUMBER_WORDS.get(word, word)
    if not word[0].isdigit():
        return None
    parts = re.fullmatch(r"(\d+(?:\.\d+)*)([a-z]*)", word)
    if parts is None:
        return word
    number, unit = parts.groups()
    if not unit:
        unit = _UNITS.get(after, "")
    return number + _UNITS.get(unit, unit)


def crossed(a: Shape, b: Shape) -> list[str]:
    """Words one statement affirms and the other denies."""
    return sorted((a.denied & b.affirmed) | (a.affirmed & b.denied))


def similarity(a: Shape, b: Shape) -> float:
    """0–100: how alike the content of two statements is, regardless of polarity."""
    from rapidfuzz import fuzz

    return round(float(fuzz.token_sort_ratio(a.words, b.words)), 1)


def classify(new: Shape, old: Shape) -> tuple[str, float]:
    """NEW | REINFORCED | SIMILAR | CONTRADICTS for a new statement against one claim.

    CONTRADICTS: both make a choice and a word changes sides ("use npm, not pnpm" against "use
    pnpm, not npm"), or a word changes sides and the polarity differs ("X is safe" against "X
    isn't safe"), or both give a quantity and the quantities differ ("retries 3 times" against
    "retries five times"). REINFORCED needs the same polarity, no word on the other side, no
    other quantity and no word swapped for another (`swapped`: that is SIMILAR)."""
    score = similarity(new, old)
    cross = crossed(new, old)
    if cross and score >= CROSSED_AT and new.chooses and old.chooses:
        return "CONTRADICTS", score
    if new.numbers and old.numbers and new.numbers != old.numbers:
        # "retries 3 times" against "retries 5 times": the same subject, another quantity
        return ("CONTRADICTS" if score >= CONTRADICTS_AT else _apart(score)), score
    if cross and new.positive != old.positive and score >= CONTRADICTS_AT:
        return "CONTRADICTS", score
    if score >= REINFORCED_AT and not cross and new.positive == old.positive:
        # one word swapped for another ("stdout" for "stderr"): alike, but maybe not the same
        return ("SIMILAR" if swapped(new, old) else "REINFORCED"), score
    return _apart(score), score


def swapped(a: Shape, b: Shape) -> bool:
    """Whether each statement has a content word the other lacks: one word (or more) replaced
    by another, which a fuzzy ratio over a long sentence still scores as the same fact."""
    words_a, words_b = _named(a.affirmed | a.denied), _named(b.affirmed | b.denied)
    return bool(words_a - words_b) and bool(words_b - words_a)


def _named(words: frozenset[str]) -> set[str]:
    """`words` without quantities and their units ("30s", "30", "s"): `numbers` compares them."""
    return {w for w in words if not w[0].isdigit() and w not in _UNITS}


def _apart(score: float) -> str:
    """SIMILAR or NEW: two statements that do not say the same fact, by how alike they are."""
    return "SIMILAR" if score >= SIMILAR_AT else "NEW"
