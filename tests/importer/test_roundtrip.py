"""Import a messy marketplace, sync, and get back each original's meaning."""

from __future__ import annotations

import os
from pathlib import Path

from skills_ref.validator import validate as agentskills_validate

from orkestra.core import frontmatter
from orkestra.importer.run import import_tree
from orkestra.registry.frontmatter_values import split_tools
from orkestra.registry.loader import load
from orkestra.render.sync import findings_of, sync
from tests.importer.conftest import AGENTS, SKILLS


def _doc(path: Path) -> frontmatter.Document:
    return frontmatter.parse(path.read_text(encoding="utf-8"), str(path))


def _norm(text: str) -> str:
    """Body text compared line by line, ignoring blank lines and trailing spaces."""
    return "\n".join(line.rstrip() for line in text.splitlines() if line.strip())


def test_import_then_sync_reproduces_agents(market: Path, target: Path) -> None:
    report = import_tree(target, market)
    assert (
        report.collisions == []
        and report.validation is not None
        and report.validation["errors"] == 0
    )
    sync(target)
    for rel in AGENTS:
        original = _doc(market / rel)
        name = original.meta["name"]
        rendered = _doc(target / f".claude/agents/{name}.md")
        meta = rendered.meta
        assert meta["name"] == name
        assert meta["description"] == str(original.meta["description"]).strip()
        assert meta["model"] == original.meta.get("model", "inherit")
        assert split_tools(meta.get("tools")) == split_tools(original.meta.get("tools"))
        # every skill it listed, plus its plugin's skills (the plugin scope it declares, §3.4)
        assert set(split_tools(original.meta.get("skills"))) <= set(meta.get("skills", []))
        assert _norm(original.body) in _norm(rendered.body)
    reviewer = _doc(target / ".claude/agents/code-reviewer.md").meta
    assert reviewer["color"] == "magenta" and reviewer["permissionMode"] == "plan"
    assert _doc(target / ".claude/agents/thinker.md").meta["tools"] == []


def test_import_then_sync_reproduces_skills(market: Path, target: Path) -> None:
    import_tree(target, market)
    sync(target)
    for rel in SKILLS:
        original = _doc(market / rel)
        name = original.meta["name"]
        folder = target / ".claude/skills" / name
        assert agentskills_validate(folder) == []
        rendered = _doc(folder / "SKILL.md")
        assert rendered.meta["name"] == name
        assert rendered.meta["description"] == original.meta["description"]
        assert split_tools(rendered.meta["allowed-tools"]) == split_tools(
            original.meta["allowed-tools"]
        )
        assert _norm(rendered.body) == _norm(original.body)
    pdf = _doc(target / ".claude/skills/pdf-tools/SKILL.md").meta
    assert pdf["license"] == "MIT"
    assert pdf["metadata"]["argument-hint"] == "[file]"  # extension key kept under metadata
    assert pdf["metadata"]["version"] == "1.2.0" and pdf["metadata"]["author"] == "someone"
    assert pdf["metadata"]["tags"] == "pdf,text"
    checklist = _doc(target / ".claude/skills/review-checklist/SKILL.md").meta
    assert checklist["metadata"]["user-invocable"] == "false"
    assert "type" not in checklist["metadata"]  # imported: no type forced on it
    scripts = target / ".claude/skills/pdf-tools/scripts/extract.sh"
    assert scripts.read_text() == "#!/bin/sh\necho\n" and os.access(scripts, os.X_OK)
    reference = target / ".claude/skills/pdf-tools/references/REFERENCE.md"
    assert reference.read_text() == "# Reference\n"


def test_imported_registry_is_valid_and_models_hold_the_fields(market: Path, target: Path) -> None:
    report = import_tree(target, market)
    reg = load(target)
    assert not [f for f in findings_of(reg) if f.severity == "error"]
    lead = reg.agents["lead-orchestrator"]
    assert lead.role == "orchestrator" and lead.category == "beta"
    assert lead.skills == ["pdf-tools", "review-checklist"]
    db = reg.agents["db-expert"]
    assert db.description == "Database expert, folded over two lines."
    assert db.tools == ["Read"]
    assert db.mcp_tools == ["mcp__postgres__query", "mcp__postgres__describe_table"]
    assert reg.agents["local"].category == ""
    assert reg.skills["pdf-tools"].tier == "project" and reg.skills["pdf-tools"].layer == "K4"
    assert sorted(report.tools_added) == [
        "mcp__github__get_pr",
        "mcp__postgres__describe_table",
        "mcp__postgres__query",
    ]
    assert reg.tools.mcp["postgres"] == ["query", "describe_table"]
    assert report.dormant == []


def test_second_sync_after_import_writes_nothing(market: Path, target: Path) -> None:
    import_tree(target, market)
    sync(target)
    assert sync(target).written == 0


def test_claude_code_accepts_the_imported_marketplace(
    market: Path, target: Path, tmp_path: Path
) -> None:
    from tests.render.clients import assert_claude_accepts

    import_tree(target, market)
    sync(target)
    assert_claude_accepts(target, tmp_path)
