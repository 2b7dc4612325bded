"""A release note whose `date` is not a calendar date (`2099-13-45`, a hand edit gone wrong) is
reported by `mine validate` (ORK062, a warning: versions take their dates from tags); it was
not reported at all."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from orkestra.registry import ledger
from orkestra.registry.ledger_check import check
from tests.mining.gitrepo import GitRepo


def _edit_note(root: Path, **changes: Any) -> None:
    path = root / ledger.RELEASE_NOTES
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[0] = json.dumps(json.loads(lines[0]) | changes)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("date", ["2099-13-45", "2026-02-30", "yesterday", "20260101"])
def test_a_release_note_date_that_is_no_date_is_reported(
    released: GitRepo, cli: Any, date: str
) -> None:
    _edit_note(released.path, date=date)
    (finding,) = [f for f in check(released.path, set(), None) if f.code == "ORK062"]
    assert finding.severity == "warning" and finding.line == 1 and repr(date) in finding.message
    result = cli("mine", "validate", "--quick", "--format", "json", cwd=released.path)
    codes = [f["code"] for f in result.json()["findings"]]
    assert codes == ["ORK062"]


def test_a_real_date_is_not_reported(released: GitRepo) -> None:
    assert [f.code for f in check(released.path, set(), None)] == []
