"""`decisions update` and `renumber` never write over a record file that holds another id."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import ConflictError, WriteFailed
from orkestra.mining import decision_ids
from orkestra.mining.renumber import renumber
from orkestra.registry import ledger
from tests.mining.gitrepo import GitRepo
from tests.mining.test_decisions import RECORDS, extract, load, record


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (root / RECORDS).iterdir()}


def test_update_refuses_a_file_at_the_pending_ids_name_holding_another_id(repo: GitRepo) -> None:
    sha = repo.commit("feat(core): stage runner", {"packages/core/r.py": "r\n"})
    extract(repo, sha, "DEC-PL-005")
    record(repo.path, "DEC-PL-005", "DEC-PL-006", title="Precious")  # id typo'd
    before = _snapshot(repo.path)
    with pytest.raises(ConflictError) as info:
        decision_ids.update(repo.path, "DEC-PL-005")
    assert info.value.file == f"{RECORDS}/DEC-PL-005.yaml"
    assert (
        "holds id DEC-PL-006" in info.value.message and "nothing was written" in info.value.message
    )
    assert _snapshot(repo.path) == before
    assert len(ledger.entries(repo.path / ledger.CLASSIFICATIONS)) == 1


def test_renumber_to_an_id_whose_file_holds_another_id_is_refused(repo: GitRepo) -> None:
    record(repo.path, "DEC-PL-001", "DEC-PL-001")
    record(repo.path, "DEC-PL-003", "DEC-PL-004", title="Precious")
    before = _snapshot(repo.path)
    with pytest.raises(ConflictError, match="is in the way") as info:
        renumber(repo.path, "DEC-PL-001", to="DEC-PL-003")
    assert info.value.file == f"{RECORDS}/DEC-PL-003.yaml"
    assert _snapshot(repo.path) == before


def test_next_id_skips_a_number_a_file_name_holds(repo: GitRepo) -> None:
    """Two files hold DEC-PL-001 (a copy whose id was not bumped, saved as DEC-PL-002.yaml):
    the next free id is DEC-PL-003, so renumbering never lands on the copy's file."""
    record(repo.path, "DEC-PL-001", "DEC-PL-001")
    record(repo.path, "DEC-PL-002", "DEC-PL-001", title="Precious")
    assert decision_ids.next_id(repo.path, "PL") == "DEC-PL-003"
    result = renumber(repo.path, "DEC-PL-001", file=f"{RECORDS}/DEC-PL-001.yaml")
    assert result["file"] == f"{RECORDS}/DEC-PL-003.yaml"
    assert "Precious" in (repo.path / RECORDS / "DEC-PL-002.yaml").read_text(encoding="utf-8")
    # the copy itself may take the id its own file name gives
    moved = renumber(repo.path, "DEC-PL-001", file=f"{RECORDS}/DEC-PL-002.yaml", to="DEC-PL-002")
    assert moved["file"] == f"{RECORDS}/DEC-PL-002.yaml"


def test_cli_update_refuses_with_exit_1(repo: GitRepo, cli: Any) -> None:
    sha = repo.commit("feat(core): stage runner", {"packages/core/r.py": "r\n"})
    extract(repo, sha, "DEC-PL-005")
    record(repo.path, "DEC-PL-005", "DEC-PL-006", title="Precious")
    before = _snapshot(repo.path)
    result = cli("decisions", "update", "DEC-PL-005", "--format", "json", cwd=repo.path)
    assert result.exit_code == 1
    assert "DEC-PL-005.yaml" in result.stderr and "is in the way" in result.stderr
    assert _snapshot(repo.path) == before


