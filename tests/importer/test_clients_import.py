"""Import from every client's format (Codex, Copilot, Cursor, Gemini, `.agents/skills/`,
AGENTS.md) and rulesync's `.rulesync/`; then sync gives the originals back in their client."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from orkestra.core import frontmatter, yamlio
from orkestra.importer.run import import_tree
from orkestra.registry.loader import load
from orkestra.render.sync import sync
from orkestra.scaffold import init_project
from tests.conftest import write
from tests.render.targets.conftest import build_clients

#: a client's agent folder and how a file there is named
FOLDERS = {
    "codex": (".codex/agents", ".toml"),
    "copilot": (".github/agents", ".agent.md"),
    "cursor": (".cursor/agents", ".md"),
    "gemini": (".gemini/agents", ".md"),
}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ORKESTRA_TODAY", "2026-11-30")
        root = build_clients(tmp_path_factory.mktemp("import") / "orig")
        sync(root)
    return root


def _project(tmp_path: Path, targets: list[str]) -> Path:
    root = tmp_path / "proj"
    init_project(root)
    (root / "registries/agents/example-agent.yaml").unlink()
    config = yamlio.loads((root / "registries/orkestra.yaml").read_text())
    config["targets"] = targets
    (root / "registries/orkestra.yaml").write_text(yamlio.dumps(dict(config)))
    return root


def _source(rendered: Path, tmp_path: Path, client: str) -> Path:
    """Only one client's agent files (and the shared skills, scaffold's example left out)."""
    folder, _ = FOLDERS[client]
    source = tmp_path / "source"
    shutil.copytree(rendered / folder, source / folder)
    for skill in (rendered / ".agents/skills").iterdir():
        if skill.name != "example-skill" and not skill.is_symlink():
            shutil.copytree(skill, source / ".agents/skills" / skill.name)
    for agent in (source / folder).glob("example-agent*"):
        agent.unlink()
    return source


def _meta(path: Path) -> dict[str, object]:
    return dict(frontmatter.parse(path.read_text(encoding="utf-8"), path.name).meta)


def _body(path: Path) -> str:
    return frontmatter.parse(path.read_text(encoding="utf-8"), path.name).body.strip()


@pytest.mark.parametrize("client", ["copilot", "cursor", "gemini"])
def test_markdown_clients_round_trip(
    rendered: Path, tmp_path: Path, client: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    source = _source(rendered, tmp_path, client)
    root = _project(tmp_path, ["claude", client])
    report = import_tree(root, source)
    assert report.refused == [] and report.collisions == [], report.to_dict()
    assert report.validation is not None and report.validation["errors"] == 0
    sync(root)
    folder = FOLDERS[client][0]
    originals = sorted((source / folder).iterdir())
    assert originals
    for original in originals:
        back = root / folder / original.name
        assert _meta(back) == _meta(original), original.name
        assert _body(original) in _body(back)
    for skill in (source / ".agents/skills").iterdir():
        assert (root / ".claude/skills" / skill.name / "SKILL.md").is_file()


def test_codex_agents_round_trip(rendered: Path, tmp_path: Path) -> None:
    source = _source(rendered, tmp_path, "codex")
    root = _project(tmp_path, ["claude", "codex"])
    report = import_tree(root, source)
    assert report.refused == [] and report.collisions == [], report.to_dict()
    sync(root)
    for original in sorted((source / ".codex/agents").iterdir()):
        before = tomllib.loads(original.read_text())
        after = tomllib.loads((root / ".codex/agents" / original.name).read_text())
        prompt = before.pop("developer_instructions").strip()
        assert prompt in after.pop("developer_instructions")
        assert after == before, original.name
    # the shared skills came back in .agents/skills/: resources byte for byte, the same body
    # (the layer in `metadata` is the import's: --layer)
    for skill in (source / ".agents/skills").iterdir():
        for file in skill.rglob("*"):
            rel = file.relative_to(source)
            if file.name == "SKILL.md":
                assert _body(root / rel) == _body(file)
            elif file.is_file():
                assert (root / rel).read_bytes() == file.read_bytes(), rel


def test_a_tool_without_a_claude_name_keeps_the_clients_list_verbatim(tmp_path: Path) -> None:
    source = tmp_path / "source"
    write(source, ".gemini/agents/lister.md",
          "---\nname: lister\ndescription: Lists.\ntools:\n  - read_many_files\n  - glob\n"
          "temperature: 0.2\n---\n\nList things.\n")  # fmt: skip
    root = _project(tmp_path, ["claude", "gemini"])
    import_tree(root, source)
    agent = load(root).agents["lister"]
    assert agent.tools == ["Glob"] and agent.client_frontmatter["gemini"] == {
        "tools": ["read_many_files", "glob"], "temperature": 0.2,
    }  # fmt: skip
    sync(root)
    assert _meta(root / ".gemini/agents/lister.md") == _meta(source / ".gemini/agents/lister.md")
    assert "temperature" not in _meta(root / ".claude/agents/lister.md")


def test_a_bad_codex_toml_is_refused_with_its_line(tmp_path: Path) -> None:
    source = tmp_path / "source"
    write(source, ".codex/agents/ok.toml",
          'name = "ok"\ndescription = "Fine."\ndeveloper_instructions = "Do it."\n')  # fmt: skip
    write(source, ".codex/agents/bad.toml", 'name = "bad"\ndescription = \n')
    write(source, ".codex/agents/empty.toml", 'name = "empty"\ndescription = "x"\n')
    root = _project(tmp_path, ["claude", "codex"])
    report = import_tree(root, source)
    refused = {r["path"]: r for r in report.refused}
    assert refused[".codex/agents/bad.toml"]["line"] == 2
    assert "developer_instructions" in refused[".codex/agents/empty.toml"]["reason"]
    assert [a["name"] for a in report.agents] == ["ok"] and report.failed


def test_agents_md_values_are_imported_and_other_sections_reported(tmp_path: Path) -> None:
    source = tmp_path / "source"
    write(source, "AGENTS.md", "# Repo\n\n## Values\n\n- **Small diffs**: keep each change "
          "reviewable.\n- Tests first.\n\n## Build\n\nRun make.\n\n<!-- orkestra:begin x -->\n"
          "## Orkestra\n\n### Values\n\n1. **Ours**: never imported.\n<!-- orkestra:end -->\n")  # fmt: skip
    root = _project(tmp_path, ["claude", "agents-md"])
    report = import_tree(root, source)
    names = [v.name for v in load(root).values]
    assert "Small diffs" in names and "Tests first" in names and "Ours" not in names
    assert {"path": "AGENTS.md", "reason": "section 'Build' maps to no registry kind (left as "
            "is)"} in report.skipped  # fmt: skip
    again = import_tree(root, source)
    assert {c["name"] for c in again.collisions if c["kind"] == "value"} >= {"Small diffs"}


def test_a_note_naming_the_markers_keeps_the_values_after_it(tmp_path: Path) -> None:
    """Only marker lines of their own bound Orkestra's block: a note naming them leaves the
    user's sections after it to be imported."""
    source = tmp_path / "source"
    write(source, "AGENTS.md", "# Repo\n\nThe part between `<!-- orkestra:begin -->` and "
          "`<!-- orkestra:end -->` is generated.\n\n## Values\n\n- **Small diffs**: keep each "
          "change reviewable.\n\n<!-- orkestra:begin x -->\n## Orkestra\n\n### Values\n\n"
          "1. **Ours**: never imported.\n<!-- orkestra:end -->\n")  # fmt: skip
    root = _project(tmp_path, ["claude", "agents-md"])
    import_tree(root, source)
    names = [v.name for v in load(root).values]
    assert "Small diffs" in names and "Ours" not in names


