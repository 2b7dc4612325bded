"""A `total` counts every answer, not the ones a limit kept (PRODUCT.md §5: a search returns
`{"query", "total", "results"}` with the top `limit` of `total` hits)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.codemap import api
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter

#: more than any default limit of the answers below
MODULES = 60
CALLS = 520


def _many(project: Path) -> Path:
    """60 modules each defining `setup` and naming a `gearbox`, and 520 calls of `helper`."""
    for n in range(MODULES):
        write(
            project,
            f"pkg/mod{n:02d}.py",
            f'"""Module {n}: the gearbox of stage {n}."""\n\n\ndef setup():\n    return {n}\n',
        )
    write(project, "pkg/__init__.py", "")
    write(project, "pkg/util.py", "def helper(x):\n    return x\n")
    calls = "".join(f"    helper({n})\n" for n in range(CALLS))
    write(project, "pkg/calls.py", f"from pkg.util import helper\n\n\ndef run():\n{calls}")
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "init")
    return project


def test_code_search_total_counts_every_hit_not_the_limit(project: Path) -> None:
    root = _many(project)
    few = api.code_search(root, "gearbox stage", limit=3)
    every = api.code_search(root, "gearbox stage", limit=500)
    assert len(few["results"]) == 3
    assert few["total"] == every["total"] == len(every["results"]) >= MODULES
    direct = api.code_search(root, '"the gearbox"', limit=2)
    assert direct["fusion_strategy"] == "direct"
    assert (len(direct["results"]), direct["total"]) == (2, MODULES)


def test_symbol_and_refs_totals_count_past_the_lists(project: Path) -> None:
    root = _many(project)
    found = api.find_symbol(root, "setup")
    assert (found["total"], len(found["symbols"])) == (MODULES, 50)
    refs = api.find_references(root, "helper")
    assert (refs["total"], len(refs["references"])) == (CALLS, 500)


def test_cli_totals_are_not_capped(cli: Any, project: Path) -> None:
    root = _many(project)
    out = cli("code", "search", "gearbox stage", "--limit", "2", cwd=root).json()
    assert len(out["results"]) == 2 and out["total"] >= MODULES
    assert cli("code", "symbol", "setup", cwd=root).json()["total"] == MODULES
    assert cli("code", "refs", "helper", cwd=root).json()["total"] == CALLS
    mixed = cli("search", '"the gearbox"', "--type", "code", "--limit", "2", cwd=root).json()
    assert (len(mixed["results"]), mixed["total"]) == (2, MODULES)
    counts = cli("search", '"the gearbox"', "--type", "code", "--summary", cwd=root).json()
    assert counts["counts"]["code"] == MODULES == counts["total"]