def test_new_takes_the_next_id_when_its_record_file_appears_meanwhile(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another run creates DEC-PL-001.yaml between this run's allocation and its write: the
    other record is kept and this one becomes DEC-PL-002."""
    from orkestra.core import safewrite

    stage = safewrite._stage
    other = repo.path / RECORDS / "DEC-PL-001.yaml"

    def racing(full: str, rel: str, make: Any) -> str:
        tmp = stage(full, rel, make)
        if not other.exists():
            record(repo.path, "DEC-PL-001", "DEC-PL-001", title="The other run's")
        return tmp

    monkeypatch.setattr(safewrite, "_stage", racing)
    result = decision_ids.new(repo.path, "pipeline", title="Mine")
    assert result["id"] == "DEC-PL-002" and result["file"] == f"{RECORDS}/DEC-PL-002.yaml"
    assert "The other run's" in other.read_text(encoding="utf-8")
    assert "Mine" in (repo.path / RECORDS / "DEC-PL-002.yaml").read_text(encoding="utf-8")
    assert sorted(_snapshot(repo.path)) == ["DEC-PL-001.yaml", "DEC-PL-002.yaml"]


def test_concurrent_cli_runs_of_new_each_get_their_own_id(repo: GitRepo) -> None:
    import json
    import subprocess
    import sys

    import orkestra

    env = os.environ | {"PYTHONPATH": str(Path(orkestra.__file__).parents[1]), "NO_COLOR": "1"}
    args = [sys.executable, "-m", "orkestra", "decisions", "new", "--domain", "PL", "--title"]
    runs = [
        subprocess.Popen([*args, f"T{i}"], cwd=repo.path, env=env, stdout=subprocess.PIPE)
        for i in range(4)
    ]
    ids = [json.loads(run.communicate()[0])["id"] for run in runs]
    assert all(run.returncode == 0 for run in runs)
    assert sorted(ids) == [f"DEC-PL-00{i}" for i in range(1, 5)]
    titles = {load(p)["title"] for p in (repo.path / RECORDS).iterdir()}
    assert titles == {f"T{i}" for i in range(4)}


def _ledger_fails(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
    def failing(*_: object) -> None:
        raise error

    monkeypatch.setattr(ledger, "append", failing)


@pytest.mark.parametrize(
    "error",
    [
        WriteFailed("cannot append to 'x': No space left on device", file="x"),
        PermissionError(13, "Permission denied", "registries/changelog/commits_processed.jsonl"),
    ],
)
def test_new_with_commits_leaves_no_record_when_the_ledger_cannot_be_written(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    sha = repo.commit("feat(core): adopt DuckDB", {"packages/core/db.py": "d\n"})
    _ledger_fails(monkeypatch, error)
    with pytest.raises(type(error)) as info:
        decision_ids.new(repo.path, "pipeline", commits=[sha])
    if isinstance(info.value, WriteFailed):
        assert "DEC-PL-001.yaml was removed again, nothing was written" in info.value.message
    assert _snapshot(repo.path) == {}
    monkeypatch.undo()
    again = decision_ids.new(repo.path, "pipeline", commits=[sha])
    assert again["id"] == "DEC-PL-001" and again["ledger"] == 1
    assert sorted(_snapshot(repo.path)) == ["DEC-PL-001.yaml"]


def test_update_removes_the_record_it_created_when_the_ledger_fails(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = repo.commit("feat(core): stage runner", {"packages/core/r.py": "r\n"})
    b = repo.commit("fix(core): runner retries", {"packages/core/r.py": "r2\n"})
    extract(repo, a, "DEC-PL-003")
    _ledger_fails(monkeypatch, WriteFailed("cannot append", file="x"))
    with pytest.raises(WriteFailed, match="removed again"):
        decision_ids.update(repo.path, "DEC-PL-003", [b])
    assert not (repo.path / RECORDS / "DEC-PL-003.yaml").exists()


def test_cli_new_with_a_failing_ledger_exits_1_and_writes_nothing(
    repo: GitRepo, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    sha = repo.commit("feat(core): adopt DuckDB", {"packages/core/db.py": "d\n"})
    _ledger_fails(monkeypatch, WriteFailed("cannot append to the ledger", file="x"))
    result = cli("decisions", "new", "--domain", "PL", "--commit", sha, cwd=repo.path)
    assert result.exit_code == 1 and "removed again, nothing was written" in result.stderr
    assert not (repo.path / RECORDS).exists() or _snapshot(repo.path) == {}
