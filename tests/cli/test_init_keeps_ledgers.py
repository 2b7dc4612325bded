"""`init --force` creates the missing example files and never overwrites an existing one: not
the append-only ledgers (history), not a registry file the user edited."""

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
    assert not set(LEDGERS) & set(result.created)
    assert all((tmp_path / rel).read_text(encoding="utf-8") == LINE for rel in LEDGERS)
    assert "registries/orkestra.yaml" in result.unchanged


def test_a_missing_ledger_is_created(tmp_path: Path) -> None:
    init_project(tmp_path)
    (tmp_path / LEDGERS[1]).unlink()
    result = init_project(tmp_path, force=True)
    assert result.created == [LEDGERS[1]] and LEDGERS[0] in result.unchanged


def test_cli_init_force(tmp_path: Path, cli: Any) -> None:
    assert cli("init", str(tmp_path)).exit_code == 0
    _history(tmp_path)
    again = cli("init", str(tmp_path), "--force")
    assert again.exit_code == 0 and again.json()["kept"] == list(LEDGERS)
    assert all((tmp_path / rel).read_text(encoding="utf-8") == LINE for rel in LEDGERS)


def test_force_keeps_a_registry_file_the_user_edited_and_creates_the_missing_ones(
    tmp_path: Path, cli: Any
) -> None:
    """`init --force` wrote every example over the project's files: a team's orkestra.yaml and
    their agent (the example renamed in place) were lost. It now creates only what is missing."""
    init_project(tmp_path)
    config = tmp_path / "registries/orkestra.yaml"
    mine = config.read_text(encoding="utf-8") + "# team settings\n"
    config.write_text(mine, encoding="utf-8")
    (tmp_path / "registries/values.yaml").unlink()
    before = (tmp_path / "registries/tools.yaml").stat().st_mtime_ns
    forced = cli("init", str(tmp_path), "--force")
    assert forced.exit_code == 0, forced.stderr
    data = forced.json()
    assert data["created"] == ["registries/values.yaml"] and data["kept"] == [
        "registries/orkestra.yaml"]  # fmt: skip
    assert "registries/tools.yaml" in data["unchanged"]
    assert config.read_text(encoding="utf-8") == mine
    assert (tmp_path / "registries/tools.yaml").stat().st_mtime_ns == before
    assert "keep every existing one" in cli("init", "--help").stdout
