"""A new user's path on a generated 22-plugin marketplace (issue 12): `init` -> `import` ->
`validate --strict` -> `sync` gives every agent and skill back, and a spec-invalid skill is
refused alone with its file:line and the fix."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from skills_ref.validator import validate as agentskills_validate

from orkestra.core import frontmatter
from orkestra.importer.run import ImportReport, import_tree
from orkestra.registry.frontmatter_values import split_tools
from orkestra.registry.inventory import skills_list
from orkestra.registry.loader import load
from orkestra.registry.validate import validate
from orkestra.render.sync import sync
from orkestra.scaffold import init_project
from tests.conftest import write
from tests.importer.marketplace import (
    AGENT_CLASH,
    INVALID_LENGTH,
    SKILL_CLASH,
    Marketplace,
    build,
)


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Marketplace, Path, Any]]:
    base = tmp_path_factory.mktemp("market")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ORKESTRA_TODAY", "2026-11-30")
        market = build(base / "market")
        root = base / "proj"
        init_project(root)
        report = import_tree(root, market.root, provider="acme")
        sync(root)
        yield market, root, report


def _doc(path: Path) -> frontmatter.Document:
    return frontmatter.parse(path.read_text(encoding="utf-8"), str(path))


def _norm(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.splitlines() if line.strip())


def _files(folder: Path) -> dict[str, tuple[bytes, bool]]:
    """Every file below folder but SKILL.md: bytes and whether it is executable."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name != "SKILL.md":
            rel = path.relative_to(folder).as_posix()
            out[rel] = (path.read_bytes(), os.access(path, os.X_OK))
    return out


def test_the_import_reports_collisions_and_the_one_refusal(imported: Any) -> None:
    market, _, report = imported
    assert len(market.agents) >= 40 and len(market.skills) >= 40
    assert sorted(a["name"] for a in report.agents) == sorted(market.agents)
    assert sorted(s["name"] for s in report.skills) == sorted(market.skills)
    assert report.collisions == [] and market.collisions == []
    assert market.invalid is not None
    rel = market.invalid.relative_to(market.root).as_posix()
    by_path = {r["path"]: r for r in report.refused}
    # two plugins shipping different entries of one name: every one of them is refused at its
    # `name:` line, naming the others, and none wins by walk order
    assert len(market.clashes) == 2
    for key, paths in market.clashes.items():
        kind, name = key.split(":")
        rels = [p.relative_to(market.root).as_posix() for p in paths]
        assert len(rels) == 2
        for mine, other in (rels, rels[::-1]):
            clash = by_path.pop(mine)
            assert clash["line"] == 2
            assert f"{kind} '{name}' is also defined by {other}" in clash["reason"]
            assert "rename all but one in the source" in clash["reason"]
    [refused] = by_path.values()
    assert (refused["path"], refused["line"]) == (rel, market.invalid_line)
    assert (
        f"is {INVALID_LENGTH:,} characters, over the Agent Skills limit of 1,024"
        in (refused["reason"])
    )
    assert "shorten it" in refused["reason"]
    # README.md files in agents/ are not entries: skipped, not refused
    assert report.skipped and all(s["path"].endswith("agents/README.md") for s in report.skipped)
    assert report.validation == {"errors": 0, "warnings": 0}
    assert not any("sync" in hint for hint in report.hints if "refused (" in hint)
    # an agent listing the refused skill keeps the rest of its list, and the hint says so
    agent, skill = market.unlisted
    assert any(f"agent '{agent}' lists the refused skill '{skill}'" in h for h in report.hints)


def test_validate_strict_passes_on_the_imported_marketplace(imported: Any) -> None:
    _, root, _ = imported
    found = validate(load(root)).findings
    assert [f"{f.file}:{f.line}: {f.code} {f.message}" for f in found] == []


def test_every_agent_renders_as_its_original(imported: Any) -> None:
    market, root, _ = imported
    for name, source in market.agents.items():
        original = _doc(source)
        rendered_text = (root / f".claude/agents/{name}.md").read_text(encoding="utf-8")
        meta = _doc(root / f".claude/agents/{name}.md").meta
        assert meta["name"] == name
        assert meta["description"] == str(original.meta["description"]).strip()
        assert meta["model"] == original.meta.get("model", "inherit")
        # built-ins first, then MCP tools (§4): the same tools, possibly reordered
        assert sorted(split_tools(meta.get("tools"))) == sorted(
            split_tools(original.meta.get("tools"))
        ), name
        assert meta.get("color") == original.meta.get("color")
        assert meta.get("permissionMode") == original.meta.get("permissionMode")
        assert _norm(original.body) in _norm(_doc(root / f".claude/agents/{name}.md").body)
        # init's examples stay out of imported agents (item 2)
        assert "## Values" not in rendered_text and "example-skill" not in rendered_text


