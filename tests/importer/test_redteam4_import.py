"""Red-team cases for `orkestra import` (PRODUCT.md §4 Import, §13), round 4: two entries of one
source sharing a name are refused (never one of them dropped as a collision with exit 0), a
value's name derived from its text keeps its meaning, and a skill's scripts stay runnable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.importer.run import import_tree
from orkestra.registry.loader import load
from tests.conftest import write

QUALITY = "plugins/code-quality"
TESTING = "plugins/testing-suite"


def _agent(name: str, what: str) -> str:
    return (
        f"---\nname: {name}\ndescription: Reviews {what}. Use after any change to {what}.\n"
        f"tools: Read, Grep\n---\n\nReview the {what}.\n"
    )


def _skill(name: str, what: str) -> str:
    return (
        f"---\nname: {name}\ndescription: Lints {what}. Use when {what} change and need "
        f"linting before a review.\n---\n\n## When to use\n\nWhen {what} change.\n"
    )


def _clashing_marketplace(base: Path) -> Path:
    """Two plugins that each ship an agent `code-reviewer`, a skill `lint` and a command
    `check`, beside entries of their own."""
    for plugin, what in ((QUALITY, "code"), (TESTING, "tests")):
        short = plugin.split("/")[1]
        write(base, f"{plugin}/.claude-plugin/plugin.json", f'{{"name": "{short}"}}\n')
        write(base, f"{plugin}/agents/code-reviewer.md", _agent("code-reviewer", what))
        write(base, f"{plugin}/agents/{short}-lead.md", _agent(f"{short}-lead", what))
        write(base, f"{plugin}/skills/lint/SKILL.md", _skill("lint", what))
        write(base, f"{plugin}/skills/{short}-guide/SKILL.md", _skill(f"{short}-guide", what))
        write(base, f"{plugin}/commands/check.md", f"---\ndescription: Check {what}\n---\nGo.\n")
    return base


def test_two_plugins_shipping_one_name_are_both_refused_naming_each_other(
    tmp_path: Path, target: Path
) -> None:
    market = _clashing_marketplace(tmp_path / "market")
    report = import_tree(target, market)
    assert report.failed  # exit 1: something the user has was not imported
    refused = {r["path"]: r for r in report.refused}
    pairs = {
        "agents/code-reviewer.md": ("agent 'code-reviewer'", 2),
        "skills/lint/SKILL.md": ("skill 'lint'", 2),
        "commands/check.md": ("command 'check'", 1),
    }
    for inner, (what, line) in pairs.items():
        mine, theirs = f"{QUALITY}/{inner}", f"{TESTING}/{inner}"
        for path, other in ((mine, theirs), (theirs, mine)):
            assert refused[path]["line"] == line, refused[path]
            assert what in refused[path]["reason"] and other in refused[path]["reason"]
            assert "rename" in refused[path]["reason"] and "import again" in refused[path]["reason"]
    assert report.collisions == []
    # neither copy is in the registry: the one that was walked first does not win silently
    reg = load(target)
    assert "code-reviewer" not in reg.agents and "lint" not in reg.skills
    assert "check" not in reg.commands
    # the rest of both plugins came in, each plugin a scope its own agents declare
    assert {"code-quality-lead", "testing-suite-lead"} <= set(reg.agents)
    assert {"code-quality-guide", "testing-suite-guide"} <= set(reg.skills)
    assert set(report.scopes_added) == {"code-quality", "testing-suite"}
    assert report.hints[0].startswith("6 entries were refused")


def test_renaming_one_of_the_pair_imports_both(tmp_path: Path, target: Path, cli: Any) -> None:
    market = _clashing_marketplace(tmp_path / "market")
    first = cli("import", str(market), cwd=target)
    assert first.exit_code == 1
    assert (
        f"{TESTING}/agents/code-reviewer.md:2: agent 'code-reviewer' is also defined by "
        f"{QUALITY}/agents/code-reviewer.md"
    ) in first.stderr
    # the fix the message asks for: rename one of them (either), import again
    write(market, f"{QUALITY}/agents/code-reviewer.md", _agent("quality-reviewer", "code"))
    (market / f"{QUALITY}/skills/lint").rename(market / f"{QUALITY}/skills/quality-lint")
    write(market, f"{QUALITY}/skills/quality-lint/SKILL.md", _skill("quality-lint", "code"))
    (market / f"{QUALITY}/commands/check.md").rename(market / f"{QUALITY}/commands/qcheck.md")
    again = cli("import", str(market), cwd=target)
    assert again.exit_code == 0, again.stderr
    data = again.json()
    assert {a["name"] for a in data["agents"]} == {"quality-reviewer", "code-reviewer"}
    assert {s["name"] for s in data["skills"]} == {"quality-lint", "lint"}
    reg = load(target)
    assert "Review the tests." in reg.agents["code-reviewer"].prompt
    assert "Review the code." in reg.agents["quality-reviewer"].prompt
    assert cli("sync", cwd=target).exit_code == 0


VALUES = """# Project guide

