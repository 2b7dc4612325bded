"""§5: a list's `total` counts every match; `--limit` cuts the list, not the total (the MCP
`list` tool already answered so, while `decisions list` and `mine candidates` counted the rows
they kept)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.core.output import listing
from tests.mining.gitrepo import GitRepo


def test_the_envelope_total_is_the_rows_unless_a_total_is_given() -> None:
    assert listing("x", [1, 2]) == {"x": [1, 2], "total": 2}
    assert listing("x", [1], total=5) == {"x": [1], "total": 5}


@pytest.fixture
def proj(tmp_path: Path, cli: Any) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    assert cli("init", str(root)).exit_code == 0
    records = root / "registries" / "decisions" / "records"
    first = (records / "DEC-AR-001.yaml").read_text(encoding="utf-8")
    for number in (2, 3):
        (records / f"DEC-AR-00{number}.yaml").write_text(
            first.replace("DEC-AR-001", f"DEC-AR-00{number}").replace(
                "'2026-12-07'", f"'2026-12-1{number}'"
            ),
            encoding="utf-8",
        )
    return root


def test_decisions_list_counts_past_its_limit(proj: Path, cli: Any) -> None:
    every = cli("decisions", "list", cwd=proj).json()
    assert every["total"] == 3 and len(every["decisions"]) == 3
    cut = cli("decisions", "list", "--limit", "1", cwd=proj).json()
    assert cut["total"] == 3
    assert [d["id"] for d in cut["decisions"]] == ["DEC-AR-003"]  # newest first
    assert cli("decisions", "list", "--limit", "0", cwd=proj).exit_code == 2


def test_mine_candidates_counts_every_unclassified_commit(tmp_path: Path, cli: Any) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    assert cli("init", str(root)).exit_code == 0
    repo = GitRepo(root)
    subjects = [f"feat(core): step {n}" for n in range(7)]
    for subject in subjects:
        repo.commit(subject)
    every = cli("mine", "candidates", "--limit", "500", cwd=root).json()
    cut = cli("mine", "candidates", "--limit", "2", cwd=root).json()
    assert every["total"] == len(every["candidates"]) >= 7
    assert cut["total"] == every["total"]
    assert [c["subject"] for c in cut["candidates"]] == subjects[:-3:-1]


@pytest.mark.parametrize("kind", ["agents", "skills", "decisions", "scopes"])
def test_a_table_list_names_its_kind_once(proj: Path, cli: Any, kind: str) -> None:
    result = cli(kind, "list", "--format", "table", cwd=proj)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == kind
    assert [line.strip() for line in lines].count(kind) == 1
