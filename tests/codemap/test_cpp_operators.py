"""C++ definitions whose declarator is wrapped or is an operator: a free `bool operator==(…)`,
`std::ostream& operator<<(…)`, an out-of-class `P& P::operator+=(…)` and `const int& P::get()`
(a reference or pointer return wraps the declarator) are defined, each under its class (not
`geo.get` for `P::get`), as `int P::plain()` is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.codemap import extract
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter

OPS = """namespace geo {
struct P {
    int x;
    P& operator+=(const P& o);
    const int& get() const;
    P* self();
    int plain() const;
};
P& P::operator+=(const P& o) { x += o.x; return *this; }
const int& P::get() const { return x; }
P* P::self() { return this; }
int P::plain() const { return x; }
bool operator==(const P& a, const P& b) { return a.x == b.x; }
std::ostream& operator<<(std::ostream& os, const P& p) { return os; }
P* operator&(P& p) { return &p; }
}
"""
EXPECTED = [
    ("geo", "namespace", 1),
    ("geo.P", "class", 2),
    ("geo.P.operator+=", "prototype", 4),
    ("geo.P.get", "prototype", 5),
    ("geo.P.self", "prototype", 6),
    ("geo.P.plain", "prototype", 7),
    ("geo.P.operator+=", "method", 9),
    ("geo.P.get", "method", 10),
    ("geo.P.self", "method", 11),
    ("geo.P.plain", "method", 12),
    ("geo.operator==", "function", 13),
    ("geo.operator<<", "function", 14),
    ("geo.operator&", "function", 15),
]


def test_wrapped_and_operator_declarators_are_definitions() -> None:
    facts = extract.extract("cpp", OPS.encode())
    assert sorted((s.qualname, s.kind, s.line) for s in facts.symbols) == sorted(EXPECTED)


def test_code_outline_lists_them(cli: Any, project: Path) -> None:
    write(project, "geo/p.cpp", OPS)
    git(project, "init", "-q")
    git(project, "add", "-A")
    out = cli("code", "outline", "geo/p.cpp", cwd=project)
    assert out.exit_code == 0
    assert [(s["qualname"], s["kind"], s["line"]) for s in out.json()["symbols"]] == EXPECTED
