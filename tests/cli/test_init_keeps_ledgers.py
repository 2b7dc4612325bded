"""`init --force` rewrites the scaffold but never the append-only ledgers (history)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.scaffold import LEDGERS, init_project

LINE = '{"id": "c-1", "sha": "abc1234", "domain": "decisions", "action": "skip"}\n'


def _history(root: Path) -> None:
    for rel in LEDGERS:
        (root / rel).write_text(LINE, encoding="utf-8")


def test_force_keeps_existing_ledgers(tmp_path: Path) -> None:
    init_project(tmp_path)
    _history(tmp_path)
    result = init_project(tmp_path, force=True)
    assert result.kept == list(LEDGERS)
    assert not set(LEDGERS) & {*result.overwritten, *result.created}
    assert all((tmp_path / rel).read_text(encoding="utf-8") == LINE for rel in LEDGERS)
    assert "registries/orkestra.yaml" in result.overwritten


def test_a_missing_ledger_is_created(tmp_path: Path) -> None:
    init_project(tmp_path)
    (tmp_path / LEDGERS[1]).unlink()
    result = init_project(tmp_path, force=True)
    assert result.kept == [LEDGERS[0]] and LEDGERS[1] in result.created


def test_cli_init_force(tmp_path: Path, cli: Any) -> None:
    assert cli("init", str(tmp_path)).exit_code == 0
    _history(tmp_path)
    again = cli("init", str(tmp_path), "--force")
    assert again.exit_code == 0 and again.json()["kept"] == list(LEDGERS)
    assert all((tmp_path / rel).read_text(encoding="utf-8") == LINE for rel in LEDGERS)
