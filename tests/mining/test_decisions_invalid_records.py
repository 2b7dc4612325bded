"""`decisions update` and `decisions renumber` on records edited by hand into shapes the record
schema refuses. `update` crashed (exit 3, "internal error: ValueError") on a `source_commits`
that is a mapping or a list of shas; `renumber` moved the record and rewrote the ledger, then
stopped at an invalid record referring to it: half applied, the reference left dangling, the
error without a line. Now each is refused up front at the record's line, in validate's words,
nothing written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import InputError
from orkestra.mining import decision_ids
from orkestra.mining.renumber import renumber
from orkestra.registry import ledger
from tests.mining.gitrepo import GitRepo

RECORDS = Path("registries/decisions/records")
HEAD = (
    'id: DEC-PL-001\ntitle: Adopt DuckDB\ndomain: pipeline\nstatus: active\ncreated: "2026-01-01"\n'
)


def _write(repo: GitRepo, name: str, text: str) -> Path:
    path = repo.path / RECORDS / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _snapshot(repo: GitRepo) -> dict[str, bytes]:
    folders = (repo.path / RECORDS, repo.path / ledger.CLASSIFICATIONS.parent)
    return {
        str(p.relative_to(repo.path)): p.read_bytes()
        for folder in folders
        if folder.exists()
        for p in sorted(folder.iterdir())
    }


@pytest.mark.parametrize(
    "sources",
    ["source_commits: {sha: abc1234}\n", "source_commits:\n  - abc1234\n  - def5678\n"],
    ids=["mapping", "list-of-shas"],
)
def test_update_refuses_an_ill_shaped_source_commits_at_its_line(
    repo: GitRepo, sources: str
) -> None:
    sha = repo.commit("feat(core): duckdb", {"packages/core/a.py": "a\n"})
    _write(repo, "DEC-PL-001", HEAD + sources)
    before = _snapshot(repo)
    with pytest.raises(InputError, match="source_commits") as caught:
        decision_ids.update(repo.path, "DEC-PL-001", [sha])
    assert caught.value.file == f"{RECORDS}/DEC-PL-001.yaml"
    assert caught.value.line in (6, 7)
    assert _snapshot(repo) == before


def test_cli_update_says_where_not_internal_error(repo: GitRepo, cli: Any) -> None:
    sha = repo.commit("feat(core): duckdb", {"packages/core/a.py": "a\n"})
    _write(repo, "DEC-PL-001", HEAD + "source_commits:\n  - abc1234\n")
    result = cli("decisions", "update", "DEC-PL-001", "--commit", sha, cwd=repo.path)
    assert result.exit_code == 1, result.stderr
    assert f"{RECORDS}/DEC-PL-001.yaml:7:" in result.stderr
    assert "internal error" not in result.stderr


def test_renumber_refuses_before_writing_when_a_referring_record_is_invalid(
    repo: GitRepo, cli: Any
) -> None:
    sha = repo.commit("feat(core): duckdb", {"packages/core/a.py": "a\n"})
    _write(repo, "DEC-PL-001", HEAD)
    assert cli("mine", "classify", sha, "--decision", "DEC-PL-001", cwd=repo.path).exit_code == 0
    _write(
        repo,
        "DEC-PL-002",
        HEAD.replace("001", "002").replace("active", "actve") + "related: [DEC-PL-001]\n",
    )
    before = _snapshot(repo)
    result = cli("decisions", "renumber", "DEC-PL-001", cwd=repo.path)
    assert result.exit_code == 1
    assert f"{RECORDS}/DEC-PL-002.yaml:4:" in result.stderr and "status" in result.stderr
    assert _snapshot(repo) == before


def test_renumber_of_a_record_referred_to_by_an_invalid_superseded_by(repo: GitRepo) -> None:
    _write(repo, "DEC-PL-001", HEAD)
    _write(
        repo,
        "DEC-PL-002",
        HEAD.replace("001", "002").replace("active", "superseded")
        + "superseded_by: DEC-PL-001\ncreated_by: someone\n",
    )
    before = _snapshot(repo)
    with pytest.raises(InputError, match="created_by") as caught:
        renumber(repo.path, "DEC-PL-001", to="DEC-PL-009")
    assert caught.value.file == f"{RECORDS}/DEC-PL-002.yaml" and caught.value.line == 7
    assert _snapshot(repo) == before
