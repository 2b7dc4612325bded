"""The intent classifier's ordered heuristics and weight profiles (PRODUCT.md §12)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.codemap.intent import PROFILES, classify, subject
from orkestra.codemap.intent import subject as subject_of
from tests.codemap.conftest import needs_tree_sitter


@pytest.mark.parametrize(
    ("query", "intent", "confidence"),
    [
        ("def load_config", "find_definition", 0.95),
        ("class Engine", "find_definition", 0.95),
        ("func NewRepo", "find_definition", 0.95),
        ("import yaml", "find_definition", 0.95),
        ("who calls load_config", "find_references", 0.90),
        ("usages of Engine", "find_references", 0.90),
        ("references to the ledger", "find_references", 0.90),
        ("impact of changing find_root", "impact_analysis", 0.90),
        ("blast radius of safewrite", "impact_analysis", 0.90),
        ("what depends on core.git", "impact_analysis", 0.90),
        ('"not a git repository"', "exact_match", 0.90),
        ('File "x.py", line 3, in main', "exact_match", 0.85),
        ("ValueError: bad input", "exact_match", 0.85),
        ("load_config", "find_definition", 0.80),
        ("RenderPlan", "find_definition", 0.80),
        # CamelCase led by an acronym is CamelCase too
        ("JSONDecoder", "find_definition", 0.80),
        ("HTTPServer", "find_definition", 0.80),
        ("IOError", "find_definition", 0.80),
        ("where is XMLParser built", "find_definition", 0.60),
        ("URL", "understand_code", 0.40),  # an acronym alone is a word
        ("how are PRs merged", "understand_code", 0.75),
        ("where is load_config used", "find_definition", 0.60),
        ("how are registries rendered", "understand_code", 0.75),
        ("explain the ledger", "understand_code", 0.75),
        ("ledger coverage numbers", "understand_code", 0.40),
        ("where is `find_root` defined?", "exact_match", 0.90),  # quotes and a few words
        ("'single quoted words'", "exact_match", 0.90),
        # apostrophes are not quotes
        ("the agent's file and the user's lock", "understand_code", 0.40),
        # in a longer sentence, quotes only mark a name (a commit subject, a question)
        (
            "fix(import): a Codex agent without `sandbox_mode` renders back without one",
            "find_definition",
            0.60,
        ),
        (
            'why does sync refuse "edited since" files when the lock is fine',
            "understand_code",
            0.75,
        ),
    ],
)
def test_first_matching_heuristic_wins(query: str, intent: str, confidence: float) -> None:
    assert classify(query) == (intent, confidence)


def test_profiles_match_the_specification() -> None:
    order = ("semantic", "text", "structural", "graph")
    assert {k: tuple(v[o] for o in order) for k, v in PROFILES.items()} == {
        "find_definition": (0.2, 0.1, 0.6, 0.1),
        "find_references": (0.1, 0.2, 0.2, 0.5),
        "understand_code": (0.5, 0.2, 0.2, 0.1),
        "find_similar": (0.4, 0.3, 0.2, 0.1),
        "impact_analysis": (0.1, 0.1, 0.1, 0.7),
        "exact_match": (0.0, 0.9, 0.1, 0.0),
    }


def test_subject_drops_the_words_that_named_the_intent() -> None:
    assert subject("def load_config") == "load_config"
    assert subject("who calls Engine.start?") == "Engine.start"
    assert subject('find "exact words" here') == "exact words"


def test_subject_keeps_a_sentence_whose_quotes_only_mark_a_name() -> None:
    sentence = "a Codex agent without `sandbox_mode` renders back without one"
    assert subject(sentence) == sentence
    assert subject("where is `find_root` defined?") == "find_root"


@pytest.mark.parametrize(
    ("query", "intent", "subject"),
    [
        ('loadConfig("x")', "find_definition", 'loadConfig("x")'),
        ('JSONDecoder("x")', "find_definition", 'JSONDecoder("x")'),
        ("load_config('ab')", "find_definition", "load_config('ab')"),
        ('raise ValueError("bad")', "exact_match", "bad"),
    ],
)
def test_a_quote_too_short_to_look_for_is_not_the_query(
    query: str, intent: str, subject: str
) -> None:
    """The text index finds three characters or more: a quoted `"x"` in a call is no exact
    phrase to look for (it found nothing, though `loadConfig` is defined)."""
    assert (classify(query).name, subject_of(query)) == (intent, subject)


@needs_tree_sitter
def test_code_search_of_a_call_with_a_short_quote_finds_the_definition(
    cli: Any, code_project: Path
) -> None:
    out = cli("code", "search", 'load_config("x")', cwd=code_project).json()
    assert out["intent"] == "find_definition"
    assert out["results"][0]["location"] == "src/app/core.py:4"
