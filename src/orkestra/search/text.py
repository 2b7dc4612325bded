"""Tokens: the one definition of a word, shared by documents, queries and the index."""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[^\W_]+")

#: query words ignored unless the query holds nothing else: English function words (articles,
#: pronouns, auxiliaries, question words; the core of the usual stop-word lists) that match nearly
#: every entry and say nothing about what is asked, and the filler verbs of a question asked in
#: plain words ("we need", "keeps getting")
STOPWORDS = frozenset(
    """a an and are as at be by for from in is it of on or that the this to was with
    i me my myself we our ours us you your yours he him his she her it its they them their
    what which who whom whose when where why how these those am were been being have has had
    having do does did doing can could would should will shall may might must
    some any each few more most other such no nor not only own same so than too very just now
    all both into through during before after above below up down out off over under again
    further then once here there about against between because until while if
    get gets got getting keep keeps need needs want wants please every really""".split()  # noqa: SIM905
)


def tokens(text: str) -> list[str]:
    """Lower-cased runs of letters and digits, in order (NFKC, casefolded).

    Everything else separates words, so `DEC-PL-142` is `dec pl 142` and
    `schema-migration-workflow` is `schema migration workflow`.
    """
    if text.isascii():
        return _WORD.findall(text.lower())
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def query_words(query: str) -> list[str]:
    """Distinct query words in order; stop words dropped unless nothing else remains."""
    words = list(dict.fromkeys(tokens(query)))
    kept = [w for w in words if w not in STOPWORDS]
    return kept or words


def exact_key(text: str) -> str:
    """The form in which a query and an id are compared for an exact match: the token sequence,
    so `dec-pl-142`, `DEC PL 142` and `DEC-PL-142` are the same id, and `search patterns` names the
    domain file `search/patterns`."""
    return " ".join(tokens(text))