def test_rulesync_sources_round_trip(tmp_path: Path) -> None:
    source = tmp_path / "source"
    write(source, ".rulesync/subagents/planner.md",
          "---\nname: planner\ndescription: Plans the work.\ntargets: [claudecode, codexcli]\n"
          "claudecode:\n  model: opus\n  tools: [Read, Grep]\ncodexcli:\n  model: gpt-5-codex\n"
          "---\n\nPlan before acting.\n")  # fmt: skip
    write(source, ".rulesync/commands/ship.md",
          "---\ndescription: Ship it.\ntargets: ['*']\n---\n\nRun the release.\n")  # fmt: skip
    write(source, ".rulesync/mcp.json", json.dumps({"mcpServers": {
        "docs": {"url": "https://docs.example.com/mcp"},
        "fs": {"command": "npx", "args": ["-y", "fs-server"]}}}))  # fmt: skip
    write(source, ".rulesync/rules/overview.md",
          "---\nroot: true\ntargets: ['*']\n---\n\n# Overview\n\n## Principles\n\n"
          "- **Readable code**: name things plainly.\n")  # fmt: skip
    write(
        source,
        ".rulesync/skills/notes/SKILL.md",
        "---\nname: notes\ndescription: Takes notes. Use when asked to record.\n---\n\nNote.\n",
    )
    root = _project(tmp_path, ["claude", "codex"])
    report = import_tree(root, source)
    assert report.refused == [] and report.validation is not None
    assert report.validation["errors"] == 0, report.to_dict()
    reg = load(root)
    planner = reg.agents["planner"]
    assert planner.clients == ["claude", "codex"] and planner.model == "opus"
    assert planner.models == {"codex": "gpt-5-codex"} and planner.tools == ["Read", "Grep"]
    assert set(reg.mcp_servers) == {"docs", "fs"} and "ship" in reg.commands
    assert "Readable code" in [v.name for v in reg.values] and "notes" in reg.skills
    sync(root)
    claude = _meta(root / ".claude/agents/planner.md")
    assert claude["model"] == "opus" and claude["tools"] == "Read, Grep"
    codex = tomllib.loads((root / ".codex/agents/planner.toml").read_text())
    assert (
        codex["model"] == "gpt-5-codex" and "Plan before acting." in codex["developer_instructions"]
    )
    assert "Run the release." in (root / ".claude/commands/ship.md").read_text()
    servers = json.loads((root / ".mcp.json").read_text())["mcpServers"]
    assert servers["fs"] == {"command": "npx", "args": ["-y", "fs-server"]}
    assert (root / ".agents/skills/notes/SKILL.md").is_file()


