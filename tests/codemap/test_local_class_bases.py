"""A superclass named by a class of the map is found even when a function elsewhere defines a
class of the same name for itself (`unittest`'s own tests define a local `TestCase`): a class
inside another file's function is that function's local, no base of anything outside it, so
`self.fail()` in a subclass of `unittest.TestCase` means `TestCase.fail`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.codemap import api
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter

CASE = """class TestCase:
    def fail(self, msg):
        raise AssertionError(msg)


class Reporter:
    def fail(self, msg):
        return msg
"""
LEAK = """def test_no_exception_leak():
    class TestCase:
        def run(self):
            return 1

    return TestCase().run()
"""
USE = """from pkg import case


class Foo(case.TestCase):
    def test_1(self):
        self.fail("no")
"""


def _project(project: Path) -> Path:
    write(project, "pkg/__init__.py", "")
    write(project, "pkg/case.py", CASE)
    write(project, "pkg/test_leak.py", LEAK)
    write(project, "pkg/test_use.py", USE)
    git(project, "init", "-q")
    git(project, "add", "-A")
    return project


def test_a_local_class_elsewhere_does_not_hide_the_base(project: Path) -> None:
    root = _project(project)
    refs = api.find_references(root, "TestCase.fail")["references"]
    assert [(r["location"], r["resolved"], r["guessed"]) for r in refs] == [
        ("pkg/test_use.py:6", "pkg/case.py:2", False)
    ]


def test_the_cli_answers_the_same(cli: Any, project: Path) -> None:
    root = _project(project)
    found = cli("code", "refs", "TestCase.fail", cwd=root).json()
    assert [(r["location"], r["resolved"]) for r in found["references"]] == [
        ("pkg/test_use.py:6", "pkg/case.py:2")
    ]
