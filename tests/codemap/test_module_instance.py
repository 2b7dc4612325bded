"""A Python module-level `name = SomeClass(…)` gives `name` that class's type in the functions
that use it, as a local one does (`_default_decoder = JSONDecoder()` at the top of
`json/__init__.py`, then `_default_decoder.decode(s)` in `loads`): its member uses resolve to
the class's methods, certain, not guessed nor dropped as a built-in's `bytes.decode`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.codemap import api
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter

DEC = """class JSONDecoder:
    def decode(self, s):
        return s

    def parse(self, s):
        return s
"""
INIT = """from .dec import JSONDecoder

_default = JSONDecoder()


def loads(s):
    return _default.decode(s)


def loads2(s):
    return _default.parse(s)


def ledger():
    ledger = JSONDecoder()
    return ledger.parse("x")
"""


def _project(project: Path) -> Path:
    write(project, "pkg/dec.py", DEC)
    write(project, "pkg/__init__.py", INIT)
    git(project, "init", "-q")
    git(project, "add", "-A")
    return project


def _uses(root: Path, name: str) -> list[tuple[str, str | None, bool]]:
    refs = api.find_references(root, name)["references"]
    return [(r["location"], r["resolved"], r["guessed"]) for r in refs]


def test_a_module_level_instance_types_its_uses_in_functions(project: Path) -> None:
    root = _project(project)
    assert _uses(root, "JSONDecoder.decode") == [("pkg/__init__.py:7", "pkg/dec.py:2", False)]
    assert _uses(root, "JSONDecoder.parse") == [
        ("pkg/__init__.py:11", "pkg/dec.py:5", False),
        ("pkg/__init__.py:16", "pkg/dec.py:5", False),
    ]


def test_code_refs_lists_the_use_through_a_module_level_instance(cli: Any, project: Path) -> None:
    root = _project(project)
    out = cli("code", "refs", "JSONDecoder.decode", cwd=root).json()
    assert [(r["location"], r["resolved"]) for r in out["references"]] == [
        ("pkg/__init__.py:7", "pkg/dec.py:2")
    ]