## Core values

- Prefer composition over inheritance in new services.
- Prefer composition over inheritance only where it simplifies tests.
- Do not use the global logger; inject one.
- Do not use the network in unit tests.
- Tests first.
- **Small diffs**: keep each change reviewable.
"""


def test_values_named_from_their_text_keep_their_meaning_and_never_collide() -> None:
    from orkestra.importer.clients import values_of

    found, _ = values_of(VALUES)
    assert [v["name"] for v in found] == [
        "Prefer composition over inheritance in new services",
        "Prefer composition over inheritance only where it simplifies tests",
        "Do not use the global logger",
        "Do not use the network in unit tests",
        "Tests first",
        "Small diffs",
    ]
    assert found[2]["statement"] == "Do not use the global logger; inject one."
    abbreviated, _ = values_of(
        "## Values\n\n- Prefer libraries (e.g. requests) over raw sockets. Always.\n"
    )
    assert abbreviated[0]["name"] == "Prefer libraries (e.g. requests) over raw sockets"


def test_a_first_clause_two_values_share_names_each_by_its_whole_text() -> None:
    from orkestra.importer.clients import values_of

    found, _ = values_of(
        "## Values\n\n- Keep it simple; avoid new layers.\n- Keep it simple; delete dead code.\n"
    )
    assert [v["name"] for v in found] == [
        "Keep it simple; avoid new layers",
        "Keep it simple; delete dead code",
    ]


def test_every_value_of_an_agents_md_is_imported(tmp_path: Path, target: Path, cli: Any) -> None:
    write(tmp_path, "source/AGENTS.md", VALUES)
    result = cli("import", str(tmp_path / "source"), cwd=target)
    assert result.exit_code == 0, result.stderr
    data = result.json()
    assert data["collisions"] == [] and len(data["values"]) == 6
    statements = [v.statement for v in load(target).values]
    assert "Do not use the network in unit tests." in statements
    assert "Prefer composition over inheritance only where it simplifies tests." in statements
    again = cli("import", str(tmp_path / "source"), cwd=target)  # a rerun adds nothing
    assert again.exit_code == 0 and again.json()["written"] == []
    assert len(again.json()["collisions"]) == 6


PDF = "plugins/pdf/skills/pdf-tools"


def _pdf_plugin(base: Path, mode: int) -> Path:
    """A plugin whose skill's files all have `mode`: 0o644 as a zip or a filesystem without
    exec bits leaves them, 0o777 as a FAT or NTFS mount shows them."""
    write(base, "plugins/pdf/.claude-plugin/plugin.json", '{"name": "pdf"}\n')
    write(base, "plugins/pdf/agents/pdf-agent.md", _agent("pdf-agent", "PDFs"))
    files = {
        "SKILL.md": "---\nname: pdf-tools\ndescription: Extract text from PDFs. Use when the "
        "user hands you a PDF file.\n---\n\n## When to use\n\nRun `scripts/extract.sh FILE`.\n",
        "scripts/extract.sh": '#!/bin/sh\npdftotext "$1" -\n',
        "scripts/extract.py": "#!/usr/bin/env python3\nprint('x')\n",
        "scripts/helper.py": "import sys\nprint(sys.argv)\n",
        "references/REFERENCE.md": "# Reference\n",
        "assets/form.txt": "#!not a script outside scripts/\n",
    }
    for rel, text in files.items():
        write(base, f"{PDF}/{rel}", text).chmod(mode)
    return base


def _modes(folder: Path) -> dict[str, bool]:
    return {
        p.relative_to(folder).as_posix(): bool(p.stat().st_mode & 0o100)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "SKILL.md"
    }


WANTED = {
    "assets/form.txt": False,
    "references/REFERENCE.md": False,
    "scripts/extract.py": True,
    "scripts/extract.sh": True,
    "scripts/helper.py": False,
}


def test_a_skills_scripts_without_their_exec_bit_stay_runnable(
    tmp_path: Path, target: Path, cli: Any
) -> None:
    market = _pdf_plugin(tmp_path / "market", 0o644)
    assert cli("import", str(market), cwd=target).exit_code == 0
    assert _modes(target / "registries/skills/project/pdf-tools") == WANTED
    assert cli("sync", cwd=target).exit_code == 0
    rendered = target / ".claude/skills/pdf-tools"
    assert _modes(rendered) == WANTED
    for rel in WANTED:  # byte for byte
        assert (rendered / rel).read_bytes() == (market / PDF / rel).read_bytes()
    again = cli("sync", cwd=target)
    assert again.exit_code == 0 and again.json()["written"] == 0, again.stdout


def test_a_skill_whose_every_file_is_executable_keeps_it_only_for_its_programs(
    tmp_path: Path, target: Path, cli: Any
) -> None:
    """Every file executable, SKILL.md too: the modes say nothing (a FAT or NTFS mount), so the
    contents decide; a reference or an asset is not made a program."""
    market = _pdf_plugin(tmp_path / "market", 0o777)
    assert cli("import", str(market), cwd=target).exit_code == 0
    assert cli("sync", cwd=target).exit_code == 0
    assert _modes(target / ".claude/skills/pdf-tools") == WANTED


def test_a_skills_own_exec_bits_are_kept(tmp_path: Path, target: Path) -> None:
    market = _pdf_plugin(tmp_path / "market", 0o644)
    (market / PDF / "scripts/helper.py").chmod(0o755)  # meant by its author: kept
    import_tree(target, market)
    assert _modes(target / "registries/skills/project/pdf-tools") == {
        **WANTED,
        "scripts/helper.py": True,
    }


COPILOT = """---
name: API Architect
description: Designs APIs. Use when an endpoint changes.
tools: ['read', 'search', 'edit']
model: Claude Sonnet 4.5
---

