"""Held-out extraction checks: fixtures written by a reviewer from each language's semantics,
not from the extractor's behaviour (the idioms that trip extractors: methods vs functions,
nested scopes, decorators, generics, overloads, re-exports, aliased imports, constructors,
static members, closures, trait implementations, macros, namespaces, operators).

Markers are the release gate's (`tests/codemap/gate.py`). Every expected definition and edge
must be found and nothing else may resolve, except the documented gaps in `GAPS`: each is
an `xfail(strict=True)` case naming why a tags-based extractor cannot (or should not) get it,
so the day it starts passing the suite says so.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from orkestra.codemap import indexer, store
from tests.codemap import gate
from tests.codemap.conftest import needs_tree_sitter

HELDOUT = Path(__file__).parent / "heldout"
LANGUAGES = sorted(p.name for p in HELDOUT.iterdir() if p.is_dir())

#: (language, "missing"|"unexpected", item) -> why it is left as it is
GAPS: dict[tuple[str, str, gate.Item], str] = {
    (
        "java",
        "missing",
        ("ref", "src/org/zoo/App.java", "24", "sound", "src/org/zoo/core/Dog.java", "Dog.sound"),
    ): "`d.sound()` on a local `Dog d`: the receiver's declared type is not in a tags index; "
    "the name resolves to the abstract Animal.sound (the override needs type inference)",
    (
        "java",
        "unexpected",
        ("ref", "src/org/zoo/App.java", "24", "sound", "src/org/zoo/core/Animal.java", "Animal.sound"),
    ): "the other half of the `d.sound()` case above",
    (
        "java",
        "missing",
        ("ref", "src/org/zoo/App.java", "24", "created", "src/org/zoo/core/Animal.java",
         "Animal.created"),
    ): "`import static ...Animal.created` names a member of a class; static imports are not "
    "bound to members (and `created` is both a field and a method there)",
    (
        "typescript",
        "unexpected",
        ("ref", "app/lib/shapes.ts", "41", "map", "app/lib/shapes.ts", "Box.map"),
    ): "`this.items.map(fn)` is Array.prototype.map; the field's element type is not known, so "
    "the one project method named `map` is taken",
    (
        "go",
        "missing",
        ("ref", "zoo/main.go", "15", "Speak", "zoo/animal/animal.go", "Speaker.Speak"),
    ): "`s.Speak()` with `s pets.Speaker`: two `Speak` (the interface's and Dog's), and the "
    "parameter's type is not in a tags index",
}  # fmt: skip

_MEASURED: dict[str, dict[str, Any]] = {}


def measure(language: str, work: Path) -> dict[str, Any]:
    """(want, got) for one held-out fixture, indexed once per session."""
    if language not in _MEASURED:
        root = work / language
        shutil.copytree(HELDOUT / language, root)
        want_defs, want_edges = gate.expected(root)
        indexer.index(root)
        conn = store.connect(root, create=False)
        try:
            got_defs, got_edges = gate.extracted(conn)
        finally:
            conn.close()
        _MEASURED[language] = {"want": want_defs | want_edges, "got": got_defs | got_edges}
    return _MEASURED[language]


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("heldout")


@needs_tree_sitter
@pytest.mark.parametrize("language", LANGUAGES)
def test_heldout_definitions_and_edges(language: str, work: Path) -> None:
    result = measure(language, work)
    want, got = result["want"], result["got"]
    missing = {i for i in want - got if (language, "missing", i) not in GAPS}
    unexpected = {i for i in got - want if (language, "unexpected", i) not in GAPS}
    assert not missing, f"{language}: missing {sorted(missing)}"
    assert not unexpected, f"{language}: unexpected {sorted(unexpected)}"
    for lang, side, item in GAPS:  # a gap names a real expectation (or a real non-one)
        if lang == language:
            assert (item in want) == (side == "missing"), f"stale gap {side} {item}"


@needs_tree_sitter
@pytest.mark.parametrize(
    ("language", "side", "item"),
    [
        pytest.param(*key, marks=pytest.mark.xfail(strict=True, reason=why))
        for key, why in GAPS.items()
    ],
    ids=[f"{k[0]}-{k[1]}-{k[2][1].rsplit('/', 1)[-1]}:{k[2][2]}-{k[2][3]}" for k in GAPS],
)
def test_documented_gap(language: str, side: str, item: gate.Item, work: Path) -> None:
    result = measure(language, work)
    if side == "missing":
        assert item in result["got"]
    else:
        assert item not in result["got"]
