"""A shallow clone (CI's default `fetch-depth: 1`) does not hold the history behind its
boundary: what the ledger says about those commits can neither be rendered nor checked."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import InputError
from orkestra.mining.changelog import render_all
from orkestra.mining.sync import load_config
from tests.mining.gitrepo import GitRepo, git_env

CHANGELOG = Path("packages") / "core" / "CHANGELOG.md"


@pytest.fixture
def shallow(repo: GitRepo, cli: Any, tmp_path: Path) -> Path:
    """A depth-1 clone of a history whose three releases of core are classified, its
    changelog rendered and committed."""
    for n in range(3):
        sha = repo.commit(f"feat(core): feature {n}", {f"packages/core/f{n}.py": f"{n}\n"})
        assert cli("mine", "classify", sha, "--changelog", "added", cwd=repo.path).exit_code == 0
    assert cli("changelog", "render", "--all", cwd=repo.path).exit_code == 0
    repo.git("add", ".")
    repo.commit("docs: changelog")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{repo.path}", str(clone)],
        env=git_env(),
        check=True,
    )
    return clone


def test_render_refuses_rather_than_drop_the_history_it_cannot_see(shallow: Path, cli: Any) -> None:
    before = (shallow / CHANGELOG).read_bytes()
    assert b"- Feature 2 (" in before
    with pytest.raises(InputError, match="shallow clone") as caught:
        render_all(shallow, load_config(shallow), None)
    assert "git fetch --unshallow" in caught.value.message
    for flags in ((), ("--check",), ("--dry-run",), ("--force",)):
        result = cli("changelog", "render", "--all", *flags, cwd=shallow)
        assert result.exit_code != 0 and "3 release notes name commits" in result.stderr, (
            flags,
            result,
        )
        assert "--unshallow" in result.stderr
    assert (shallow / CHANGELOG).read_bytes() == before
    subprocess.run(["git", "fetch", "-q", "--unshallow"], cwd=shallow, env=git_env(), check=True)
    result = cli("changelog", "render", "--all", "--check", cwd=shallow)
    assert result.exit_code == 0, result.stderr


def test_validate_says_what_it_could_not_check(shallow: Path, cli: Any) -> None:
    result = cli("mine", "validate", cwd=shallow)
    assert result.exit_code == 0, result.stdout
    found = result.json()["findings"]
    assert [(f["code"], f["severity"], f["line"]) for f in found] == [
        ("ORK060", "warning", 1),
        ("ORK060", "warning", 1),
    ]
    assert "(3, first at line 1)" in found[0]["message"] and "--unshallow" in found[0]["message"]