#: awesome-copilot's shape: `name` is a display name, the file names the agent
ARCHITECT = """---
description: 'Your role is that of an API architect. Use when designing an API.'
name: 'API Architect'
tools: ['search', 'edit']
model: 'gpt-4.1'
---

# API Architect mode instructions

Act on the mandatory and optional API aspects.
"""


def test_a_copilot_display_name_is_kept_and_the_file_names_the_agent(tmp_path: Path) -> None:
    source = tmp_path / "source"
    write(source, ".github/agents/api-architect.agent.md", ARCHITECT)
    root = _project(tmp_path, ["claude", "copilot"])
    report = import_tree(root, source)
    assert report.refused == [], report.refused
    assert [a["name"] for a in report.agents] == ["api-architect"]
    sync(root)
    back = root / ".github/agents/api-architect.agent.md"
    assert _meta(back) == _meta(source / ".github/agents/api-architect.agent.md")
    assert back.read_text().count("\nname:") == 1
    assert "name: api-architect" in (root / ".claude/agents/api-architect.md").read_text()
    # the file is still Orkestra's to rewrite: its mark names the agent, not its display name
    assert "from the registries for agent api-architect;" in back.read_text()
    source_file = root / "registries/agents/api-architect.yaml"
    source_file.write_text(source_file.read_text().replace("an API.", "any API."))
    sync(root)
    assert _meta(back)["description"].endswith("Use when designing any API.")
    assert _meta(back)["name"] == "API Architect"


def test_a_copilot_name_that_fits_no_file_is_still_refused(tmp_path: Path) -> None:
    source = tmp_path / "source"
    write(source, ".github/agents/API Architect.agent.md", ARCHITECT)
    report = import_tree(_project(tmp_path, ["copilot"]), source)
    assert [r["path"] for r in report.refused] == [".github/agents/API Architect.agent.md"]