You design REST APIs.
"""


def test_a_copilot_agent_naming_its_model_as_copilot_shows_it_comes_back_as_written(
    tmp_path: Path, cli: Any
) -> None:
    """Copilot's `model` is the name its model picker shows ("Claude Sonnet 4.5", "GPT-5
    (copilot)"), spaces and all: kept for Copilot's file, never a refusal."""
    from orkestra.core import frontmatter, yamlio
    from orkestra.scaffold import init_project

    source = tmp_path / "source"
    write(source, ".github/agents/api-architect.agent.md", COPILOT)
    write(source, ".codex/agents/fixer.toml",
          'name = "fixer"\ndescription = "Fixes bugs."\ndeveloper_instructions = "Fix."\n'
          'model = "gpt 5 codex"\n')  # fmt: skip
    root = tmp_path / "proj"
    init_project(root)
    config = yamlio.loads((root / "registries/orkestra.yaml").read_text())
    config["targets"] = ["claude", "copilot", "codex"]
    (root / "registries/orkestra.yaml").write_text(yamlio.dumps(dict(config)))
    result = cli("import", str(source), cwd=root)
    assert result.exit_code == 0, result.stderr
    assert {a["name"] for a in result.json()["agents"]} == {"api-architect", "fixer"}
    assert cli("sync", cwd=root).exit_code == 0
    rendered = root / ".github/agents/api-architect.agent.md"
    meta = frontmatter.parse(rendered.read_text(), "x").meta
    assert meta["model"] == "Claude Sonnet 4.5" and meta["name"] == "API Architect"
    assert 'model = "gpt 5 codex"' in (root / ".codex/agents/fixer.toml").read_text()


