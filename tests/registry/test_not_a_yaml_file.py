"""A `*.yaml` name in a registry folder that is no file (a folder, a FIFO, a dangling symlink)
is reported, never silently skipped."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.registry.helpers import findings, scaffold


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    return scaffold(tmp_path / "p")


def _found(root: Path) -> dict[str, str]:
    return {f.file: f.message for f in findings(root) if f.code == "ORK004"}


def test_a_folder_and_a_dangling_symlink_named_yaml_are_reported(root: Path) -> None:
    agents = root / "registries/agents"
    (agents / "dir.yaml").mkdir()
    (agents / "gone.yaml").symlink_to(root / "nowhere.yaml")
    (root / "registries/truths/sub.yml").mkdir()
    found = _found(root)
    assert "is a folder: it is not read" in found["registries/agents/dir.yaml"]
    assert "symlink to nothing" in found["registries/agents/gone.yaml"]
    assert "registries/truths/sub.yml" in found


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_reported_and_never_opened(root: Path, cli: Any) -> None:
    os.mkfifo(root / "registries/agents/pipe.yaml")
    result = cli("validate", cwd=root)
    assert result.exit_code == 1
    assert "registries/agents/pipe.yaml: error ORK004:" in result.stdout
    assert "not a regular file" in result.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_symlink_to_a_fifo_is_not_called_dangling(root: Path) -> None:
    os.mkfifo(root / "pipe")
    (root / "registries/agents/pipe.yaml").symlink_to(root / "pipe")
    message = _found(root)["registries/agents/pipe.yaml"]
    assert "a symlink to something that is not a regular file" in message
    assert "missing" not in message


def test_regular_files_are_not_reported(root: Path) -> None:
    assert _found(root) == {}


def test_an_orkestra_yaml_that_is_a_folder_is_not_called_missing(root: Path) -> None:
    config = root / "registries/orkestra.yaml"
    config.unlink()
    config.mkdir()
    (message,) = [f.message for f in findings(root) if f.code == "ORK005"]
    assert message == "orkestra.yaml is a folder: it is not read; replace it with a YAML file"


@pytest.mark.parametrize(
    ("config", "line"),
    [("project: p\nknowledge:\n  commit: 1\n", 3), ("project: |\n  p\n", 1)],
)
def test_a_config_the_hooks_cannot_read_is_a_warning_naming_the_line(
    root: Path, config: str, line: int
) -> None:
    (root / "registries/orkestra.yaml").write_text(config, encoding="utf-8")
    found = [f for f in findings(root) if f.code == "ORK114"]
    assert [(f.file, f.line, f.severity) for f in found] == [
        ("registries/orkestra.yaml", line, "warning")
    ]
    assert "knowledge hooks stay off" in found[0].message


def test_a_plain_config_has_no_hooks_warning(root: Path) -> None:
    (root / "registries/orkestra.yaml").write_text(
        "project: p\nknowledge:\n  commit: yes\n  verified_max_age_days: 30\n", encoding="utf-8"
    )
    assert [f for f in findings(root) if f.code == "ORK114"] == []


SINGLE_FILES = (
    "registries/values.yaml",
    "registries/tools.yaml",
    "registries/mcp.yaml",
    "registries/scopes.yaml",
    "registries/characters/identities.yaml",
    "registries/decisions/registry.yaml",
)


@pytest.mark.parametrize("rel", SINGLE_FILES)
def test_a_single_registry_file_that_is_a_folder_is_reported(root: Path, rel: str) -> None:
    """`registries/tools.yaml` as a folder was skipped without a word: every tool then read as
    unknown ("register it in registries/tools.yaml"), and a values.yaml folder passed clean."""
    path = root / rel
    if path.exists():
        path.unlink()
    path.mkdir()
    assert "is a folder: it is not read" in _found(root)[rel]


def test_a_single_registry_file_that_is_a_dangling_symlink_is_reported(
    root: Path, cli: Any
) -> None:
    (root / "registries/values.yaml").unlink()
    (root / "registries/values.yaml").symlink_to(root / "shared-values.yaml")
    assert "symlink to nothing" in _found(root)["registries/values.yaml"]
    status = cli("system", "status", cwd=root)
    assert status.exit_code == 1
    assert status.json()["validation"]["findings"][0]["file"] == "registries/values.yaml"
