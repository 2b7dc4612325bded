"""A core skill's `resources` names a subfolder beside its file, never that folder itself: the
whole folder (this skill's YAML and every other skill's) would be copied into the output."""

from __future__ import annotations

from pathlib import Path

import pytest

from orkestra.registry.loader import load
from orkestra.registry.validate import validate
from orkestra.scaffold import init_project


@pytest.fixture
def project(tmp_path: Path) -> Path:
    init_project(tmp_path)
    return tmp_path


@pytest.mark.parametrize("value", [".", "./", "", "./."])
def test_the_skill_s_own_folder_is_not_a_resources_folder(project: Path, value: str) -> None:
    skill = project / "registries" / "skills" / "project" / "example-skill.yaml"
    skill.write_text(skill.read_text(encoding="utf-8") + f'resources: "{value}"\n', "utf-8")
    findings = [f for f in validate(load(project)).findings if f.code == "ORK002"]
    assert findings and findings[0].file.endswith("example-skill.yaml")
    assert "subfolder" in findings[0].message or "relative path" in findings[0].message


def test_a_subfolder_is_fine(project: Path) -> None:
    skill = project / "registries" / "skills" / "project" / "example-skill.yaml"
    (skill.parent / "example-skill" / "references").mkdir(parents=True)
    skill.write_text(skill.read_text(encoding="utf-8") + "resources: ./example-skill/\n", "utf-8")
    assert not [f for f in validate(load(project)).findings if f.severity == "error"]
