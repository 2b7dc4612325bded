"""A text file with a NUL byte past the first 8 KiB (the binary test looks no further, as
git's) is mapped whole: the parser and the text index stopped at the NUL, so what came after
it (here a definition) was silently missing from `code symbol`, `code search` and `outline`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.codemap import api
from tests.codemap.conftest import git, needs_tree_sitter

pytestmark = needs_tree_sitter

LATE = (
    b"def before():\n    pass\n" + b"# padding line\n" * 700
    + b'SEPARATOR = "\x00"\n\n\ndef after_the_nul():\n    return before()\n'
)  # fmt: skip


def _project(project: Path) -> Path:
    (project / "late.py").write_bytes(LATE)
    (project / "bundle.js").write_bytes(
        b"// x\n" * 2000 + b'const SEP = "\x00";\nexport function tailWord() { return SEP }\n'
    )
    git(project, "init", "-q")
    git(project, "add", "-A")
    return project


def test_what_follows_a_late_nul_is_mapped(project: Path) -> None:
    root = _project(project)
    assert LATE.index(b"\x00") > 8192
    names = [s["qualname"] for s in api.outline(root, "late.py")["symbols"]]
    assert names == ["before", "SEPARATOR", "after_the_nul"]
    refs = api.find_references(root, "before")["references"]
    assert [(r["location"], r["scope"]) for r in refs] == [("late.py:707", "after_the_nul")]
    hit = api.code_search(root, '"return before()"')["results"][0]
    assert hit["location"] == "late.py:707"
    assert api.get_file(root, "late.py", 706, 706)["text"] == "def after_the_nul():"


def test_through_the_cli(cli: Any, project: Path) -> None:
    root = _project(project)
    out = cli("code", "symbol", "tailWord", cwd=root).json()
    assert [s["location"] for s in out["symbols"]] == ["bundle.js:2002"]
    found = cli("code", "search", '"tailWord"', cwd=root).json()
    assert [r["location"] for r in found["results"]] == ["bundle.js:2002"]
