"""The intent classifier of `code search` and its weight profiles (PRODUCT.md §12).

Ordered heuristics, first match wins. Each intent weighs the retrievers (semantic, text,
structural, graph); at confidence >= 0.85 the query goes straight to the dominant retriever.
"""

from __future__ import annotations

import re
from typing import NamedTuple

DIRECT_AT = 0.85

PROFILES: dict[str, dict[str, float]] = {
    "find_definition": {"semantic": 0.2, "text": 0.1, "structural": 0.6, "graph": 0.1},
    "find_references": {"semantic": 0.1, "text": 0.2, "structural": 0.2, "graph": 0.5},
    "understand_code": {"semantic": 0.5, "text": 0.2, "structural": 0.2, "graph": 0.1},
    "find_similar": {"semantic": 0.4, "text": 0.3, "structural": 0.2, "graph": 0.1},
    "impact_analysis": {"semantic": 0.1, "text": 0.1, "structural": 0.1, "graph": 0.7},
    "exact_match": {"semantic": 0.0, "text": 0.9, "structural": 0.1, "graph": 0.0},
}

_DEFINITION = re.compile(r"^\s*(def|class|func|import)\s+", re.IGNORECASE)
_REFERENCES = re.compile(r"\b(who calls|usages of|references to)\b", re.IGNORECASE)
_IMPACT = re.compile(r"\b(impact|blast radius|what depends on)\b", re.IGNORECASE)
#: a quoted string: double quotes, backticks, or single quotes that are not apostrophes (the
#: `'` of "the agent's file" follows a letter)
_QUOTED = re.compile(r"\"[^\"]+\"|(?<!\w)'[^']+'(?!\w)|`[^`]+`")
#: a query asks for an exact match when, its quoted string aside, it has at most this many words
#: (`"not a git repository"`, `where is "x" logged`); in a longer sentence the quotes only mark
#: a name (`fix: a Codex agent without `sandbox_mode` renders ...`)
QUOTE_CONTEXT_WORDS = 4
#: the shortest quoted string looked for as a phrase (FTS5 trigram: three characters)
MIN_PHRASE = 3
_ERROR = re.compile(
    r"Traceback \(most recent call last\)|File \"[^\"]+\", line \d+|\b\w+(Error|Exception)\b:"
    r"|^\s*at [\w.$<>]+\(|\bpanic:|\bE\d{3,4}\b"
)
#: `loadConfig`, `RenderPlan`, and one led by an acronym (`JSONDecoder`, `IOError`)
_CAMEL = re.compile(
    r"\b[A-Z]?[a-z0-9]+(?:[A-Z][a-z0-9]*)+\b|\b[A-Z][a-z0-9]+[A-Z]\w*\b"
    r"|\b[A-Z]{2,}[a-z]{2}\w*\b"
)
_SNAKE = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b|\b_[a-z]\w*\b")
_UNDERSTAND = re.compile(r"\b(how|why|explain|architecture)\b", re.IGNORECASE)


class Intent(NamedTuple):
    """What a query asks for and how sure the classifier is."""

    name: str
    confidence: float


def classify(query: str) -> Intent:
    """The intent of a code search query (first matching heuristic wins)."""
    if _DEFINITION.search(query):
        return Intent("find_definition", 0.95)
    if _REFERENCES.search(query):
        return Intent("find_references", 0.90)
    if _IMPACT.search(query):
        return Intent("impact_analysis", 0.90)
    if _ERROR.search(query):  # before quotes: a traceback line quotes its file name
        return Intent("exact_match", 0.85)
    if _quoted(query) is not None:
        return Intent("exact_match", 0.90)
    words = query.split()
    if _CAMEL.search(query) or _SNAKE.search(query):
        return Intent("find_definition", 0.80 if len(words) == 1 else 0.60)
    if _UNDERSTAND.search(query):
        return Intent("understand_code", 0.75)
    return Intent("understand_code", 0.40)


def subject(query: str) -> str:
    """The query without the words that only named the intent (`def`, `who calls`, quotes)."""
    text = _DEFINITION.sub("", query)
    text = _REFERENCES.sub(" ", text)
    text = _IMPACT.sub(" ", text)
    quoted = _quoted(text)
    if quoted is not None:
        return quoted.group(0)[1:-1]
    return " ".join(text.replace("?", " ").split())


def _quoted(query: str) -> re.Match[str] | None:
    """The query's quoted string when the query is about it (few other words), else None. A
    quote of fewer than `MIN_PHRASE` characters (`JSONDecoder("x")`) is none: the trigram text
    index cannot find it, and the query's other words are what it asks for."""
    found = next((m for m in _QUOTED.finditer(query) if len(m.group(0)) - 2 >= MIN_PHRASE), None)
    if found is None:
        return None
    rest = f"{query[: found.start()]} {query[found.end() :]}".split()
    return found if len(rest) <= QUOTE_CONTEXT_WORDS else None
