"""A batch written with bare-CR line endings (classic Mac, no LF anywhere) is read line by line:
it was one line, `FILE:1: not valid JSON (Extra data)` for any batch of two lines or more."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from orkestra.mining import classify
from orkestra.mining.sync import sync
from orkestra.registry import ledger
from tests.mining.gitrepo import GitRepo


def _batch(sha: str, *bad: str) -> str:
    lines = [
        json.dumps({"sha": sha, "domain": "changelog", "action": "release", "category": "added"}),
        *bad,
        json.dumps({"sha": sha, "domain": "decisions", "action": "skip", "reason": "small"}),
    ]
    return "\r".join(lines) + "\r"


def test_a_cr_batch_is_read_line_by_line(repo: GitRepo) -> None:
    sha = repo.commit("feat(core): ranking", {"packages/core/r.py": "r\n"})
    requests = classify.parse_batch(_batch(sha), "b.jsonl")
    assert [(r.domain, r.line) for r in requests] == [("changelog", 1), ("decisions", 2)]


def test_a_cr_batch_is_applied_and_its_bad_lines_named(repo: GitRepo, cli: Any) -> None:
    sha = repo.commit("feat(core): ranking", {"packages/core/r.py": "r\n"})
    sync(repo.path)
    path = repo.path / "bad.jsonl"
    path.write_bytes(_batch(sha, "{broken", '{"sha": "' + sha + '", "domain": "x"}').encode())
    result = cli("mine", "commit", "--input", str(path), cwd=repo.path)
    assert result.exit_code == 1
    assert "bad.jsonl:2:" in result.stderr and "bad.jsonl:3:" in result.stderr, result.stderr
    assert not (repo.path / ledger.CLASSIFICATIONS).exists()
    good = repo.path / "good.jsonl"
    good.write_bytes(_batch(sha).encode())
    done = cli("mine", "commit", "--input", str(good), cwd=repo.path)
    assert done.exit_code == 0, done.stderr
    assert done.json()["written"] == 2
    assert Path(repo.path / ledger.CLASSIFICATIONS).read_text(encoding="utf-8").count("\n") == 2
