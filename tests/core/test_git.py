"""core.git: scrubbed environment, safety options, errors with git's message."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from orkestra.core import git
from orkestra.core.errors import InputError


def make_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    env = git.git_env() | {"GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z"}
    env |= {"GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}
    for args in (
        ["init", "-q", "-b", "main"],
        ["-c", "user.name=T", "-c", "user.email=t@x", "commit", "-q", "--allow-empty", "-m", "one"],
    ):
        subprocess.run(["git", *args], cwd=path, env=env, check=True)
    return path


def test_git_env_drops_inherited_git_variables() -> None:
    inherited = {
        "GIT_DIR": "/elsewhere/.git",
        "GIT_WORK_TREE": "/elsewhere",
        "GIT_INDEX_FILE": "/elsewhere/index",
        "GIT_EXEC_PATH": "/usr/lib/git-core",
        "HOME": "/home/u",
    }
    env = git.git_env(inherited)
    assert "GIT_DIR" not in env
    assert "GIT_WORK_TREE" not in env
    assert "GIT_INDEX_FILE" not in env
    assert env["GIT_EXEC_PATH"] == "/usr/lib/git-core"
    assert env["HOME"] == "/home/u"
    assert env["GIT_TERMINAL_PROMPT"] == "0"
    assert env["GIT_PAGER"] == "cat"


def test_an_outer_git_dir_does_not_redirect_run_or_stream(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = make_repo(tmp_path / "ours")
    other = make_repo(tmp_path / "other")
    subprocess.run(
        ["git", "commit", "-q", "--allow-empty", "-m", "two"],
        cwd=other,
        env=git.git_env()
        | {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@x"}
        | {"GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@x"},
        check=True,
    )
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other))
    assert git.output(ours, "log", "--format=%s").split() == ["one"]
    assert b"".join(git.stream(ours, ["log", "--format=%s"])).split() == [b"one"]


def test_commands_carry_the_safety_options() -> None:
    argv = git.command(["log"])
    assert argv[:2] == ["git", "--no-pager"]
    assert "core.fsmonitor=false" in argv
    assert f"core.hooksPath={__import__('os').devnull}" in argv
    assert argv[-1] == "log"
    assert not any(a.startswith("core.hooksPath") for a in git.command(["commit"], hooks=True))


def test_failures_raise_input_error_with_gits_message(tmp_path: Path) -> None:
    make_repo(tmp_path)
    with pytest.raises(InputError, match=r"git rev-parse failed: .*"):
        git.output(tmp_path, "rev-parse", "--verify", "nope")
    assert not git.run(tmp_path, "rev-parse", "--verify", "nope", check=False).ok
    with pytest.raises(InputError, match="git log failed"):
        list(git.stream(tmp_path, ["log", "nope"]))


def test_stream_feeds_stdin(tmp_path: Path) -> None:
    make_repo(tmp_path)
    head = git.output(tmp_path, "rev-parse", "HEAD").strip()
    revs = tmp_path / "revs"
    revs.write_text(head + "\n")
    with revs.open("rb") as handle:
        out = b"".join(
            git.stream(tmp_path, ["log", "--no-walk", "--stdin", "--format=%H"], stdin=handle)
        )
    assert out.decode().split() == [head]
