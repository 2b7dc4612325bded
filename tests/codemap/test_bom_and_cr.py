"""Files of unusual shape read as their languages read them: a UTF-8 byte order mark is no part
of the first line (its snippet, signature and `get_file` text start at the code), and a file
whose lines end in `\\r` only (classic Mac OS) has one line per `\\r`, not one line in all."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.codemap import api
from orkestra.core.lines import line_count, split_lines
from tests.codemap.conftest import git, needs_tree_sitter

BOM = b"\xef\xbb\xbfdef first_func(x):\n    return x\n\n\nclass Second:\n    pass\n"
BOM_JS = b"\xef\xbb\xbfexport function greet(name) {\n  return name;\n}\n"
MAC = b"def mac_one():\r    return 1\r\r\rdef mac_two():\r    return mac_one()\r"


def _project(project: Path) -> Path:
    (project / "bom.py").write_bytes(BOM)
    (project / "bom.js").write_bytes(BOM_JS)
    (project / "mac.py").write_bytes(MAC)
    git(project, "init", "-q")
    git(project, "add", "-A")
    return project


def test_lines_of_a_cr_only_text_are_split_at_each_cr() -> None:
    assert split_lines("a\rb\r\rc\r") == ["a", "b", "", "c"]
    for text in ("a\rb", "a\r", "\r\r", "a\r\nb\r\n", "a\rb\nc"):
        assert line_count(text) == len(split_lines(text))
    assert split_lines("a\rb\nc") == ["a\rb", "c"]  # a stray \r in a \n file stays in its line


@needs_tree_sitter
def test_a_byte_order_mark_is_not_in_the_first_line(project: Path) -> None:
    root = _project(project)
    sym = api.find_symbol(root, "first_func")["symbols"]
    assert [(s["location"], s["signature"]) for s in sym] == [("bom.py:1", "def first_func(x):")]
    assert api.get_file(root, "bom.py", 1, 1)["text"] == "def first_func(x):"
    hit = api.code_search(root, '"first_func"')["results"][0]
    assert (hit["location"], hit["snippet"]) == ("bom.py:1", "def first_func(x):")
    js = api.find_symbol(root, "greet")["symbols"]
    assert [(s["location"], s["signature"]) for s in js] == [
        ("bom.js:1", "export function greet(name) {")
    ]


@needs_tree_sitter
def test_cr_only_line_endings_number_each_line(cli: Any, project: Path) -> None:
    root = _project(project)
    out = cli("code", "outline", "mac.py", cwd=root).json()
    assert [(s["location"], s["signature"]) for s in out["symbols"]] == [
        ("mac.py:1", "def mac_one():"),
        ("mac.py:5", "def mac_two():"),
    ]
    refs = cli("code", "refs", "mac_one", cwd=root).json()["references"]
    assert [(r["location"], r["snippet"], r["resolved"]) for r in refs] == [
        ("mac.py:6", "return mac_one()", "mac.py:1")
    ]
    got = api.get_file(root, "mac.py", 5, 6)
    assert (got["text"], got["total_lines"]) == ("def mac_two():\n    return mac_one()", 6)
