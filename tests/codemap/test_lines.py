"""One line splitter for the code map: lines are numbered at "\\n" only (as tree-sitter numbers
the definitions and references), so a form feed, a vertical tab, \\x1c-\\x1e, \\x85 or a Unicode
line separator inside a file never shifts a snippet, `get_file` or a search hit off its line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.codemap import api
from orkestra.core.lines import line_count, split_lines
from tests.codemap.conftest import needs_tree_sitter

ODD = "def first():\n    return 1\n\x0c\n# a\x85b\u2028c\x1cd\x0be\n\ndef second():\n    return first()\n"


def test_lines_split_at_newlines_only() -> None:
    assert split_lines("a\x0cb\x85c\u2028d\n\x0b\ne") == ["a\x0cb\x85c\u2028d", "\x0b", "e"]
    assert split_lines("a\r\nb\r\n") == ["a", "b"]
    assert split_lines("a\n\n") == ["a", ""]
    assert split_lines("") == []
    for text in ("", "a", "a\n", "a\n\n", "\x0c\n\x0cx", "a\r\nb"):
        assert line_count(text) == len(split_lines(text))


@needs_tree_sitter
def test_snippets_get_file_and_search_agree_with_the_indexed_lines(project: Path) -> None:
    (project / "mod.py").write_text(ODD, encoding="utf-8")
    refs = api.find_references(project, "first")["references"]
    assert [(r["location"], r["snippet"]) for r in refs] == [("mod.py:7", "return first()")]
    got = api.get_file(project, "mod.py", 6, 7)
    assert (got["text"], got["total_lines"]) == ("def second():\n    return first()", 7)
    hits = api.code_search(project, '"return first"')["results"]
    assert [(h["location"], h["snippet"]) for h in hits] == [("mod.py:7", "return first()")]


@needs_tree_sitter
def test_code_refs_cites_the_line_of_the_call(cli: Any, project: Path) -> None:
    (project / "mod.py").write_text(ODD, encoding="utf-8")
    out = cli("code", "refs", "first", cwd=project)
    assert out.exit_code == 0
    assert [(r["location"], r["snippet"]) for r in out.json()["references"]] == [
        ("mod.py:7", "return first()")
    ]
