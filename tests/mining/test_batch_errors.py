"""`mine commit`: every bad line of a batch is reported (up to 20), an unknown field names the
allowed ones, nothing is written; the format is documented in `--help` and docs/mining.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import InputError
from orkestra.mining import classify
from orkestra.mining.sync import load_config, sync
from orkestra.registry import ledger
from tests.mining.gitrepo import GitRepo

DOCS = Path(__file__).parents[2] / "docs" / "mining.md"


@pytest.fixture
def feat(repo: GitRepo) -> str:
    sha = repo.commit("feat(core): ranking", {"packages/core/r.py": "r\n"})
    sync(repo.path)
    return sha


def ledgers(root: Path) -> tuple[bytes, bytes]:
    paths = (root / ledger.CLASSIFICATIONS, root / ledger.RELEASE_NOTES)
    return tuple(p.read_bytes() if p.exists() else b"" for p in paths)  # type: ignore[return-value]


def test_every_bad_line_is_reported(repo: GitRepo, feat: str) -> None:
    lines = [
        json.dumps({"sha": feat, "domain": "changelog", "action": "release", "category": "x"}),
        json.dumps({"sha": feat, "domain": "decisions", "action": "skip", "reason": "ok"}),
        "{broken",
        json.dumps({"sha": feat, "domain": "changelog", "action": "skip", "why": "typo"}),
        json.dumps({"sha": "deadbeef", "domain": "decisions", "action": "pending"}),
    ]
    with pytest.raises(InputError) as caught:
        requests = classify.parse_batch("\n".join(lines) + "\n", "b.jsonl")
        classify.classify(repo.path, requests, load_config(repo.path))
    error = caught.value
    assert (error.file, error.line) == ("b.jsonl", 1)
    text = str(error)
    assert text.startswith("b.jsonl:1: unknown category 'x'")
    # every bad line at once: those that do not parse and those naming an unknown commit
    assert (
        "b.jsonl:2" not in text
        and "b.jsonl:3: " in text
        and "b.jsonl:4: unknown field(s): why; the fields are " in text
        and "b.jsonl:5: commit deadbeef is not in the commit index" in text
    )
    assert "sha, domain, action, category, summary, package, decision_id, reason" in text
    assert "4 bad lines; nothing was written" in text
    assert ledgers(repo.path) == (b"", b"")


def test_planning_errors_are_all_reported_too(repo: GitRepo, feat: str) -> None:
    requests = classify.parse_batch(
        "\n".join(
            json.dumps(line)
            for line in [
                {"sha": feat, "domain": "changelog", "action": "release", "category": "added"},
                {"sha": "deadbeef", "domain": "changelog", "action": "skip", "reason": "x"},
                {"sha": feat, "domain": "changelog", "action": "release", "category": "fixed"},
                {"sha": feat[:8], "domain": "changelog", "action": "skip", "reason": "x"},
                {"sha": feat, "domain": "decisions", "action": "skip", "reason": "x"},
            ]
        ),
        "h.jsonl",
    )
    with pytest.raises(InputError) as caught:
        classify.classify(repo.path, requests, load_config(repo.path))
    text = str(caught.value)
    assert text.startswith("h.jsonl:2: commit deadbeef is not in the commit index")
    assert "h.jsonl:3: commit" in text and "classified twice in changelog (first at line 1)" in text
    assert "h.jsonl:4: commit" in text and "h.jsonl:5" not in text
    assert "3 bad lines; nothing was written" in text
    assert ledgers(repo.path) == (b"", b"")


def test_at_most_twenty_bad_lines_are_listed(repo: GitRepo, feat: str) -> None:
    bad = json.dumps({"sha": feat, "domain": "changelog", "action": "skip"})
    requests = classify.parse_batch("\n".join([bad] * 25), "many.jsonl")
    with pytest.raises(InputError) as caught:
        classify.classify(repo.path, requests, load_config(repo.path))
    text = str(caught.value)
    assert text.count("a skip needs a reason") == 20
    assert "many.jsonl:20: " in text and "many.jsonl:21: " not in text
    assert "... and 5 more\n25 bad lines; nothing was written" in text


def test_cli_exit_code_and_stderr(repo: GitRepo, feat: str, cli: Any, tmp_path: Path) -> None:
    batch = tmp_path / "bad.jsonl"
    batch.write_text(
        json.dumps({"sha": feat, "domain": "changelog", "action": "skip"}) + '\n{"x": 1}\n',
        encoding="utf-8",
    )
    result = cli("mine", "commit", "--input", str(batch), cwd=repo.path)
    assert result.exit_code == 1
    assert f"{batch}:1: " in result.stderr and f"{batch}:2: " in result.stderr
    assert ledgers(repo.path) == (b"", b"")


def test_the_format_is_documented(cli: Any) -> None:
    helped = cli("mine", "commit", "--help").stdout
    assert '{"sha":"abc123","domain":"changelog","action":"release"' in helped
    for field in ("decision_id", "reason", "category", "package", "root package"):
        assert field in helped
    docs = DOCS.read_text(encoding="utf-8")
    assert "## The batch format (`mine commit --input FILE.jsonl`)" in docs
    for field in classify.ClassificationRequest.model_fields:
        assert f"| `{field}` |" in docs
