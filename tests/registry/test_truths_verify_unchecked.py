"""`truths verify` never reports ok for what it did not check: a truth file that fails to load
makes it fail naming the file and line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import NotFound
from orkestra.registry.evidence import verify_truths
from orkestra.registry.loader import load
from tests.registry.helpers import scaffold

TRUTHS = "registries/truths/project.yaml"


def _misspell(root: Path) -> None:
    with (root / TRUTHS).open("a", encoding="utf-8") as handle:
        handle.write("    evidance: [typo]\n")


def test_a_truth_file_that_fails_to_load_is_an_error_of_verify(tmp_path: Path) -> None:
    root = scaffold(tmp_path / "p")
    _misspell(root)
    report = verify_truths(load(root))
    assert report["checked"] == 0
    (error,) = report["errors"]
    assert (error["file"], error["code"]) == (TRUTHS, "ORK002") and error["line"]
    assert "evidance" in error["message"]
    with pytest.raises(NotFound, match=f"{TRUTHS}:[0-9]+: error ORK002"):
        verify_truths(load(root), truth_id="GT-PRJ-001")


def test_cli(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path / "p")
    ok = cli("truths", "verify", cwd=root)
    assert ok.exit_code == 0 and ok.json()["errors"] == []
    _misspell(root)
    broken = cli("truths", "verify", cwd=root)
    assert broken.exit_code == 1 and broken.json()["errors"][0]["file"] == TRUTHS
