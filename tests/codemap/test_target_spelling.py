"""How a person names what the code commands look at: a C++ operator (`Vec::operator/`) is a
symbol though it holds a `/`, a Rust or C++ `Type::method` is the map's `Type.method`, and a
Windows-style path (`src\\pkg\\mod.py`) is the file `src/pkg/mod.py`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.codemap import api
from orkestra.core.errors import NotFound
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter

VEC = """struct Vec {
  double x, y;
  Vec operator/(double k) const { return Vec{x / k, y / k}; }
  Vec scaled(double k) const { return Vec{x * k, y * k}; }
};
"""
SHOP = """pub struct Shop;
impl Shop {
    pub fn new() -> Shop { Shop }
}
fn main() { let _s = Shop::new(); }
"""
MOD = "from pkg.core import helper\n\n\ndef user():\n    return helper()\n"
CORE = "def helper():\n    return 1\n"


@pytest.fixture
def spelled(project: Path) -> Path:
    write(project, "src/vec.cpp", VEC)
    write(project, "src/shop.rs", SHOP)
    write(project, "src/pkg/__init__.py", "")
    write(project, "src/pkg/mod.py", MOD)
    write(project, "src/pkg/core.py", CORE)
    git(project, "init", "-q")
    git(project, "add", "-A")
    return project


def test_a_cpp_operator_is_a_symbol_not_a_path(spelled: Path) -> None:
    out = api.impact(spelled, "Vec::operator/")  # no use of it is a call the map sees
    assert (out["target"], out["total"], out["truncated"]) == ("Vec::operator/", 0, False)
    assert api.impact(spelled, "Vec.operator/")["total"] == 0
    deps = api.analyze_dependencies(spelled, "Vec::operator/")
    assert deps == {"target": "Vec::operator/", "impact": out}
    with pytest.raises(NotFound, match="is outside the project"):
        api.impact(spelled, "../elsewhere/x.py")


def test_type_colon_colon_method_names_the_definition(spelled: Path) -> None:
    found = api.find_symbol(spelled, "Shop::new")["symbols"]
    assert [s["location"] for s in found] == ["src/shop.rs:3"]
    refs = api.find_references(spelled, "Shop::new")
    assert [r["resolved"] for r in refs["references"]] == ["src/shop.rs:3"]
    assert [d["location"] for d in refs["definitions"]] == ["src/shop.rs:3"]
    assert [s["qualname"] for s in api.find_symbol(spelled, "Vec::operator/")["symbols"]] == [
        "Vec.operator/"
    ]


def test_a_windows_style_path_names_the_file(spelled: Path) -> None:
    assert api.outline(spelled, "src\\pkg\\mod.py")["path"] == "src/pkg/mod.py"
    deps = api.dependencies(spelled, "src\\pkg\\mod.py")
    assert [i["files"] for i in deps["imports"]] == [["src/pkg/core.py"]]
    impact = api.impact(spelled, "src\\pkg\\core.py")
    assert impact["target"] == "src/pkg/core.py"
    assert {d["path"] for d in impact["dependents"]} == {"src/pkg/mod.py"}
    assert api.get_file(spelled, "src\\pkg\\core.py", 1, 1)["text"] == "def helper():"


def test_the_cli_takes_these_spellings(cli: Any, spelled: Path) -> None:
    out = cli("code", "impact", "Vec::operator/", cwd=spelled)
    assert (out.exit_code, out.json()["target"], out.stderr) == (0, "Vec::operator/", "")
    sym = cli("code", "symbol", "Shop::new", cwd=spelled).json()
    assert [s["location"] for s in sym["symbols"]] == ["src/shop.rs:3"]
    outline = cli("code", "outline", "src\\pkg\\mod.py", cwd=spelled)
    assert (outline.exit_code, outline.json()["path"]) == (0, "src/pkg/mod.py")
    deps = cli("code", "deps", "src\\pkg\\mod.py", cwd=spelled)
    assert (deps.exit_code, deps.json()["path"]) == (0, "src/pkg/mod.py")


@pytest.mark.parametrize("spelling", [".", "./", "src/..", "src/pkg/.."])
def test_a_folder_spelled_with_dots_is_named_a_folder(
    cli: Any, spelled: Path, spelling: str
) -> None:
    out = cli("code", "deps", spelling, cwd=spelled)
    assert out.exit_code == 1
    assert "is a folder; give one file in it, such as '" in out.stderr, out.stderr


def test_a_backslashed_name_that_is_neither_says_so_as_given(cli: Any, spelled: Path) -> None:
    """`App\\Models\\User` (a PHP name) that names no symbol nor file is named as typed, with
    both readings, not as the path `App/Models/User`."""
    out = cli("code", "impact", "App\\Models\\User", cwd=spelled)
    assert out.exit_code == 1
    assert "'App\\Models\\User' is neither a symbol nor a file of the code map" in out.stderr
