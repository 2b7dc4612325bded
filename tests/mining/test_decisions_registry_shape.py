"""`decisions new`, `decisions renumber`, `mine classify --decision` and `mine commit` read
`decisions/registry.yaml` as `orkestra validate` does: a code that is not two capital letters
(`search: sr`) is refused at its line, nothing written, with what validate says; `decisions new
--dry-run` allocated `DEC-sr-001`, an id no record may have, exit 0, and without `--dry-run` the
error named the record it could not write, not the registry line to correct. Two domains sharing
a code are refused at the line of the second, as validate reports them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import ConflictError, InputError
from orkestra.mining import decision_ids
from tests.mining.gitrepo import GitRepo

REGISTRY = Path("registries/decisions/registry.yaml")
RECORDS = Path("registries/decisions/records")


def _write(repo: GitRepo, text: str) -> None:
    (repo.path / REGISTRY).write_text(text, encoding="utf-8")


def test_a_lowercase_code_is_refused_at_its_line(repo: GitRepo) -> None:
    _write(repo, "domains:\n  pipeline: PL\n  search: sr\n")
    with pytest.raises(InputError, match=r"domains\.search") as caught:
        decision_ids.new(repo.path, "search", dry_run=True)
    assert caught.value.file == REGISTRY.as_posix() and caught.value.line == 3


def test_a_shared_code_is_refused_at_the_line_of_the_second_domain(repo: GitRepo) -> None:
    _write(repo, "domains:\n  pipeline: PL\n  search: PL\n")
    with pytest.raises(ConflictError, match="share code PL") as caught:
        decision_ids.new(repo.path, "search", dry_run=True)
    assert caught.value.file == REGISTRY.as_posix() and caught.value.line == 3


def test_cli_new_refuses_a_malformed_code_and_writes_nothing(repo: GitRepo, cli: Any) -> None:
    _write(repo, "domains:\n  pipeline: PL\n  search: sr\n")
    for extra in (["--dry-run"], ["--title", "Use BM25"]):
        result = cli("decisions", "new", "--domain", "search", *extra, cwd=repo.path)
        assert result.exit_code == 1, result.stdout
        assert f"{REGISTRY.as_posix()}:3:" in result.stderr and "[A-Z]{2}" in result.stderr
        assert "DEC-sr" not in result.stdout + result.stderr
    assert not (repo.path / RECORDS).exists()


def test_cli_classify_refuses_a_malformed_registry_at_its_line(repo: GitRepo, cli: Any) -> None:
    sha = repo.commit("feat(core): pick a store", {"packages/core/s.py": "s\n"})
    _write(repo, "domains:\n  pipeline: pl\n")
    result = cli("mine", "classify", sha, "--decision", "DEC-PL-001", cwd=repo.path)
    assert result.exit_code == 1 and f"{REGISTRY.as_posix()}:2:" in result.stderr
    assert not (repo.path / "registries/changelog/commits_processed.jsonl").exists()
