"""Files of unusual shape read as their languages read them: a UTF-8 byte order mark is no part
of the first line (its snippet, signature and `get_file` text start at the code), and a file
whose lines end in `\\r` only (classic Mac OS) has one line per `\\r`, not one line in all."""

from __future__ import annotations

from pathlib import Path

from orkestra.codemap import api
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
