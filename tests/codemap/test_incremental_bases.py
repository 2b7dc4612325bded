"""An update after an edit answers as a map built cold would: a class whose bases change
(`class Foo(Base)` edited to `class Foo(Other)`) moves the uses of its inherited members
(`Foo().run()` in another file) to the new base's, though no name those uses spell changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.codemap import api
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter

BASE = """class Base:
    def run(self):
        return 1


class Other:
    def run(self):
        return 2
"""
FOO = "from app.base import Base, Other\n\n\nclass Foo(Base):\n    def go(self):\n        return self.run()\n"
USE = "from app.foo import Foo\n\n\ndef go():\n    f = Foo()\n    return f.run()\n"


def _project(project: Path) -> Path:
    write(project, "app/__init__.py", "")
    write(project, "app/base.py", BASE)
    write(project, "app/foo.py", FOO)
    write(project, "app/use.py", USE)
    git(project, "init", "-q")
    git(project, "add", "-A")
    return project


def _uses(root: Path, name: str) -> dict[str, str | None]:
    return {r["location"]: r["resolved"] for r in api.find_references(root, name)["references"]}


def test_a_change_of_bases_moves_inherited_uses_in_other_files(project: Path) -> None:
    root = _project(project)
    assert _uses(root, "Base.run") == {
        "app/foo.py:6": "app/base.py:2",
        "app/use.py:6": "app/base.py:2",
    }
    foo = root / "app/foo.py"
    foo.write_text(FOO.replace("class Foo(Base)", "class Foo(Other)"), encoding="utf-8")
    after = _uses(root, "Other.run")
    assert after == {"app/foo.py:6": "app/base.py:7", "app/use.py:6": "app/base.py:7"}
    assert _uses(root, "Base.run") == {}
    api.index(root, full=True)
    assert _uses(root, "Other.run") == after  # what a cold map says


def test_code_refs_after_a_change_of_bases(cli: Any, project: Path) -> None:
    root = _project(project)
    assert cli("code", "index", cwd=root).exit_code == 0
    foo = root / "app/foo.py"
    foo.write_text(FOO.replace("class Foo(Base)", "class Foo(Other)"), encoding="utf-8")
    out = cli("code", "refs", "Other.run", cwd=root).json()
    assert [r["location"] for r in out["references"]] == ["app/foo.py:6", "app/use.py:6"]
