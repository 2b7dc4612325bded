"""A name is never empty: a node the parser made up to recover from an error (a zero-width
MISSING type in a C++ constructor read as C, `Branch() {` in a `.h`) is no reference, and an
empty NAME given to `code refs` or `code impact` is a usage error saying what to give, as
`code symbol`'s is (it would list such phantom uses, or speak of `code symbol  --similar`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.codemap import api, extract
from orkestra.core.errors import UsageError
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter

HEADER = """class InputMap {
private:
    struct Node;

    struct Branch {
        Branch() {
            memset(&children, 0, sizeof(children));
        }

        Node *children[256];
    };
};
"""


def test_a_node_made_up_by_error_recovery_is_no_reference() -> None:
    facts = extract.extract("c", HEADER.encode())
    assert [r for r in facts.refs if not r.name] == []
    assert [s for s in facts.symbols if not s.name] == []


@pytest.mark.parametrize("name", ["", "   "])
def test_an_empty_name_is_a_usage_error(project: Path, name: str) -> None:
    write(project, "InputMap.h", HEADER)
    with pytest.raises(UsageError, match="give a symbol name"):
        api.find_references(project, name)
    with pytest.raises(UsageError, match="give a symbol or a file path"):
        api.impact(project, name)
    for ask in (api.outline, api.dependencies, api.get_file):
        with pytest.raises(UsageError, match="give a file path"):
            ask(project, name)


def test_code_refs_and_impact_of_an_empty_name_exit_2(cli: Any, project: Path) -> None:
    write(project, "InputMap.h", HEADER)
    git(project, "init", "-q")
    git(project, "add", "-A")
    refs = cli("code", "refs", "", cwd=project)
    assert (refs.exit_code, refs.stdout) == (2, "")
    assert "give a symbol name" in refs.stderr
    impact = cli("code", "impact", " ", cwd=project)
    assert (impact.exit_code, impact.stdout) == (2, "")
    assert "give a symbol or a file path" in impact.stderr
    outline = cli("code", "outline", "", cwd=project)
    assert (outline.exit_code, outline.stdout) == (2, "")
    assert "give a file path" in outline.stderr
