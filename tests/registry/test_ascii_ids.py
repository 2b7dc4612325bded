"""Ids and names are ASCII and whole: `\\d` takes any script's digits and Python's `$` lets a
final newline through, so look-alike ids (`GT-PRJ-００１`) and `"evil\\n"` must be refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from orkestra.knowledge.links import DECISION_ID, TRUTH_ID
from orkestra.mining.decision_ids import ID_RE, STEM_RE
from orkestra.registry.models.decisions import DecisionId
from orkestra.registry.models.names import name_problem
from orkestra.registry.models.truths import TruthId
from orkestra.scaffold import init_project
from tests.registry.helpers import findings

FULLWIDTH = "\uff10\uff10\uff11"  # ００１
ARABIC = "\u0660\u0660\u0662"  # ٠٠٢


@pytest.mark.parametrize("digits", [FULLWIDTH, ARABIC])
def test_ids_with_other_scripts_digits_are_refused(digits: str) -> None:
    for adapter, value in [(DecisionId, f"DEC-AR-{digits}"), (TruthId, f"GT-PRJ-{digits}")]:
        with pytest.raises(ValidationError):
            TypeAdapter(adapter).validate_python(value)
    for rx in (ID_RE, STEM_RE, DECISION_ID):
        assert rx.match(f"DEC-AR-{digits}") is None
    assert TRUTH_ID.match(f"GT-PRJ-{digits}") is None


def test_a_trailing_newline_is_not_part_of_a_valid_id_or_name() -> None:
    for rx, value in [(ID_RE, "DEC-AR-001"), (STEM_RE, "DEC-AR-001"), (DECISION_ID, "DEC-AR-001")]:
        assert rx.match(value) and not rx.match(f"{value}\n")
    assert TRUTH_ID.match("GT-PRJ-001") and not TRUTH_ID.match("GT-PRJ-001\n")
    assert name_problem("evil") is None
    assert name_problem("evil\n") is not None


def test_validate_reports_look_alike_ids_and_a_name_with_a_newline(
    tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    root = tmp_path / "p"
    init_project(root)
    records = root / "registries/decisions/records"
    twin = f"DEC-AR-{FULLWIDTH}"
    text = (records / "DEC-AR-001.yaml").read_text(encoding="utf-8")
    (records / f"{twin}.yaml").write_text(text.replace("DEC-AR-001", twin), encoding="utf-8")
    with (root / "registries/characters/identities.yaml").open("a", encoding="utf-8") as handle:
        handle.write('"evil\\n":\n  description: d\n  guidance: g\n')
    found = [(f.file, f.code) for f in findings(root) if f.severity == "error"]
    assert (f"registries/decisions/records/{twin}.yaml", "ORK002") in found
    assert ("registries/characters/identities.yaml", "ORK002") in found
    result = cli("validate", cwd=root)
    assert result.exit_code == 1 and "[0-9]{3,}" in result.stdout and "'evil\\n'" in result.stdout