def test_client_files_the_import_does_not_read_are_listed_as_skipped(
    tmp_path: Path, target: Path, cli: Any
) -> None:
    """A marketplace's hooks, a Cursor rule, a Gemini command: none maps to a registry kind,
    and each is said so (never dropped without a word); other clients' MCP configs are read
    (tests/importer/test_client_mcp_configs.py), one in a subfolder is said to be left out."""
    market = _pdf_plugin(tmp_path / "market", 0o644)
    write(market, "plugins/pdf/hooks/hooks.json", '{"hooks": {"PreToolUse": []}}\n')
    write(market, ".cursor/rules/python.mdc", "---\ndescription: Py\nglobs: '**/*.py'\n---\nX\n")
    write(market, ".gemini/commands/review.toml", 'description = "Review"\nprompt = "Go"\n')
    write(market, ".cursor/mcp.json", '{"mcpServers": {"docs": {"url": "https://x.dev/mcp"}}}\n')
    write(market, ".vscode/mcp.json", '{"servers": {"docs": {"url": "https://x.dev/mcp"}}}\n')
    write(market, ".gemini/settings.json", '{"mcpServers": {"d": {"command": "npx"}}}\n')
    write(market, ".codex/config.toml", '[mcp_servers.docs]\nurl = "https://x.dev/mcp"\n')
    write(market, "plugins/pdf/.cursor/mcp.json", '{"mcpServers": {"e": {"command": "e"}}}\n')
    result = cli("import", str(market), cwd=target)
    assert result.exit_code == 0, result.stderr
    skipped = {s["path"]: s["reason"] for s in result.json()["skipped"]}
    assert "hooks" in skipped["plugins/pdf/hooks/hooks.json"]
    assert "Cursor rule" in skipped[".cursor/rules/python.mdc"]
    assert "registries/commands/" in skipped[".gemini/commands/review.toml"]
    assert "registries/mcp.yaml" in skipped["plugins/pdf/.cursor/mcp.json"]
    imported = {s["from"]: s["name"] for s in result.json()["mcp_servers"]}
    assert sorted(imported.values()) == ["d", "docs"] and imported[".gemini/settings.json"] == "d"
    docs = {c["from"] for c in result.json()["collisions"] if c["name"] == "docs"}
    assert docs | {k for k, v in imported.items() if v == "docs"} == {
        ".cursor/mcp.json",
        ".vscode/mcp.json",
        ".codex/config.toml",
    }  # one read, two alike
    table = cli("import", str(market), "--format", "table", cwd=target)
    assert "plugins/pdf/hooks/hooks.json" in table.stdout


def test_a_commands_empty_body_and_a_manifest_path_out_are_refused_at_their_line(
    tmp_path: Path, target: Path, cli: Any
) -> None:
    market = tmp_path / "market"
    write(market, "plugins/p1/.claude-plugin/plugin.json",
          '{\n  "name": "p1",\n  "version": "1.0.0",\n  "agents": "../../../outside"\n}\n')  # fmt: skip
    write(market, "plugins/p1/agents/p1-agent.md", _agent("p1-agent", "p1"))
    write(market, "plugins/p1/commands/empty.md", "---\ndescription: Does nothing\n---\n\n")
    result = cli("import", str(market), cwd=target)
    assert result.exit_code == 1
    refused = {r["path"]: r for r in result.json()["refused"]}
    manifest = refused["plugins/p1/.claude-plugin/plugin.json"]
    assert manifest["line"] == 4 and "outside the imported folder" in manifest["reason"]
    empty = refused["plugins/p1/commands/empty.md"]
    assert empty["line"] == 4, empty
    assert "write what the command does below the frontmatter" in empty["reason"]
    assert "plugins/p1/commands/empty.md:4: command without a body" in result.stderr


