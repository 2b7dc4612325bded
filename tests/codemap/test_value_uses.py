"""`code refs NAME` is "who calls or uses it": a read of a module constant (a CONSTANT_NAME, in
Python and JavaScript/TypeScript) is a reference; the import that names it is not a use."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.codemap import api
from tests.codemap.conftest import needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter


@pytest.fixture
def consts(project: Path) -> Path:
    write(project, "app/c.py", "LIMIT = 10\n\n\ndef use():\n    x = LIMIT + 1\n"
          "    return [LIMIT] * x\n")  # fmt: skip
    write(project, "app/d.py", "from app.c import LIMIT\nprint(LIMIT)\n")
    write(project, "web/t.ts", "export const DEFAULT_COLS = 80;\n")
    write(project, "web/u.ts", "import { DEFAULT_COLS } from './t';\n"
          "export function cols(): number {\n  return DEFAULT_COLS;\n}\n")  # fmt: skip
    return project


def test_reads_of_a_module_constant_are_references(consts: Path) -> None:
    refs = api.find_references(consts, "LIMIT")["references"]
    assert [(r["location"], r["resolved"]) for r in refs] == [
        ("app/c.py:5", "app/c.py:1"), ("app/c.py:6", "app/c.py:1"), ("app/d.py:2", "app/c.py:1"),
    ]  # fmt: skip  # not the import on app/d.py:1
    ts = api.find_references(consts, "DEFAULT_COLS")["references"]
    assert [(r["location"], r["resolved"]) for r in ts] == [("web/u.ts:3", "web/t.ts:1")]


def test_impact_of_a_constant_reaches_its_readers(consts: Path) -> None:
    found = api.impact(consts, "LIMIT")["dependents"]
    assert {(d["symbol"], d["path"]) for d in found} == {("use", "app/c.py"), (None, "app/d.py")}


def test_code_refs_lists_the_reads(cli: Any, consts: Path) -> None:
    out = cli("code", "refs", "LIMIT", cwd=consts)
    assert [r["location"] for r in out.json()["references"]] == [
        "app/c.py:5", "app/c.py:6", "app/d.py:2",
    ]  # fmt: skip
