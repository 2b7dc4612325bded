"""Skills adopted by `skills intake --apply` render (§3.4), and intake and `validate` agree on what
a trigger phrase is (one test, `registry.models.skills.trigger_phrase`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import yamlio
from orkestra.intake import criteria as crit
from orkestra.intake.rules import default_rules
from orkestra.intake.spec import check
from orkestra.registry.loader import load
from orkestra.registry.validate import validate
from orkestra.scaffold import init_project
from tests.conftest import write

SKILL = """---
name: tidy-tables
description: Tidy markdown tables. Use this when the user asks to tidy or align a table.
---
# Tidy tables

## Steps
1. Align the columns.

## Examples
`python scripts/tidy.py FILE` aligns FILE in place.
"""


def test_adopted_vendor_skills_render_without_an_agent_declaring_them(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    root = tmp_path / "proj"
    init_project(root)
    write(root, "vendor/acme/tidy-tables/SKILL.md", SKILL)
    write(root, "vendor/acme/tidy-tables/scripts/tidy.py", "# usage: python scripts/tidy.py FILE\n")
    applied = cli("skills", "intake", "vendor/acme", "--provider", "acme", "--apply", cwd=root)
    assert applied.exit_code == 0, applied.stderr
    assert applied.json()["applied"]["added"] == ["tidy-tables"]
    assert load(root).dormant_skills() == []  # in no scope: rendered for the main session
    assert cli("validate", "--strict", cwd=root).exit_code == 0
    assert cli("sync", cwd=root).exit_code == 0
    assert (root / ".claude/skills/tidy-tables/SKILL.md").is_file()


DESCRIPTIONS = [
    "Tidy markdown tables. Use this when the user asks to tidy or align a table.",
    "Tidy markdown tables. Use when a table in a markdown file is misaligned.",
    "Tidy markdown tables. Use for any markdown table that needs its columns aligned.",
    "Tidy markdown tables. When you need aligned columns in a markdown document.",
    "Tidy markdown tables. Use PROACTIVELY after editing a markdown file with tables.",
    "Tidy markdown tables in any document, aligning every column and header cell.",
    "A tool for tables: it aligns columns, pads cells and keeps the header separator.",
]


@pytest.mark.parametrize("description", DESCRIPTIONS)
def test_intake_and_validate_agree_on_the_trigger_phrase(tmp_path: Path, description: str) -> None:
    root = tmp_path / "proj"
    init_project(root)
    skill = yamlio.load_mapping(root / "registries/skills/project/example-skill.yaml")
    skill = {**skill, "metadata": {**skill["metadata"], "description": description}}
    write(root, "registries/skills/project/example-skill.yaml", yamlio.dumps(skill))
    ork102 = any(f.code == "ORK102" for f in validate(load(root)).findings)
    spec = check(f"---\nname: a\ndescription: {json.dumps(description)}\n---\nbody\n", "a")
    assert spec.valid, spec.errors
    well = crit.well_structured(spec, default_rules())
    assert ork102 == (not well.passed), (description, well.evidence)
    assert ork102 == (DESCRIPTIONS.index(description) >= 5)
