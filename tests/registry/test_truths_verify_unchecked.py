"""`truths verify` never reports ok for what it did not check: a truth file that fails to load
makes it fail naming the file and line; an anchor on a folder or FIFO, or an empty path, is
`invalid` with the reason."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import NotFound
from orkestra.registry.evidence import check_evidence, verify_truths
from orkestra.registry.loader import load
from tests.conftest import write
from tests.registry.helpers import scaffold

TRUTHS = "registries/truths/project.yaml"


@pytest.mark.parametrize("evidence", ["", "#anything", ":symbol", "  #x"])
def test_an_empty_path_is_invalid(tmp_path: Path, evidence: str) -> None:
    result = check_evidence(tmp_path, evidence)
    assert result["status"] == "invalid" and "path is empty" in result["reason"]


def test_an_anchor_on_a_folder_or_fifo_is_invalid(tmp_path: Path) -> None:
    write(tmp_path, "docs/x.md", "# Title\n")
    assert check_evidence(tmp_path, "docs")["status"] == "ok"  # a folder may be evidence
    for evidence in ("docs#title", "docs:Title"):
        result = check_evidence(tmp_path, evidence)
        assert result["status"] == "invalid" and "'docs' is a folder" in result["reason"]
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe")
        result = check_evidence(tmp_path, "pipe#x")  # never opened: reading it would block
        assert result["status"] == "invalid" and "not a regular file" in result["reason"]


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


def test_an_error_that_leaves_no_truth_out_is_no_load_error_of_verify(tmp_path: Path) -> None:
    # a folder named like a truth file is reported by validate (ORK004), but no truth is missing
    root = scaffold(tmp_path / "p")
    (root / "registries/truths/notes.yaml").mkdir()
    registry = load(root)
    assert any(f.code == "ORK004" for f in registry.findings)
    report = verify_truths(registry)
    assert report["errors"] == [] and report["checked"] >= 1


def test_cli(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path / "p")
    ok = cli("truths", "verify", cwd=root)
    assert ok.exit_code == 0 and ok.json()["errors"] == []
    text = (root / TRUTHS).read_text(encoding="utf-8")
    (root / TRUTHS).write_text(
        text.replace("- registries/orkestra.yaml", "- 'registries#heading'"), encoding="utf-8"
    )
    result = cli("truths", "verify", cwd=root)
    assert result.exit_code == 1 and result.json()["failing"] == ["GT-PRJ-001"]
    assert result.json()["truths"][0]["evidence"][0]["status"] == "invalid"
    _misspell(root)
    broken = cli("truths", "verify", cwd=root)
    assert broken.exit_code == 1 and broken.json()["errors"][0]["file"] == TRUTHS


def test_validate_warns_about_an_empty_evidence_path(tmp_path: Path) -> None:
    from tests.registry.helpers import findings

    root = scaffold(tmp_path / "p")
    text = (root / TRUTHS).read_text(encoding="utf-8")
    (root / TRUTHS).write_text(
        text.replace("- registries/orkestra.yaml", "- '#anything'"), encoding="utf-8"
    )
    (found,) = [f for f in findings(root) if f.code == "ORK105"]
    assert "'#anything' names no file (empty path)" in found.message
