"""The mining index (issue 11 case 7): any byte git allows in a path or a message is data.

File names that look like the log's record separator (RS + 40 hex digits) or like its fields
(`\\x1f1` ... `\\x1f5`) must neither break `mine sync` nor forge a commit in the index.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.mining.gitrepo import GitRepo, git_env

FORGED_SHA = "ab" * 20
FORGERS = [f"\x1e{FORGED_SHA}", *(f"\x1f{i}" for i in range(1, 6))]
ODD = ["a\nb.txt", "line\u2028sep.txt", "nel\x85.txt", "tab\there.txt", "back\\slash.txt"]


def commit_paths(repo: GitRepo, names: list[str], message: str) -> str:
    """Commit files with arbitrary names (through `git update-index`, any byte but NUL)."""
    repo.tick += 1
    for name in names:
        blob = subprocess.run(
            ["git", "hash-object", "-w", "--stdin"],
            cwd=repo.path,
            input=name.encode(),
            capture_output=True,
            env=git_env(),
            check=True,
        ).stdout.decode()
        entry = f"100644 {blob.strip()}\t".encode() + name.encode("utf-8") + b"\0"
        subprocess.run(
            ["git", "update-index", "--add", "-z", "--index-info"],
            cwd=repo.path,
            input=entry,
            env=git_env(),
            check=True,
        )
    repo.git("commit", "-q", "-m", message)
    return repo.head()


def index_shas(cli: Any, root: Path) -> list[str]:
    result = cli("mine", "candidates", "--limit", "1000", "--domain", "changelog", cwd=root)
    assert result.exit_code == 0, result.stderr
    return [c["sha"] for c in result.json()["candidates"]]


@pytest.mark.parametrize("names", [FORGERS[:1], FORGERS, ODD], ids=["rs-sha", "rs-and-us", "odd"])
def test_file_names_are_data(repo: GitRepo, cli: Any, names: list[str]) -> None:
    before = repo.commit("feat(core): before", {"packages/core/a.py": "a\n"})
    odd = commit_paths(repo, [f"packages/core/{n}" for n in names], "feat(core): odd names")
    after = repo.commit("fix(core): after", {"packages/core/b.py": "b\n"})

    for _ in range(2):  # the first run builds the index, the second reads it incrementally
        result = cli("mine", "sync", cwd=repo.path)
        assert result.exit_code == 0, result.stderr
    history = repo.git("rev-list", "HEAD").split()
    assert sorted(index_shas(cli, repo.path)) == sorted(history)
    assert FORGED_SHA not in index_shas(cli, repo.path)
    full = cli("mine", "candidates", "--full", "--limit", "3", cwd=repo.path).json()["candidates"]
    assert [c["sha"] for c in full] == [after, odd, before]
    assert sorted(full[1]["files_changed"]) == sorted(f"packages/core/{n}" for n in names)
    assert full[1]["subject"] == "feat(core): odd names"
    classify = cli("mine", "classify", odd, "--changelog", "added", cwd=repo.path)
    assert classify.exit_code == 0, classify.stderr
    assert cli("mine", "validate", cwd=repo.path).exit_code == 0


def test_a_message_that_looks_like_a_record_start_is_data(repo: GitRepo, cli: Any) -> None:
    subject = f"\x1e{FORGED_SHA}"
    tricky = repo.commit(f"fix: {subject}\n\n\x1e{FORGED_SHA}\n\x1f1 body")
    assert cli("mine", "sync", cwd=repo.path).exit_code == 0
    found = cli("mine", "candidates", "--full", "--limit", "5", cwd=repo.path).json()["candidates"]
    assert [c["sha"] for c in found] == repo.git("rev-list", "HEAD").split()
    assert found[0]["sha"] == tricky and found[0]["subject"] == f"fix: {subject}"


def test_a_large_history_with_forging_names_streams_in_chunks(repo: GitRepo, cli: Any) -> None:
    # long paths make the log cross many stream chunks; every record must still come out whole
    for i in range(40):
        commit_paths(repo, [f"\x1e{FORGED_SHA}-{i}-" + "x" * 2000, f"\x1f{i % 5 + 1}"], f"c{i}")
    assert cli("mine", "sync", cwd=repo.path).exit_code == 0
    assert sorted(index_shas(cli, repo.path)) == sorted(repo.git("rev-list", "HEAD").split())
