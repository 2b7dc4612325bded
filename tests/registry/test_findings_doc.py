"""docs/findings.md is generated from the one table of codes in findings.py."""

from __future__ import annotations

from pathlib import Path

from orkestra.registry.findings import CODES, markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "findings.md"


def test_doc_is_generated_from_codes() -> None:
    assert DOC.read_text(encoding="utf-8") == markdown(), (
        "regenerate: python -m orkestra.registry.findings > docs/findings.md"
    )
    assert all(f"| {code} |" in markdown() for code in CODES)
