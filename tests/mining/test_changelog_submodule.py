"""A package whose folder is a git submodule (or another repository checked out inside the
project): `changelog render` refuses to write its CHANGELOG.md into that other repository's
working tree, naming the package's line in orkestra.yaml and what to do, and writes nothing
(with --all, no other package either). It wrote `vendor/lib/CHANGELOG.md` into the submodule,
leaving it dirty ("modified content" in the superproject's `git status`)."""

from __future__ import annotations

import subprocess
from typing import Any

from tests.mining.gitrepo import GitRepo, git_env

CONFIG = """project: demo
mining:
  packages:
    core: "packages/core/**"
    vendor: vendor/lib
"""


def _with_submodule(repo: GitRepo) -> None:
    sub = repo.path.parent / "sub"
    GitRepo(sub).commit("init sub")
    env = git_env()
    subprocess.run(
        ["git", "-c", "protocol.file.allow=always", "submodule", "-q", "add", str(sub), "vendor/lib"],
        cwd=repo.path, env=env, check=True, capture_output=True,
    )  # fmt: skip
    (repo.path / "registries/orkestra.yaml").write_text(CONFIG, encoding="utf-8")
    repo.git("add", ".")
    repo.commit("feat(vendor): add lib")


def test_render_refuses_to_write_into_a_submodule(repo: GitRepo, cli: Any) -> None:
    sha = repo.commit("feat(core): a widget", {"packages/core/w.py": "w\n"})
    assert cli("mine", "classify", sha, "--changelog", "added", cwd=repo.path).exit_code == 0
    _with_submodule(repo)
    for args in (("--all",), ("--package", "vendor"), ("--all", "--into-existing")):
        result = cli("changelog", "render", *args, cwd=repo.path)
        assert result.exit_code == 1, result.stdout
        assert "registries/orkestra.yaml:5:" in result.stderr
        assert "vendor/lib" in result.stderr and "submodule" in result.stderr
    assert not (repo.path / "vendor/lib/CHANGELOG.md").exists()
    assert not (repo.path / "packages/core/CHANGELOG.md").exists()
    assert cli("changelog", "render", "--package", "core", cwd=repo.path).exit_code == 0
