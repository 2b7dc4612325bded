"""docs/findings.md lists exactly the codes of the one table in findings.py."""

from __future__ import annotations

import re
from pathlib import Path

from orkestra.registry.findings import CODES

DOC = Path(__file__).resolve().parents[2] / "docs" / "findings.md"


def test_doc_table_matches_codes() -> None:
    rows = re.findall(
        r"^\| (ORK\d{3}) \| (error|warning) \| (.+) \|$", DOC.read_text(encoding="utf-8"), re.M
    )
    assert {code: (sev, text) for code, sev, text in rows} == CODES
