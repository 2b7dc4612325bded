"""Path globs to packages and domains; releasable types; the default package."""

from __future__ import annotations

import re

import pytest

from orkestra.core.globs import glob_folder, glob_regex
from orkestra.mining.signals import PathMapper, SignalMaker


@pytest.mark.parametrize(
    ("glob", "path", "hit"),
    [
        ("packages/vite/**", "packages/vite/src/a.ts", True),
        ("packages/vite/**", "packages/vite", False),
        ("packages/vite/**", "packages/vite-plugin/a.ts", False),
        ("src/*.py", "src/a.py", True),
        ("src/*.py", "src/sub/a.py", False),
        ("src/**/*.py", "src/a.py", True),
        ("src/**/*.py", "src/x/y/a.py", True),
        ("**/test_*.py", "a/b/test_x.py", True),
        ("docs/?.md", "docs/a.md", True),
        ("docs/[ab].md", "docs/b.md", True),
        ("docs/[!ab].md", "docs/b.md", False),
        ("README.md", "README.md", True),
    ],
)
def test_glob(glob: str, path: str, hit: bool) -> None:
    assert bool(re.fullmatch(glob_regex(glob), path)) is hit
    assert ("x" in PathMapper({"x": glob}).names(path)) is hit


def test_glob_folder() -> None:
    assert glob_folder("packages/vite/**") == "packages/vite"
    assert glob_folder("src/*.py") == "src"
    assert glob_folder("**") == ""
    assert glob_folder("tools/script.sh") == "tools"


def test_signals_map_packages_and_domains() -> None:
    maker = SignalMaker(
        {"core": "packages/core/**", "cli": "packages/cli/**"},
        {"packages/core/search/**": "search", "docs/**": "docs"},
    )
    sig = maker.signals(
        "feat(search)!: rank",
        "",
        ["packages/core/search/rank.py", "packages/cli/x.py", "docs/a.md"],
    )
    assert sig["packages"] == ["cli", "core"]
    assert sig["domains_affected"] == ["docs", "search"]
    assert sig["commit_type"] == "feat" and sig["breaking"] and sig["is_releasable_type"]
    assert maker.signals("docs: x", "", ["README.md"])["packages"] == []
    assert not maker.signals("docs: x", "", [])["is_releasable_type"]


def test_releasable_types_configurable_and_default_package() -> None:
    maker = SignalMaker({}, {}, ["feat", "Docs"], default_package="demo")
    assert maker.signals("docs: x", "", ["a"])["is_releasable_type"]
    assert not maker.signals("fix: x", "", ["a"])["is_releasable_type"]
    assert maker.signals("fix: x", "", [])["packages"] == ["demo"]
