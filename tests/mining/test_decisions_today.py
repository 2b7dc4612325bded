"""`decisions new` and `update` date a record with the project's one today (ORKESTRA_TODAY)."""

from __future__ import annotations

from typing import Any

import pytest

from orkestra.core.errors import UsageError
from orkestra.mining import decision_ids
from tests.mining.gitrepo import GitRepo
from tests.mining.test_decisions import RECORDS, extract, load


def test_new_and_update_use_orkestra_today(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2020-01-02")
    made = decision_ids.new(repo.path, "pipeline", title="T")
    assert made["record"]["created"] == "2020-01-02"
    sha = repo.commit("feat(core): stage runner", {"packages/core/r.py": "r\n"})
    extract(repo, sha, "DEC-PL-007")
    decision_ids.update(repo.path, "DEC-PL-007")
    assert load(repo.path / RECORDS / "DEC-PL-007.yaml")["created"] == "2020-01-02"


def test_a_bad_orkestra_today_is_a_usage_error_before_any_write(
    repo: GitRepo, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "garbage")
    with pytest.raises(UsageError, match="ORKESTRA_TODAY"):
        decision_ids.new(repo.path, "pipeline", title="T")
    result = cli("decisions", "new", "--domain", "PL", "--title", "T", cwd=repo.path)
    assert result.exit_code == 2 and "ORKESTRA_TODAY='garbage'" in result.stderr
    assert not (repo.path / RECORDS).exists()
