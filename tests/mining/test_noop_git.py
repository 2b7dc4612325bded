"""The no-op `mine sync` asks git for HEAD through the one git runner (scrubbed environment)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from orkestra.mining import noop


def test_head_ignores_an_inherited_git_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e", "PATH": "/usr/bin:/bin"}  # fmt: skip
    for args in (["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "feat: x"]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True)
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    other = tmp_path / "other"
    other.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=other, check=True)
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    assert noop.git_head(repo) == head


def test_no_head_is_none(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    assert noop.git_head(tmp_path) is None