def test_a_marketplace_unzipped_on_a_mac_imports_without_its_archive_litter(
    tmp_path: Path, target: Path, cli: Any
) -> None:
    """macOS archives carry `__MACOSX/` (AppleDouble `._x` files, binary) and `.DS_Store`
    files: neither an entry to refuse (exit 1, "remove the NUL bytes") nor a resource to copy."""
    market = _pdf_plugin(tmp_path / "market", 0o644)
    double = b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        \x00\x02"
    for rel in ("__MACOSX/plugins/pdf/agents/._pdf-agent.md", f"__MACOSX/{PDF}/._SKILL.md",
                f"{PDF}/scripts/._extract.sh", "plugins/pdf/agents/._pdf-agent.md"):  # fmt: skip
        write(market, rel, "").write_bytes(double)
    write(market, f"{PDF}/.DS_Store", "").write_bytes(b"\x00\x00\x00\x01Bud1\x00")
    write(market, f"{PDF}/references/._notes.md", "# a real file named ._notes.md\n")
    result = cli("import", str(market), cwd=target)
    assert result.exit_code == 0, result.stderr
    data = result.json()
    assert data["refused"] == [] and {a["name"] for a in data["agents"]} == {"pdf-agent"}
    copy = target / "registries/skills/project/pdf-tools"
    assert sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file()) == [
        "assets/form.txt",
        "references/._notes.md",  # not AppleDouble: the author's file
        "references/REFERENCE.md",
        "scripts/extract.py",
        "scripts/extract.sh",
        "scripts/helper.py",
    ]


def test_a_folder_linked_to_one_the_import_reads_anyway_is_skipped_not_refused(
    tmp_path: Path, target: Path, cli: Any
) -> None:
    """`.agents/skills -> ../.claude/skills` (one set of skills for every client): the skills
    come in from the real folder, so the link is passed over with a word, not refused (exit
    1, "put a real folder in its place"); a linked folder inside a skill, whose files would be
    lost, is still refused, and so is one leading out or into a folder the walk skips."""
    source = tmp_path / "source"
    write(source, ".claude/skills/x/SKILL.md", _skill("x", "x files"))
    (source / ".agents").mkdir()
    (source / ".agents/skills").symlink_to("../.claude/skills", target_is_directory=True)
    result = cli("import", str(source), cwd=target)
    assert result.exit_code == 0, result.stderr
    data = result.json()
    assert [s["name"] for s in data["skills"]] == ["x"] and data["refused"] == []
    assert {"path": ".agents/skills", "reason": "symlink to .claude/skills, whose files are "
            "imported from there: not followed"} in data["skipped"]  # fmt: skip
    # inside a skill: its files would be missing from the copy
    write(source, "shared/refs/guide.md", "# Guide\n")
    write(source, ".claude/skills/y/SKILL.md", _skill("y", "y files"))
    (source / ".claude/skills/y/references").symlink_to(
        "../../../shared/refs", target_is_directory=True
    )
    write(source, "node_modules/pkg/agents/a.md", _agent("a", "a"))
    (source / ".claude/agents").symlink_to("../node_modules/pkg/agents", target_is_directory=True)
    again = cli("import", str(source), cwd=target)
    assert again.exit_code == 1
    refused = {r["path"] for r in again.json()["refused"]}
    assert refused == {".claude/skills/y/references", ".claude/agents"}


def test_two_plugins_declaring_one_mcp_server_differently_are_both_refused(
    tmp_path: Path, target: Path, cli: Any
) -> None:
    market = _clashing_marketplace(tmp_path / "market")
    for plugin, package in ((QUALITY, "@acme/gh-mcp"), (TESTING, "@other/gh-mcp")):
        write(market, f"{plugin}/.mcp.json", '{\n  "mcpServers": {\n    "github": {"command": '
              f'"npx", "args": ["-y", "{package}"]}},\n    "same": {{"command": "same"}}\n  }}\n}}\n')  # fmt: skip
    result = cli("import", str(market), cwd=target)
    assert result.exit_code == 1
    refused = {r["path"]: r for r in result.json()["refused"]}
    for mine, other in ((QUALITY, TESTING), (TESTING, QUALITY)):
        clash = refused[f"{mine}/.mcp.json"]
        assert clash["line"] == 3
        assert f"MCP server 'github' is also defined by {other}/.mcp.json" in clash["reason"]
    # the one they declare alike comes in once
    assert [s["name"] for s in result.json()["mcp_servers"]] == ["same"]
    assert "github" not in load(target).mcp_servers


