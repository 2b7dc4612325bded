"""Import safety, collisions, tools.yaml additions, dry run, and the CLI."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import yamlio
from orkestra.core.errors import NotFound, UnsafePathError, UsageError
from orkestra.importer.parse import split_sections
from orkestra.importer.run import import_tree
from orkestra.importer.walk import MAX_MARKDOWN
from orkestra.registry.frontmatter_values import split_tools
from orkestra.render.sync import sync
from tests.conftest import write

AGENT = "---\nname: {name}\ndescription: Agent {name}.\ntools: Read\n---\nBody of {name}.\n"


def _files(root: Path) -> dict[str, bytes]:
    """Every project file below root; `.orkestra/` holds derived caches, not project files."""
    out = {}
    for dirpath, _, names in os.walk(root):
        if ".orkestra" in Path(dirpath).relative_to(root).parts:
            continue
        for name in names:
            path = Path(dirpath) / name
            out[path.relative_to(root).as_posix()] = path.read_bytes()
    return out


def test_dry_run_prints_the_plan_and_writes_nothing(market: Path, target: Path) -> None:
    before = _files(target)
    report = import_tree(target, market, dry_run=True)
    assert [a["name"] for a in report.agents] == [
        "local",
        "code-reviewer",
        "lead-orchestrator",
        "thinker",
        "db-expert",
    ]
    assert {s["name"] for s in report.skills} == {"pdf-tools", "review-checklist"}
    assert report.written == [] and report.validation is None
    assert _files(target) == before


def test_unknown_frontmatter_is_kept_and_reported(market: Path, target: Path) -> None:
    report = import_tree(target, market)
    reviewer = next(a for a in report.agents if a["name"] == "code-reviewer")
    assert reviewer["kept_frontmatter"] == ["color", "permissionMode"]
    data = yamlio.load_mapping(target / "registries/agents/code-reviewer.yaml")
    assert data["frontmatter_extra"] == {"color": "magenta", "permissionMode": "plan"}
    pdf = next(s for s in report.skills if s["name"] == "pdf-tools")
    assert pdf["kept_frontmatter"] == ["argument-hint", "author"] and pdf["resources"] == 2


def test_collisions_are_reported_never_overwritten(market: Path, target: Path) -> None:
    write(market, "plugins/delta/agents/dup.md", AGENT.format(name="code-reviewer"))
    write(market, "plugins/delta/agents/example.md", AGENT.format(name="example-agent"))
    original = (target / "registries/agents/example-agent.yaml").read_bytes()
    report = import_tree(target, market)
    collisions = {(c["name"], c["from"]) for c in report.collisions}
    assert collisions == {("example-agent", "plugins/delta/agents/example.md")}
    existing = {c["name"]: c["existing"] for c in report.collisions}
    assert existing["example-agent"].startswith("registries/agents/example-agent.yaml")
    assert (target / "registries/agents/example-agent.yaml").read_bytes() == original
    # two different agents of one name in the source: neither wins by walk order, both are
    # refused (exit 1), each naming the other
    refused = {r["path"]: r["reason"] for r in report.refused}
    assert (
        "is also defined by plugins/delta/agents/dup.md"
        in (refused["plugins/alpha/agents/code-reviewer.md"])
    )
    assert (
        "is also defined by plugins/alpha/agents/code-reviewer.md"
        in (refused["plugins/delta/agents/dup.md"])
    )
    assert report.failed
    assert not (target / "registries/agents/code-reviewer.yaml").exists()


def test_reimport_collides_with_everything_and_changes_nothing(market: Path, target: Path) -> None:
    import_tree(target, market)
    before = _files(target / "registries")
    report = import_tree(target, market)
    assert len(report.collisions) == 7 and report.agents == [] and report.skills == []
    assert _files(target / "registries") == before


def test_symlinks_leaving_the_tree_devices_and_huge_files_are_refused(
    market: Path, target: Path, tmp_path: Path
) -> None:
    secret = write(tmp_path, "secret/agents/leak.md", AGENT.format(name="leak"))
    (market / "plugins/alpha/agents/leak.md").symlink_to(secret)
    (market / "plugins/linked-agents").symlink_to(secret.parent)
    (market / "plugins/alpha/agents/same.md").symlink_to(market / "plugins/beta/agents/thinker.md")
    os.mkfifo(market / "plugins/alpha/agents/pipe.md")
    write(market, "plugins/alpha/agents/huge.md", "x" * (MAX_MARKDOWN + 1))
    write(market, "plugins/alpha/agents/bad-name.md", AGENT.format(name="Bad_Name"))
    report = import_tree(target, market)
    reasons = {r["path"]: r["reason"] for r in report.refused}
    assert "outside" in reasons["plugins/alpha/agents/leak.md"]
    assert "not followed" in reasons["plugins/linked-agents"]
    assert "not a regular file" in reasons["plugins/alpha/agents/pipe.md"]
    assert "limit" in reasons["plugins/alpha/agents/huge.md"]
    assert "not a valid Orkestra name" in reasons["plugins/alpha/agents/bad-name.md"]
    assert "plugins/alpha/agents/README.md" not in reasons  # not an entry: skipped
    assert [s["path"] for s in report.skipped] == ["plugins/alpha/agents/README.md"]
    assert "leak" not in {a["name"] for a in report.agents}
    assert not (target / "registries/agents/leak.yaml").exists()
    # a symlink inside the tree is read: it and its target name one agent, so they collide
    assert [c["name"] for c in report.collisions] == ["thinker"]


def test_skill_resource_symlink_out_is_refused(market: Path, target: Path) -> None:
    (market / "plugins/alpha/skills/pdf-tools/passwd").symlink_to("/etc/passwd")
    report = import_tree(target, market)
    assert {
        "path": "plugins/alpha/skills/pdf-tools/passwd",
        "line": None,
        "reason": "symlink pointing outside the imported tree; copy the file it points to into "
        "the tree, or import the folder that holds it",
    } in report.refused
    assert not (target / "registries/skills/project/pdf-tools/passwd").exists()


def test_layer_option_chooses_the_tier_folder(market: Path, target: Path) -> None:
    report = import_tree(target, market, layer="K2", provider="acme")
    assert {s["to"] for s in report.skills} == {
        "registries/skills/domains/pdf-tools.yaml",
        "registries/skills/domains/review-checklist.yaml",
    }
    data = yamlio.load_mapping(target / "registries/skills/domains/pdf-tools.yaml")
    assert data["metadata"]["layer"] == "K2"
    assert data["metadata"]["provider"] == "acme" and "provider" not in data["frontmatter"]["extra"]
    assert yamlio.load_mapping(target / "registries/agents/thinker.yaml")["category"] == "acme"


def test_dormant_imported_skills_are_reported(tmp_path: Path, target: Path) -> None:
    write(
        tmp_path,
        "src/skills/lonely/SKILL.md",
        "---\nname: lonely\ndescription: Nobody uses me. Use when alone.\n---\n## When to use\nx\n",
    )
    write(
        tmp_path, "src/skills/sleeper/SKILL.md", "---\nname: sleeper\ndescription: Zzz.\n---\nx\n"
    )
    scopes = "scopes:\n  example: {description: x, primary_skills: [example-skill]}\n"
    write(
        target,
        "registries/scopes.yaml",
        scopes + "  sleepy: {description: y, primary_skills: [sleeper]}\n",
    )
    report = import_tree(target, tmp_path / "src")
    # a skill in no scope renders (§3.4); one whose only scope nobody declares sleeps
    assert report.dormant == ["sleeper"]
    assert any("declares one of their scopes" in hint for hint in report.hints)
    sync(target)
    assert (target / ".claude/skills/lonely/SKILL.md").is_file()
    assert not (target / ".claude/skills/sleeper").exists()


def test_bad_source_and_layer(target: Path, tmp_path: Path) -> None:
    with pytest.raises(NotFound):
        import_tree(target, tmp_path / "missing")
    with pytest.raises(UsageError):
        import_tree(target, tmp_path, layer="K9")


def test_split_tools_forms() -> None:
    assert split_tools("Read, Grep") == ["Read", "Grep"]
    assert split_tools("Read Grep") == ["Read", "Grep"]
    assert split_tools("Bash(git add:*) Read") == ["Bash(git add:*)", "Read"]
    assert split_tools(["Read", " Grep "]) == ["Read", "Grep"]
    assert split_tools([]) == [] and split_tools(None) == [] and split_tools("") == []


def test_split_sections_respects_fences() -> None:
    intro, sections = split_sections("# T\n\nIntro\n## A\nx\n```\n## no\n```\n## B\n\ny\n")
    assert intro == "# T\n\nIntro\n"
    assert sections == [
        {"title": "A", "body": "x\n```\n## no\n```\n"},
        {"title": "B", "body": "y\n"},
    ]


def test_cli_import_and_sync(cli: Any, market: Path, target: Path) -> None:
    # the market's agents/README.md has no frontmatter: not an entry, skipped (not refused)
    plan = cli("import", str(market), "--dry-run", cwd=target)
    assert plan.exit_code == 0 and plan.json()["dry_run"] is True and plan.stderr == ""
    assert plan.json()["skipped"][0]["path"] == "plugins/alpha/agents/README.md"
    assert plan.json()["hints"] == [
        f"nothing was written (dry run): run `orkestra import {market}`"
    ]
    assert not (target / "registries/agents/thinker.yaml").exists()
    done = cli("import", str(market), cwd=target)
    assert done.exit_code == 0 and done.stderr == ""
    assert "registries/agents/thinker.yaml" in done.json()["written"]
    assert done.json()["hints"] == ["run `orkestra sync` to render them"]
    assert cli("validate", "--strict", cwd=target).exit_code == 0
    assert cli("sync", cwd=target).exit_code == 0
    assert (target / ".claude/agents/thinker.md").is_file()


def test_cli_import_errors(cli: Any, target: Path, tmp_path: Path) -> None:
    missing = cli("import", str(tmp_path / "nope"), cwd=target)
    assert missing.exit_code == 1 and "is not a folder" in missing.stderr
    layer = cli("import", str(tmp_path), "--layer", "K7", cwd=target)
    assert layer.exit_code == 2 and "unknown layer 'K7'" in layer.stderr


def test_adopting_the_projects_own_claude_folder(cli: Any, market: Path, target: Path) -> None:
    import shutil

    shutil.copytree(market / "plugins/alpha", target / ".claude")
    report = cli("import", ".claude", cwd=target).json()
    assert any("sync --force" in hint for hint in report["hints"])
    conflict = cli("sync", cwd=target)
    assert conflict.exit_code == 1 and "code-reviewer.md" in conflict.stderr
    assert cli("sync", "--force", cwd=target).exit_code == 0
    assert cli("sync", "--check", cwd=target).exit_code == 0


@pytest.mark.parametrize("color", ["[red]", "{a: 1}"])
def test_a_list_or_mapping_colour_is_kept_not_a_crash(
    tmp_path: Path, target: Path, color: str
) -> None:
    source = tmp_path / "src"
    write(
        source, ".claude/agents/a1.md", f"---\nname: a1\ndescription: d.\ncolor: {color}\n---\nx\n"
    )
    report = import_tree(target, source)
    assert report.agents[0]["kept_frontmatter"] == ["color"]
    data = yamlio.load_mapping(target / "registries/agents/a1.yaml")
    assert (
        "color" not in data
        and data["frontmatter_extra"]["color"] == yamlio.loads(f"c: {color}")["c"]
    )


def test_a_symlinked_registry_folder_leaving_the_project_is_refused(
    market: Path, target: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (target / "registries/skills/stacks").symlink_to(outside)
    before = _files(target)
    with pytest.raises(UnsafePathError) as info:
        import_tree(target, market, layer="K3")
    assert info.value.file == "registries/skills/stacks" and "symlink" in info.value.message
    assert list(outside.iterdir()) == [] and _files(target) == before


def test_table_lists_skipped_files_and_added_plugin_scopes(
    cli: Any, market: Path, target: Path
) -> None:
    shown = cli("import", str(market), "--dry-run", "--format", "table", cwd=target)
    assert shown.exit_code == 0, shown.stderr
    actions = [line.split("│")[1].strip() for line in shown.stdout.splitlines() if "│" in line]
    assert actions.count("skipped") == 1 and actions.count("refused") == 0
    assert actions.count("scope added") == 2  # alpha and beta
    report = import_tree(target, market, dry_run=True)
    assert report.scopes_added == ["alpha", "beta"]  # gamma has agents but no skills
