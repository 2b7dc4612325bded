"""A project root named by ORKESTRA_ROOT is reported as that variable, not as --root."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


def test_a_bad_orkestra_root_is_named_as_the_variable(
    tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "nonexistent"
    monkeypatch.setenv("ORKESTRA_ROOT", str(missing))
    result = cli("agents", "list", cwd=tmp_path)
    assert result.exit_code == 1
    assert f"ORKESTRA_ROOT {missing}: no registries/ folder" in result.stderr
    assert "--root" not in result.stderr
    given = cli("--root", str(missing), "agents", "list", cwd=tmp_path)
    assert given.exit_code == 1 and f"--root {missing}: no registries/" in given.stderr


def test_orkestra_root_still_picks_the_project(
    project: Path, tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.setenv("ORKESTRA_ROOT", str(project))
    result = cli("agents", "list", cwd=elsewhere)
    assert result.exit_code == 0 and result.json()["total"] == 0