MCP = """{
  "mcpServers": {
    "events": {"type": "sse", "url": "https://mcp.example.com/sse"},
    "broken": {"note": "no command, no url"},
    "local": {"command": "node", "args": ["server.js"], "cwd": "./srv", "timeout": 30},
    "remote": {"type": "http", "url": "https://mcp.example.com/mcp"}
  }
}
"""


def test_mcp_servers_the_registry_cannot_hold_are_refused_or_said(
    tmp_path: Path, target: Path, cli: Any
) -> None:
    """An SSE server (sync writes every URL as streamable HTTP: it would stop connecting) and
    one with neither `command` nor `url` are refused at their line; keys without a registry
    field are listed as left out; never dropped without a word."""
    source = tmp_path / "source"
    write(source, ".mcp.json", MCP)
    result = cli("import", str(source), cwd=target)
    assert result.exit_code == 1
    data = result.json()
    refused = {(r["line"], r["reason"][:38]) for r in data["refused"]}
    assert refused == {
        (3, "MCP server 'events' uses the SSE trans"),
        (4, "MCP server 'broken' has neither a `com"),
    }, data["refused"]
    assert "sync writes a URL as streamable HTTP" in str(data["refused"])
    assert all("import again" in r["reason"] for r in data["refused"])
    assert {"path": ".mcp.json", "reason": "MCP server 'local': cwd, timeout: no registry "
            "field, left out"} in data["skipped"]  # fmt: skip
    assert sorted(s["name"] for s in data["mcp_servers"]) == ["local", "remote"]


def test_a_skill_file_linked_inside_the_tree_keeps_its_targets_mode(
    tmp_path: Path, target: Path
) -> None:
    """A link's own mode is 0777: the copy takes the mode of the file it leads to, and a linked
    SKILL.md does not make the skill's modes meaningless."""
    market = _pdf_plugin(tmp_path / "market", 0o644)
    (market / PDF / "scripts/helper.py").chmod(0o755)
    write(market, "shared/NOTES.md", "# Notes\n")
    (market / PDF / "references/NOTES.md").symlink_to("../../../../../shared/NOTES.md")
    write(market, "shared/pdf-skill.md", (market / PDF / "SKILL.md").read_text())
    (market / PDF / "SKILL.md").unlink()
    (market / PDF / "SKILL.md").symlink_to("../../../../shared/pdf-skill.md")
    report = import_tree(target, market)
    assert report.refused == [], report.refused
    assert _modes(target / "registries/skills/project/pdf-tools") == {
        **WANTED,
        "references/NOTES.md": False,
        "scripts/helper.py": True,  # its own bit, kept: the modes mean something here
    }


CODE_VALUES = """# Project guide

## Values

- Use `re.compile(r"a; b")` patterns sparingly.
- Prefer `key: value` maps over positional tuples in config files.
- Write in U.S. English. Spell "color", not "colour".
- Keep functions under 40 lines; split when longer.
"""


def test_a_value_named_from_its_text_is_never_cut_inside_inline_code_or_an_initial() -> None:
    from orkestra.importer.clients import values_of

    found, _ = values_of(CODE_VALUES)
    assert [v["name"] for v in found] == [
        'Use `re.compile(r"a; b")` patterns sparingly',
        "Prefer `key: value` maps over positional tuples in config files",
        "Write in U.S. English",
        "Keep functions under 40 lines",
    ]


def test_an_agents_md_value_with_inline_code_imports_under_a_whole_name(
    tmp_path: Path, target: Path, cli: Any
) -> None:
    write(tmp_path, "source/AGENTS.md", CODE_VALUES)
    result = cli("import", str(tmp_path / "source"), cwd=target)
    assert result.exit_code == 0, result.stderr
    names = [v.name for v in load(target).values]
    assert 'Use `re.compile(r"a; b")` patterns sparingly' in names
    assert "Prefer `key: value` maps over positional tuples in config files" in names
    assert "Write in U.S. English" in names
