"""Fixtures for mining: a project that is also a git repository with two packages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.mining.gitrepo import GitRepo

CONFIG = """project: demo
mining:
  packages:
    core: "packages/core/**"
    cli: "packages/cli/**"
  domains_by_path:
    "packages/core/search/**": search
    "docs/**": docs
"""


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    """A git repository with `registries/orkestra.yaml` (packages core and cli) committed."""
    (tmp_path / "registries").mkdir()
    (tmp_path / "registries" / "orkestra.yaml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "registries" / "decisions").mkdir()
    (tmp_path / "registries" / "decisions" / "registry.yaml").write_text(
        "domains:\n  pipeline: PL\n  search: SR\n", encoding="utf-8"
    )
    (tmp_path / ".gitignore").write_text(".orkestra/\n", encoding="utf-8")
    git = GitRepo(tmp_path)
    git.git("add", ".")
    git.commit("chore: set up the project")
    return git


@pytest.fixture
def released(repo: GitRepo, cli: Any) -> GitRepo:
    """A repository with one commit classified into core's changelog (`added`)."""
    sha = repo.commit("feat(core): a widget", {"packages/core/w.py": "w\n"})
    assert cli("mine", "classify", sha, "--changelog", "added", cwd=repo.path).exit_code == 0
    return repo
