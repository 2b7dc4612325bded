"""A project whose root is a folder inside a git work tree (a service of a monorepo) maps the
files git lists there: `.gitignore` is respected as at a repository's top (PRODUCT.md §12)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.codemap import api, walk
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter


def _monorepo(tmp_path: Path) -> Path:
    write(tmp_path, ".gitignore", "build_out/\n*.gen.py\n")
    svc = tmp_path / "services" / "billing"
    write(svc, "registries/orkestra.yaml", "project: billing\n")
    write(svc, "app/invoice.py", "def total(lines):\n    return sum(lines)\n")
    write(svc, "app/schema.gen.py", "def generated_total():\n    pass\n")
    write(svc, "build_out/copy.py", "def stale_total():\n    pass\n")
    write(tmp_path, "services/other/x.py", "def elsewhere():\n    pass\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "init")
    write(svc, "app/draft.py", "def draft():\n    pass\n")  # untracked, not ignored: mapped
    return svc


def test_files_are_listed_by_git_below_a_subfolder_root(tmp_path: Path) -> None:
    svc = _monorepo(tmp_path)
    assert walk.list_files(svc) == ["app/draft.py", "app/invoice.py", "registries/orkestra.yaml"]


def test_ignored_files_stay_out_of_the_map(cli: Any, tmp_path: Path) -> None:
    svc = _monorepo(tmp_path)
    assert api.find_symbol(svc, "total")["symbols"][0]["location"] == "app/invoice.py:1"
    for ignored in ("generated_total", "stale_total", "elsewhere"):
        out = cli("code", "symbol", ignored, cwd=svc)
        assert (out.exit_code, out.json()["total"]) == (0, 0), ignored


def test_a_project_the_repository_around_it_ignores_is_walked(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*\n!.gitignore\n")  # a home folder's dotfiles repository
    git(tmp_path, "init", "-q")
    project = tmp_path / "work" / "shop"
    write(project, "registries/orkestra.yaml", "project: shop\n")
    write(project, "app/cart.py", "def checkout():\n    pass\n")
    assert walk.list_files(project) == ["app/cart.py", "registries/orkestra.yaml"]
    assert api.find_symbol(project, "checkout")["total"] == 1