def test_every_skill_renders_with_its_resources_byte_for_byte(imported: Any) -> None:
    market, root, _ = imported
    rendered = {p.name for p in (root / ".claude/skills").iterdir()}
    assert rendered == {*market.skills, "example-skill"}  # none dormant (item 1)
    for name, source in market.skills.items():
        folder = root / ".claude/skills" / name
        assert agentskills_validate(folder) == [], name
        original, copy = _doc(source / "SKILL.md"), _doc(folder / "SKILL.md")
        assert copy.meta["name"] == name
        assert copy.meta["description"] == original.meta["description"]
        assert split_tools(copy.meta["allowed-tools"]) == split_tools(
            original.meta["allowed-tools"]
        )
        assert copy.meta.get("license") == original.meta.get("license")
        assert "type" not in copy.meta["metadata"]  # no type forced on imported content
        assert copy.meta["metadata"]["provider"] == "acme"
        assert _norm(copy.body) == _norm(original.body)
        assert _files(folder) == _files(source), name


def test_each_plugin_is_a_scope_its_agents_declare(imported: Any) -> None:
    market, root, _ = imported
    reg = load(root)
    assert reg.dormant_skills() == []
    for plugin, agents in market.plugin_agents.items():
        assert reg.scope_skills(plugin) == sorted(market.plugin_skills.get(plugin, []))
        for agent in agents:
            skills = _doc(root / f".claude/agents/{agent}.md").meta.get("skills", [])
            assert skills == reg.scope_skills(plugin), agent


def test_provider_is_kept_and_listed(imported: Any) -> None:
    market, root, _ = imported
    rows = {row["name"]: row for row in skills_list(load(root))}
    assert {rows[name]["provider"] for name in market.skills} == {"acme"}
    assert rows["example-skill"]["provider"] is None
    assert {rows[name]["type"] for name in market.skills} == {None}  # none declared, none forced


def test_claude_code_accepts_the_round_trip(imported: Any, tmp_path: Path) -> None:
    from tests.render.clients import assert_claude_accepts

    _, root, _ = imported
    assert_claude_accepts(root, tmp_path)


def test_cli_refuses_the_invalid_skill_alone_and_fixing_it_imports_it(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    market = build(tmp_path / "market")
    assert market.invalid is not None
    root = tmp_path / "proj"
    init_project(root)
    first = cli("import", str(market.root), cwd=root)
    where = f"{market.invalid.relative_to(market.root).as_posix()}:{market.invalid_line}"
    assert first.exit_code == 1
    assert "refused 5 entry(ies):\n" in first.stderr  # the invalid skill, two clashing pairs
    assert f"\n  {where}: `description` is 1,068 characters" in first.stderr
    data = first.json()
    assert len(data["agents"]) == len(market.agents)
    assert "fix them in the source and run `orkestra import" in data["hints"][0]
    assert "sync" not in data["hints"][0]
    assert data["hints"][-1] == "run `orkestra sync` to render them"  # the rest is usable
    assert cli("validate", "--strict", cwd=root).exit_code == 0
    assert cli("sync", cwd=root).exit_code == 0
    # the way forward: shorten it in the source, import again
    lines = market.invalid.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[market.invalid_line - 1] = 'description: "Shortened. Use when testing a fix."\n'
    market.invalid.write_text("".join(lines), encoding="utf-8")
    # and rename the second of each clashing pair (its `name:`, and a skill's folder)
    renamed = {}
    for key, paths in market.clashes.items():
        source = paths[1]
        old = key.split(":")[1]
        new = f"{source.parts[-4 if source.name == 'SKILL.md' else -3]}-{old}"
        source.write_text(
            source.read_text(encoding="utf-8").replace(f"name: {old}\n", f"name: {new}\n", 1),
            encoding="utf-8",
        )
        if source.name == "SKILL.md":
            source.parent.rename(source.parent.with_name(new))
        renamed[key.split(":")[0]] = new
    again = cli("import", str(market.root), cwd=root)
    assert again.exit_code == 0, again.stderr
    assert sorted(s["name"] for s in again.json()["skills"]) == sorted(
        [market.invalid.parent.name, SKILL_CLASH[2], renamed["skill"]]
    )
    assert sorted(a["name"] for a in again.json()["agents"]) == sorted(
        [AGENT_CLASH[2], renamed["agent"]]
    )
    assert cli("sync", cwd=root).exit_code == 0
    assert (root / ".claude/skills" / market.invalid.parent.name / "SKILL.md").is_file()
    agent, skill = market.unlisted  # its plugin scope brings the fixed skill back to it
    assert skill in _doc(root / f".claude/agents/{agent}.md").meta["skills"]


def test_a_validation_error_after_import_is_exit_1_and_never_says_sync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    source = tmp_path / "src"
    agent = "---\nname: lone\ndescription: Lone agent.\n---\nBody.\n"
    write(source, ".claude/agents/lone.md", agent)
    root = tmp_path / "proj"
    init_project(root)
    # the project's own agent names a skill that exists nowhere (an imported agent's dangling
    # skill is left out of it instead: test_redteam2_import)
    mine = "name: mine\ndescription: Mine.\nskills: [nowhere]\nprompt: x\n"
    write(root, "registries/agents/mine.yaml", mine)
    report: ImportReport = import_tree(root, source)
    assert report.validation is not None and report.validation["errors"] == 1
    assert report.failed
    assert report.hints[-1].startswith("the registry has 1 validation error(s)")
    assert "`orkestra sync` would refuse" in report.hints[-1]
