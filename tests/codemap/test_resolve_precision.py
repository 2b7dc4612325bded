"""False Python reference edges found by benchmarks/bench_refs.py (jedi as the oracle) on real code:
a built-in type's method on a receiver of unknown type is not a namesake class's method in the
map, `super()` never means the enclosing class's own member, and a name constructed from a class
reaches that class's (and its bases') members."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from orkestra.codemap import api, store
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter

MODELS = """class Message:
    def items(self):
        return []

    def get(self, key):
        return self.items()

    def join(self, other):
        return other


class Ledger:
    def add(self, entry):
        return entry

    def total(self):
        return 0


class Audited(Ledger):
    def add(self, entry):
        return super().add(entry)

    def total(self):
        return super(Audited, self).total()


class Plain(Ledger):
    pass
"""

USE = """from app.models import Audited, Ledger, Plain


def render(data, parts):
    pairs = data.items()
    label = ", ".join(parts)
    return label, pairs, data.get("k")


def book():
    ledger = Ledger()
    ledger.add(1)
    audited = Audited()
    audited.total()
    plain = Plain()
    plain.total()
    return ledger.total()
"""


@pytest.fixture
def edges(project: Path) -> dict[tuple[str, str], str | None]:
    """`path:line name` -> the resolved definition's qualified name (None: unresolved)."""
    write(project, "src/app/models.py", MODELS)
    write(project, "src/app/use.py", USE)
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "init")
    api.index(project)
    with sqlite3.connect(store.map_path(project)) as conn:
        rows = conn.execute(
            "SELECT f.path, r.line, r.name, s.qualname FROM refs r JOIN files f ON f.id = r.file_id"
            " LEFT JOIN symbols s ON s.id = r.target"
        ).fetchall()
    return {(f"{path}:{line}", name): qual for path, line, name, qual in rows}


def test_a_builtin_types_method_on_an_unknown_receiver_is_no_class_of_the_map(
    edges: dict[tuple[str, str], str | None],
) -> None:
    assert edges[("src/app/use.py:5", "items")] is None  # a dict's, not Message.items
    assert edges[("src/app/use.py:6", "join")] is None  # str.join
    assert edges[("src/app/use.py:7", "get")] is None
    assert edges[("src/app/models.py:6", "items")] == "Message.items"  # self.items() still is


def test_super_means_a_base_member_never_the_class_own(
    edges: dict[tuple[str, str], str | None],
) -> None:
    assert edges[("src/app/models.py:22", "add")] == "Ledger.add"
    assert edges[("src/app/models.py:25", "total")] == "Ledger.total"  # super(Audited, self)


def test_a_name_constructed_from_a_class_reaches_its_members_and_its_bases(
    edges: dict[tuple[str, str], str | None],
) -> None:
    assert edges[("src/app/use.py:12", "add")] == "Ledger.add"  # `add` is also a set's
    assert edges[("src/app/use.py:14", "total")] == "Audited.total"
    assert edges[("src/app/use.py:16", "total")] == "Ledger.total"  # inherited by Plain
    assert edges[("src/app/use.py:17", "total")] == "Ledger.total"
