"""A superseded_by (decisions, truths) or replaced_by (agents) chain must end at an entry that
is current: one replaced by itself, or two replacing each other, leaves nothing current and is an
error (ORK032) at the line the looping reference is written on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import write
from tests.registry.helpers import findings, scaffold

DEC = "registries/decisions/records/DEC-AR-001.yaml"
TRUTHS = "registries/truths/project.yaml"
AGENT = "registries/agents/example-agent.yaml"


def _loops(root: Path) -> list[Any]:
    return [f for f in findings(root) if f.code == "ORK032"]


def _supersede(root: Path, rel: str, by: str, status: str = "superseded") -> None:
    text = (root / rel).read_text(encoding="utf-8")
    text = text.replace("status: active\n", f"status: {status}\nsuperseded_by: {by}\n")
    write(root, rel, text)


def test_a_decision_superseded_by_itself_is_an_error_at_that_line(tmp_path: Path) -> None:
    root = scaffold(tmp_path)
    _supersede(root, DEC, "DEC-AR-001")
    (loop,) = _loops(root)
    assert (loop.file, loop.line, loop.severity) == (DEC, 5, "error")
    assert "DEC-AR-001" in loop.message and "itself" in loop.message


def test_two_decisions_superseding_each_other_are_one_error(tmp_path: Path) -> None:
    root = scaffold(tmp_path)
    text = (root / DEC).read_text(encoding="utf-8")
    write(root, DEC.replace("001", "002"), text.replace("DEC-AR-001", "DEC-AR-002"))
    _supersede(root, DEC, "DEC-AR-002")
    _supersede(root, DEC.replace("001", "002"), "DEC-AR-001")
    (loop,) = _loops(root)
    assert (loop.file, loop.line) == (DEC, 5)
    assert "DEC-AR-002" in loop.message and "DEC-AR-001" in loop.message


def test_a_chain_that_ends_at_a_current_decision_is_fine(tmp_path: Path) -> None:
    root = scaffold(tmp_path)
    text = (root / DEC).read_text(encoding="utf-8")
    write(root, DEC.replace("001", "002"), text.replace("DEC-AR-001", "DEC-AR-002"))
    _supersede(root, DEC, "DEC-AR-002")
    assert _loops(root) == []
    assert not [f for f in findings(root) if f.severity == "error"]


def test_a_truth_deprecated_for_itself_is_an_error(tmp_path: Path) -> None:
    root = scaffold(tmp_path)
    text = (root / TRUTHS).read_text(encoding="utf-8")
    text = text.replace(
        "    status: current\n", "    status: deprecated\n    superseded_by: GT-PRJ-001\n"
    )
    write(root, TRUTHS, text)
    (loop,) = _loops(root)
    assert (loop.file, loop.line) == (TRUTHS, 9)
    assert "GT-PRJ-001" in loop.message


def test_an_agent_replaced_by_itself_is_an_error(tmp_path: Path) -> None:
    root = scaffold(tmp_path)
    text = (root / AGENT).read_text(encoding="utf-8")
    text = text.replace(
        "model: inherit\n", "model: inherit\nstatus: deprecated\nreplaced_by: example-agent\n"
    )
    write(root, AGENT, text)
    (loop,) = _loops(root)
    assert (loop.file, loop.line) == (AGENT, 6)


def test_validate_and_sync_refuse_the_loop(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path)
    _supersede(root, DEC, "DEC-AR-001")
    result = cli("validate", "--format", "json", cwd=root)
    assert result.exit_code == 1
    assert [(f["file"], f["line"], f["code"]) for f in result.json()["findings"]] == [
        (DEC, 5, "ORK032")
    ]
    synced = cli("sync", cwd=root)
    assert synced.exit_code == 1
    assert "ORK032" in synced.stderr
    assert not (root / ".claude").exists()
