"""The loader and vendor overlays: the overlay is the allow-list; no overlay keeps the old behaviour."""

from __future__ import annotations

from pathlib import Path

from orkestra.registry.loader import load
from tests.conftest import write

SKILL = (
    "---\nname: {n}\ndescription: Tidy tables. Use when the user asks to tidy a table.\n---\nbody\n"
)
ROOT = "project: demo\nvendor_roots:\n  - {path: vendor/acme, provider: acme, layer: K2}\n"


def test_without_overlay_every_skill_of_the_root_loads(project: Path) -> None:
    write(project, "registries/orkestra.yaml", ROOT)
    for name in ("one", "two"):
        write(project, f"vendor/acme/{name}/SKILL.md", SKILL.format(n=name))
    reg = load(project)
    assert sorted(n for n, s in reg.skills.items() if s.source == "vendor") == ["one", "two"]
    assert reg.skills["one"].layer == "K2"


def test_overlay_allows_only_listed_skills_and_nested_paths(project: Path) -> None:
    write(project, "registries/orkestra.yaml", ROOT)
    write(project, "vendor/acme/one/SKILL.md", SKILL.format(n="one"))
    write(project, "vendor/acme/group/deep/SKILL.md", SKILL.format(n="deep"))
    write(
        project,
        "registries/vendor/acme.yaml",
        "provider: acme\nskills:\n  deep:\n    path: vendor/acme/group/deep\n    layer: K3\n"
        "    type: checklist\n    tags: [tables]\n    allowed_tools: ['Bash(git diff:*)', Read]\n",
    )
    reg = load(project)
    assert reg.findings == []
    vendor = {n: s for n, s in reg.skills.items() if s.source == "vendor"}
    assert list(vendor) == ["deep"]
    deep = vendor["deep"]
    assert (deep.layer, deep.type, deep.tags) == ("K3", "checklist", ("tables",))
    assert deep.allowed_tools == ("Bash(git diff:*)", "Read")
    assert deep.folder == "vendor/acme/group/deep"


def test_overlay_entry_whose_folder_is_gone(project: Path) -> None:
    write(project, "registries/orkestra.yaml", ROOT)
    (project / "vendor/acme").mkdir(parents=True)
    write(
        project,
        "registries/vendor/acme.yaml",
        "provider: acme\nskills:\n  gone:\n    path: vendor/acme/gone\n    layer: K3\n",
    )
    reg = load(project)
    assert [(f.code, f.file) for f in reg.findings] == [("ORK041", "vendor/acme/gone/SKILL.md")]


def test_overlay_entries_of_another_root_are_ignored(project: Path) -> None:
    write(project, "registries/orkestra.yaml", ROOT)
    write(project, "vendor/acme/one/SKILL.md", SKILL.format(n="one"))
    write(project, "vendor/other/two/SKILL.md", SKILL.format(n="two"))
    write(
        project,
        "registries/vendor/acme.yaml",
        "provider: acme\nskills:\n  two:\n    path: vendor/other/two\n    layer: K3\n",
    )
    assert "two" not in load(project).skills
