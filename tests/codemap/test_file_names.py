"""A file whose name is not UTF-8 (`caf\\xe9.py`, written on a Latin-1 system) cannot be named in
the map: it is skipped and counted as unreadable, in a git project (whose listing would name it
`caf\\ufffd.py`, a file that does not exist, and drop it uncounted) and in a plain folder (where
storing its name crashed `code index` with a UnicodeEncodeError); the other files are mapped."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from orkestra.codemap import api
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter


def _project(project: Path, *, tracked: bool) -> Path:
    (project / os.fsdecode(b"caf\xe9.py")).write_bytes(b"def latin():\n    pass\n")
    write(project, "plain.py", "def plain():\n    pass\n")
    if tracked:
        git(project, "init", "-q")
        git(project, "add", "-A")
    return project


@pytest.mark.parametrize("tracked", [True, False])
def test_a_file_named_in_no_utf8_is_skipped_and_counted(project: Path, tracked: bool) -> None:
    root = _project(project, tracked=tracked)
    report = api.index(root)
    assert report["skipped"]["unreadable"] == 1
    assert report["files"] == 2  # plain.py and registries/orkestra.yaml
    assert [s["location"] for s in api.find_symbol(root, "plain")["symbols"]] == ["plain.py:1"]
    assert api.find_symbol(root, "latin")["symbols"] == []


def test_code_index_counts_it_in_a_plain_folder(cli: Any, project: Path) -> None:
    root = _project(project, tracked=False)
    out = cli("code", "index", cwd=root)
    assert out.exit_code == 0, out.stderr
    assert out.json()["skipped"]["unreadable"] == 1
