"""An empty release-note summary is reported as "must not be empty" (it was pydantic's "Value
should have at least 1 item after validation"); a blank `--summary` is no summary (the commit's
subject), not that error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from orkestra.registry import ledger
from orkestra.registry.ledger_check import check
from tests.mining.gitrepo import GitRepo


def _edit_note(root: Path, **changes: Any) -> None:
    path = root / ledger.RELEASE_NOTES
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[0] = json.dumps(json.loads(lines[0]) | changes)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_an_empty_summary_is_named_as_such(released: GitRepo, cli: Any) -> None:
    _edit_note(released.path, summary="")
    (finding,) = [f for f in check(released.path, set(), None) if f.code == "ORK050"]
    assert finding.message.startswith("summary: must not be empty; it is ignored")
    result = cli("mine", "validate", "--quick", cwd=released.path)
    assert result.exit_code == 1
    assert "summary: must not be empty" in result.stdout and "item" not in result.stdout


def test_a_blank_summary_flag_takes_the_commit_subject(repo: GitRepo, cli: Any) -> None:
    sha = repo.commit("feat(core): a ranked search", {"packages/core/s.py": "s\n"})
    result = cli("mine", "classify", sha, "--changelog", "added", "--summary", "   ", cwd=repo.path)
    assert result.exit_code == 0, result.stderr
    (line,) = (repo.path / ledger.RELEASE_NOTES).read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["summary"] == "A ranked search"
