"""A Python source in the encoding its coding declaration names (PEP 263, `# -*- coding:
latin-1 -*-`) is read in it: its names, snippets and text are what Python reads, not the
bytes cut at the first non-UTF-8 one (`def résumé` was mapped as a function `sum`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.codemap import api
from tests.codemap.conftest import git, needs_tree_sitter

pytestmark = needs_tree_sitter

LATIN = (
    '# -*- coding: latin-1 -*-\n"""Mod\xe8le de r\xe9sum\xe9."""\n\n\n'
    'def r\xe9sum\xe9(texte):\n    """R\xe9sum\xe9 du texte."""\n    return texte[:10]\n\n\n'
    "def appel():\n    return r\xe9sum\xe9('x')\n"
)


def _project(project: Path) -> Path:
    (project / "lat.py").write_bytes(LATIN.encode("latin-1"))
    (project / "plain.py").write_bytes(b"def sum_up(v):\n    return v  # caf\xe9\n")  # no cookie
    git(project, "init", "-q")
    git(project, "add", "-A")
    return project


def test_a_coding_declaration_is_honoured(project: Path) -> None:
    root = _project(project)
    names = [s["qualname"] for s in api.outline(root, "lat.py")["symbols"]]
    assert names == ["r\xe9sum\xe9", "appel"]
    assert api.find_symbol(root, "sum")["total"] == 0
    refs = api.find_references(root, "r\xe9sum\xe9")["references"]
    assert [(r["location"], r["resolved"]) for r in refs] == [("lat.py:11", "lat.py:5")]
    assert api.get_file(root, "lat.py", 6, 6)["text"] == '    """R\xe9sum\xe9 du texte."""'
    hit = api.code_search(root, '"R\xe9sum\xe9 du texte"')["results"][0]
    assert (hit["location"], hit["snippet"]) == ("lat.py:6", '"""R\xe9sum\xe9 du texte."""')


def test_without_a_declaration_bad_bytes_are_replaced(cli: Any, project: Path) -> None:
    root = _project(project)
    out = cli("code", "outline", "plain.py", cwd=root).json()
    assert [s["qualname"] for s in out["symbols"]] == ["sum_up"]
    assert api.get_file(root, "plain.py", 2, 2)["text"] == "    return v  # caf\ufffd"
    sym = cli("code", "symbol", "r\xe9sum\xe9", cwd=root).json()
    assert [s["location"] for s in sym["symbols"]] == ["lat.py:5"]
