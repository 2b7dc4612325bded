"""Windows device names are refused for domain folders and truth files too (§13)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.registry.helpers import findings, scaffold


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    return scaffold(tmp_path / "p")


@pytest.mark.parametrize("name", ["com1", "Nul", "lpt9"])
def test_a_domain_folder_named_after_a_device_is_an_error(root: Path, name: str) -> None:
    domains = root / "registries/domains"
    shutil.copytree(domains / "example", domains / name)
    found = [(f.file, f.code) for f in findings(root) if "Windows device name" in f.message]
    assert found == [(f"registries/domains/{name}", "ORK002")]


def test_a_truth_file_named_after_a_device_is_an_error(root: Path, cli: Any) -> None:
    truths = root / "registries/truths"
    text = (truths / "project.yaml").read_text(encoding="utf-8").replace("GT-PRJ", "GT-PRN")
    (truths / "prn.yaml").write_text(text, encoding="utf-8")
    found = [(f.file, f.code) for f in findings(root) if "Windows device name" in f.message]
    assert found == [("registries/truths/prn.yaml", "ORK002")]
    result = cli("validate", cwd=root)
    assert result.exit_code == 1 and "registries/truths/prn.yaml: error ORK002" in result.stdout


def test_ordinary_names_pass(root: Path) -> None:
    assert not [f for f in findings(root) if "device" in f.message]
