"""Red-team cases for `orkestra import` on real-shaped sources (issue 12, PRODUCT.md §4 Import,
§13): Windows line endings and byte-order marks, file names that are not UTF-8."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from orkestra.importer.run import import_tree
from orkestra.render.sync import sync
from tests.conftest import write

CRLF_AGENT = (
    "---\r\nname: crlf-agent\r\ndescription: >-\r\n  Folded over\r\n  two lines.\r\n"
    "tools: Read, Grep\r\n---\r\n# Title\r\n\r\nLine one.\r\nLine two.\r\n"
)
CRLF_SKILL = (
    "---\r\nname: crlf-skill\r\ndescription: CRLF skill. Use when testing line endings.\r\n"
    "---\r\n# T\r\n\r\nIntro.\r\n\r\n## When to use\r\n\r\nNow.\r\n"
)
CODEX = (
    'name = "crlf-codex"\r\ndescription = "Codex agent."\r\n'
    'developer_instructions = """\r\nFirst.\r\nSecond.\r\n"""\r\n'
)


def _bytes_below(root: Path, *parts: str) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for part in parts
        for p in sorted((root / part).rglob("*"))
        if p.is_file()
    }


def test_crlf_and_bom_sources_import_as_lf_and_render_without_mixed_endings(
    market: Path, target: Path
) -> None:
    write(market, "plugins/crlf/agents/crlf-agent.md", "")
    (market / "plugins/crlf/agents/crlf-agent.md").write_bytes(CRLF_AGENT.encode())
    (market / "plugins/crlf/skills/crlf-skill").mkdir(parents=True)
    (market / "plugins/crlf/skills/crlf-skill/SKILL.md").write_bytes(
        b"\xef\xbb\xbf" + CRLF_SKILL.encode()
    )
    (market / "plugins/crlf/skills/crlf-skill/data.txt").write_bytes(b"kept\r\nas is\r\n")
    (market / ".codex/agents").mkdir(parents=True)
    (market / ".codex/agents/crlf-codex.toml").write_bytes(CODEX.encode())
    report = import_tree(target, market)
    assert report.refused == [] and report.collisions == []
    assert {"crlf-agent", "crlf-codex"} <= {a["name"] for a in report.agents}
    assert "crlf-skill" in {s["name"] for s in report.skills}
    for rel, data in _bytes_below(target, "registries/agents", "registries/skills").items():
        if rel.endswith(".yaml"):
            assert b"\r" not in data and b"\\r" not in data, rel
    sync(target)
    rendered = _bytes_below(target, ".claude")
    agent = rendered[".claude/agents/crlf-agent.md"].decode()
    assert "# Title\n\nLine one.\nLine two.\n" in agent
    assert 'description: "Folded over two lines."' in agent
    skill = rendered[".claude/skills/crlf-skill/SKILL.md"].decode()
    assert skill.endswith("# T\n\nIntro.\n\n## When to use\n\nNow.\n")
    assert [rel for rel, data in rendered.items() if b"\r" in data] == [
        ".claude/skills/crlf-skill/data.txt"  # a resource is copied byte for byte
    ]
    assert rendered[".claude/skills/crlf-skill/data.txt"] == b"kept\r\nas is\r\n"
    assert sync(target).written == 0


def test_names_that_are_not_utf8_are_refused_once_and_the_rest_renders(
    market: Path, target: Path
) -> None:
    def raw(rel: bytes, data: bytes) -> None:  # a name as the OS gives undecodable bytes
        path = Path(os.fsdecode(os.fsencode(market / "plugins/alpha") + rel))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)

    raw(b"/agents/caf\xe9.md", b"---\nname: cafe\ndescription: Undecodable name.\n---\nbody\n")
    raw(b"/skills/sk\xe9/SKILL.md", b"---\nname: ske\ndescription: Ske. Use when x.\n---\nbody\n")
    raw(b"/skills/pdf-tools/references/r\xe9sum\xe9.txt", b"latin-1 name\n")
    report = import_tree(target, market)
    reasons = {r["path"]: r["reason"] for r in report.refused}
    assert sorted(reasons) == [
        "plugins/alpha/agents/caf\\xe9.md",
        "plugins/alpha/skills/pdf-tools/references/r\\xe9sum\\xe9.txt",
        "plugins/alpha/skills/sk\\xe9",
    ]
    assert len(report.refused) == 3  # each once, not again by the resource walk
    assert all("not UTF-8" in reason and "rename it" in reason for reason in reasons.values())
    json.dumps(report.to_dict(), ensure_ascii=False).encode("utf-8")  # printable as JSON
    assert "pdf-tools" in {s["name"] for s in report.skills}
    sync(target)  # the lock and every record can name what was written
    assert sync(target).written == 0
    assert sorted(p.name for p in (target / ".claude/skills/pdf-tools/references").iterdir()) == [
        "REFERENCE.md"
    ]


CODEX_LAYER = """name = "layered"
description = "A Codex role that is a whole config layer."
model = "gpt-5-codex"
approval_policy = "never"
model_provider = "openai"
model_reasoning_summary = "auto"
model_context_window = 100000
nickname_candidates = ["Ada", "Grace"]
x_ratio = 0.25
x_inf = -inf
developer_instructions = '''
Literal \\\\ backslashes and \"\"\" quotes stay.
'''

[sandbox_workspace_write]
network_access = true

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-server"]

[[x_hooks]]
event = "a"
"""


def test_a_codex_config_layer_round_trips_every_key(tmp_path: Path, target: Path) -> None:
    import tomllib

    from tests.render.targets.test_targets import set_targets

    source = tmp_path / "codex-src"
    write(source, ".codex/agents/layered.toml", CODEX_LAYER)
    write(
        source,
        ".codex/agents/dated.toml",
        'name = "dated"\ndescription = "d"\ndeveloper_instructions = "x"\nmodel = 3\n'
        "x_when = 1979-05-27T07:32:00Z\nx_day = 1979-05-27\nx_time = 07:32:00\n",
    )
    report = import_tree(target, source)
    assert report.refused == [] and {a["name"] for a in report.agents} == {"layered", "dated"}
    set_targets(target, ["claude", "codex"])
    sync(target)
    before = tomllib.loads(CODEX_LAYER)
    after = tomllib.loads((target / ".codex/agents/layered.toml").read_text(encoding="utf-8"))
    prompt = before.pop("developer_instructions")
    assert after.pop("developer_instructions").endswith(prompt)
    # no key added: without its own `sandbox_mode` the agent still inherits the session's sandbox
    # (one derived from its tools could widen a read-only session)
    assert "sandbox_mode" not in after
    assert after == before
    dated = tomllib.loads((target / ".codex/agents/dated.toml").read_text(encoding="utf-8"))
    assert dated["model"] == 3  # kept as written, not dropped
    assert (dated["x_when"], dated["x_day"], dated["x_time"]) == (
        "1979-05-27T07:32:00+00:00",
        "1979-05-27",
        "07:32:00",
    )
    assert sync(target).written == 0


def test_reimporting_the_rendered_claude_folder_gives_the_same_bytes(
    market: Path, target: Path, tmp_path: Path
) -> None:
    """import -> sync -> import the rendered .claude/ into a new project -> sync: the same files
    (the skill roster sync composed is not taken for part of the prompt and composed twice)."""
    from orkestra.scaffold import init_project

    import_tree(target, market)
    sync(target)
    again = tmp_path / "again"
    init_project(again)
    report = import_tree(again, target / ".claude")
    assert report.refused == [] and report.validation == {"errors": 0, "warnings": 0}
    sync(again)
    assert _bytes_below(again, ".claude") == _bytes_below(target, ".claude")
    assert sync(again).written == 0
    prompt = (again / "registries/agents/code-reviewer.yaml").read_text(encoding="utf-8")
    assert "Load a skill when" not in prompt and "## Instructions" not in prompt


def test_without_roster_takes_only_what_sync_composes_again() -> None:
    from orkestra.importer.parse import ROSTER, without_roster

    roster = ROSTER + "- `a`: A skill.\n- `b`: B skill.\n\n"
    assert without_roster(roster + "## Instructions\n\nDo it.\n") == "\nDo it.\n"
    assert without_roster(roster) == ""
    tools = "## Tools\n\n### Bash\n\nQuote paths.\n\n## Instructions\n\nDo it.\n"
    assert without_roster(roster + tools) == tools  # not composed here again: kept
    hand = "## Skills\n\nMy own list:\n\n- `a`\n"
    assert without_roster(hand) == hand  # a hand-written section is never touched


def test_tool_names_tools_yaml_cannot_hold_are_kept_verbatim_not_a_broken_registry(
    tmp_path: Path, target: Path
) -> None:
    """`tools: '*'` or a whole MCP server (`mcp__github`) used to be imported as tools that
    validate then refused (ORK025), so one agent stopped every sync of the collection."""
    from orkestra.core import frontmatter

    source = tmp_path / "odd-tools"
    write(source, "p/agents/star.md", "---\nname: star\ndescription: d\ntools: '*'\n---\nx\n")
    write(
        source,
        "p/agents/lead.md",
        "---\nname: lead\ndescription: d\ntools: Agent, mcp__github, mcp__db__*, Bash(*)\n---\nx\n",
    )
    report = import_tree(target, source)
    assert report.refused == [] and report.validation == {"errors": 0, "warnings": 0}
    assert "tools" in next(a for a in report.agents if a["name"] == "lead")["kept_frontmatter"]
    sync(target)
    for name, tools in (("star", "*"), ("lead", "Agent, mcp__github, mcp__db__*, Bash(*)")):
        text = (target / f".claude/agents/{name}.md").read_text(encoding="utf-8")
        assert frontmatter.parse(text, name).meta["tools"] == tools
    lead = (target / "registries/agents/lead.yaml").read_text(encoding="utf-8")
    assert "role: orchestrator" in lead  # it still spawns agents
    assert sync(target).written == 0


def test_a_skill_whose_allowed_tools_cannot_be_registered_is_refused_alone(
    tmp_path: Path, target: Path
) -> None:
    source = tmp_path / "odd-skill"
    write(
        source,
        "p/skills/odd/SKILL.md",
        "---\nname: odd\ndescription: Odd. Use when x.\nallowed-tools: Read mcp__github\n---\nb\n",
    )
    write(
        source, "p/skills/fine/SKILL.md", "---\nname: fine\ndescription: F. Use when y.\n---\nb\n"
    )
    write(
        source, "p/agents/user.md", "---\nname: user\ndescription: d\nskills: odd, fine\n---\nx\n"
    )
    report = import_tree(target, source)
    [refused] = report.refused
    assert (refused["path"], refused["line"]) == ("p/skills/odd/SKILL.md", 4)
    assert "'mcp__github'" in refused["reason"] and "one by one" in refused["reason"]
    assert report.validation == {"errors": 0, "warnings": 0}  # the rest syncs
    assert {s["name"] for s in report.skills} == {"fine"}
    assert any("lists the refused skill 'odd'" in hint for hint in report.hints)
    sync(target)
    assert (target / ".claude/skills/fine/SKILL.md").is_file()


def test_marketplace_plugins_the_walk_cannot_reach_are_reported(
    market: Path, target: Path, tmp_path: Path
) -> None:
    manifest = {
        "name": "m",
        "metadata": {"pluginRoot": "./plugins"},
        "plugins": [
            {"name": "alpha", "source": "./plugins/alpha"},
            {"name": "beta", "source": "beta"},  # below pluginRoot: found by the walk
            {"name": "remote", "source": {"source": "github", "repo": "acme/remote-plugin"}},
            {"name": "sibling", "source": "../outside"},
            {"name": "ghost", "source": "./plugins/ghost"},
            {"name": "bare"},
        ],
    }
    write(tmp_path, "outside/agents/secret.md", "---\nname: secret\ndescription: d\n---\nx\n")
    write(market, ".claude-plugin/marketplace.json", json.dumps(manifest))
    report = import_tree(target, market)
    reasons = [s["reason"] for s in report.skipped if s["path"].endswith("marketplace.json")]
    assert len(reasons) == 4, reasons
    assert "'remote' comes from acme/remote-plugin" in reasons[0] and "clone it" in reasons[0]
    assert "'sibling' (source '../outside') is outside the imported folder" in reasons[1]
    assert "'ghost'" in reasons[2] and "does not exist" in reasons[2]
    assert "'bare' has no `source`" in reasons[3]
    assert "secret" not in {a["name"] for a in report.agents}
    assert report.refused == [] and not report.failed  # informative: exit 0
    write(market, ".claude-plugin/marketplace.json", "{not json")
    report = import_tree(target, market, dry_run=True)
    assert [r["path"] for r in report.refused] == [".claude-plugin/marketplace.json"]


def test_what_a_skill_ships_below_its_folder_stays_its_resources(
    tmp_path: Path, target: Path
) -> None:
    """A `templates/SKILL.md` with placeholders, an `examples/x/SKILL.md` and the prompts of an
    `agents/` folder inside a skill are that skill's files: not entries (a template used to be
    refused, failing the import, and an example became a registry skill of its own)."""
    source = tmp_path / "nested"
    base = "p/skills/skill-creator"
    write(
        source,
        f"{base}/SKILL.md",
        "---\nname: skill-creator\ndescription: C. Use when x.\n---\nb\n",
    )
    write(source, f"{base}/templates/SKILL.md", "---\nname: {{ skill_name }}\n---\n# {{ t }}\n")
    write(source, f"{base}/examples/demo/SKILL.md", "---\nname: demo\ndescription: D.\n---\nb\n")
    write(source, f"{base}/agents/grader.md", "---\nname: grader\ndescription: G.\n---\nGrade.\n")
    write(source, "p/agents/writer.md", "---\nname: writer\ndescription: W.\n---\nWrite.\n")
    report = import_tree(target, source)
    assert report.refused == [] and not report.failed
    assert [s["name"] for s in report.skills] == ["skill-creator"]
    assert report.skills[0]["resources"] == 3
    assert [a["name"] for a in report.agents] == ["writer"]
    sync(target)
    shipped = target / ".claude/skills/skill-creator"
    assert (
        shipped / "templates/SKILL.md"
    ).read_text() == "---\nname: {{ skill_name }}\n---\n# {{ t }}\n"
    assert (shipped / "agents/grader.md").is_file()
    assert not (target / ".claude/agents/grader.md").exists()


def test_claude_commands_are_imported_and_render_back(tmp_path: Path, target: Path) -> None:
    """A marketplace's `commands/*.md` used to be left behind without a word."""
    from orkestra.core import frontmatter

    source = tmp_path / "cmds"
    write(
        source,
        "p/commands/review.md",
        "---\ndescription: Review the diff\nargument-hint: '[path]'\nallowed-tools: Bash(git diff:*), Read\n"
        "model: sonnet\ndisable-model-invocation: true\n---\n\nReview $ARGUMENTS carefully.\n",
    )
    write(source, "p/commands/bare.md", "# Summarise the branch\n\nList every commit.\n")
    write(source, "p/commands/odd.md", "---\nallowed-tools: '*'\n---\nx\n")
    write(source, "p/agents/a.md", "---\nname: a\ndescription: d\n---\nx\n")
    write(source, "docs/commands/install.md", "# Install\n\nA page of the docs.\n")
    report = import_tree(target, source)
    assert {c["name"] for c in report.commands} == {"review", "bare"}
    [refused] = report.refused
    assert (refused["path"], refused["line"]) == ("p/commands/odd.md", 2)
    [note] = [s for s in report.skipped if s["path"] == "p/commands/review.md"]
    assert "disable-model-invocation" in note["reason"]
    assert report.validation == {"errors": 0, "warnings": 0}
    sync(target)
    review = frontmatter.parse((target / ".claude/commands/review.md").read_text(), "review")
    assert dict(review.meta) == {
        "description": "Review the diff",
        "argument-hint": "[path]",
        "allowed-tools": "Bash(git diff:*), Read",
        "model": "sonnet",
    }
    assert review.body.strip() == "Review $ARGUMENTS carefully."
    bare = frontmatter.parse((target / ".claude/commands/bare.md").read_text(), "bare")
    assert bare.meta["description"] == "Summarise the branch"
    assert bare.body.strip() == "# Summarise the branch\n\nList every commit."
    assert sync(target).written == 0


def test_pages_of_docs_in_an_agents_folder_are_skipped_not_refused(
    tmp_path: Path, target: Path
) -> None:
    """Importing a whole repository: `docs/agents/*.md` pages with a `title` frontmatter are not
    agents (they used to be refused, failing the import)."""
    source = tmp_path / "repo"
    write(source, "docs/agents/overview.md", "---\ntitle: Our agents\n---\n# Agents\n")
    write(source, ".claude/agents/real.md", "---\nname: real\ndescription: Real.\n---\nx\n")
    write(source, ".claude/agents/broken.md", "---\ntitle: no name\n---\nx\n")
    report = import_tree(target, source)
    assert [a["name"] for a in report.agents] == ["real"]
    assert [s["path"] for s in report.skipped] == ["docs/agents/overview.md"]
    # in a client's own folder a file without them is still a broken agent: refused
    assert [r["path"] for r in report.refused] == [".claude/agents/broken.md"]


def test_a_plugins_mcp_servers_are_imported_with_its_agents(tmp_path: Path, target: Path) -> None:
    """A plugin's `.mcp.json` declares the servers its agents' `mcp__server__tool` names use;
    left behind, the rendered agents named tools of servers no client config declared."""
    source = tmp_path / "mcp-market"
    plugin = "plugins/db"
    write(source, f"{plugin}/.claude-plugin/plugin.json", '{"name": "db"}')
    servers = {
        "mcpServers": {
            "postgres": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/pg", "args": ["--ro"]},
            "docs": {"type": "http", "url": "https://mcp.example.com/docs"},
        }
    }
    write(source, f"{plugin}/.mcp.json", json.dumps(servers))
    write(
        source,
        f"{plugin}/agents/dba.md",
        "---\nname: dba\ndescription: d\ntools: Read, mcp__postgres__query\n---\nx\n",
    )
    write(source, "docs/.mcp.json", json.dumps({"mcpServers": {"stray": {"command": "x"}}}))
    report = import_tree(target, source)
    assert {m["name"] for m in report.mcp_servers} == {"postgres", "docs"}
    assert report.validation == {"errors": 0, "warnings": 0}
    sync(target)
    claude = json.loads((target / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]
    assert claude["postgres"] == {"command": "${CLAUDE_PLUGIN_ROOT}/bin/pg", "args": ["--ro"]}
    assert claude["docs"]["url"] == "https://mcp.example.com/docs" and "stray" not in claude


def test_a_plugin_manifests_own_paths_are_imported(tmp_path: Path, target: Path) -> None:
    """`plugin.json` may put agents, commands and MCP servers at paths of its own; they used to
    be left behind without a word."""
    source = tmp_path / "custom"
    plugin = "plugins/sec"
    manifest = {
        "name": "sec",
        "agents": ["./reviewers/", "./extra/lone.md", "./agents/std.md"],
        "commands": "./cmds/",
        "mcpServers": "./servers.json",
        "hooks": "./hooks.json",
    }
    write(source, f"{plugin}/.claude-plugin/plugin.json", json.dumps(manifest))
    for rel, name in (("reviewers/audit.md", "audit"), ("extra/lone.md", "lone"),
                      ("agents/std.md", "std")):  # fmt: skip
        write(source, f"{plugin}/{rel}", f"---\nname: {name}\ndescription: d\n---\nx\n")
    write(source, f"{plugin}/reviewers/notes.txt", "not an agent")
    write(source, f"{plugin}/cmds/scan.md", "---\ndescription: Scan\n---\nScan it.\n")
    write(source, f"{plugin}/servers.json", json.dumps({"mcpServers": {"sast": {"command": "s"}}}))
    report = import_tree(target, source)
    assert sorted(a["name"] for a in report.agents) == ["audit", "lone", "std"]
    assert [c["name"] for c in report.commands] == ["scan"]
    assert [m["name"] for m in report.mcp_servers] == ["sast"]
    assert report.refused == [] and report.validation == {"errors": 0, "warnings": 0}

    outside = tmp_path / "elsewhere"
    write(outside, "agents/leak.md", "---\nname: leak\ndescription: d\n---\nx\n")
    bad = {"name": "bad", "agents": ["../../../elsewhere/agents/"], "commands": ["./none/"]}
    write(source, "plugins/bad/.claude-plugin/plugin.json", json.dumps(bad))
    report = import_tree(target, source, dry_run=True)
    [refused] = report.refused
    assert refused["path"] == "plugins/bad/.claude-plugin/plugin.json"
    assert "outside the imported folder" in refused["reason"]
    assert "leak" not in {a["name"] for a in report.agents}
    assert any("'./none/', which does not exist" in s["reason"] for s in report.skipped)


def test_an_agent_listing_a_skill_nobody_has_is_imported_without_it(
    tmp_path: Path, target: Path
) -> None:
    """A plugin agent's `skills` may name a skill of the user's own ~/.claude/skills; imported
    as is, the dangling name (ORK024) stopped every sync of the collection."""
    source = tmp_path / "dangling"
    write(source, "p/agents/a.md", "---\nname: a\ndescription: d\nskills: pdf, elsewhere\n---\nx\n")
    write(source, "p/skills/pdf/SKILL.md", "---\nname: pdf\ndescription: P. Use when p.\n---\nb\n")
    report = import_tree(target, source)
    assert report.validation == {"errors": 0, "warnings": 0} and not report.failed
    assert any(
        "lists the skill 'elsewhere', which neither this import nor the registry has" in hint
        for hint in report.hints
    )
    agent = (target / "registries/agents/a.yaml").read_text(encoding="utf-8")
    assert "pdf" in agent and "elsewhere" not in agent
    # a skill the project already has stays listed
    write(source, "q/agents/b.md", "---\nname: b\ndescription: d\nskills: example-skill\n---\nx\n")
    report = import_tree(target, source)
    assert "example-skill" in (target / "registries/agents/b.yaml").read_text(encoding="utf-8")


def test_a_clients_tools_kept_as_a_string_render_back_as_written(
    tmp_path: Path, target: Path
) -> None:
    """A Copilot or Gemini agent whose `tools` is not a list of names Orkestra maps is kept
    verbatim; rendered back, a string went through the list template character by character
    (`tools: ["r", "e", ...]`) and a number failed the whole sync."""
    from orkestra.core import frontmatter
    from tests.render.targets.conftest import ALL
    from tests.render.targets.test_targets import set_targets

    source = tmp_path / "clients-src"
    write(source, ".github/agents/cop.agent.md",
          "---\nname: cop\ndescription: d\ntools: read, github/*\n---\nx\n")  # fmt: skip
    write(source, ".gemini/agents/gem.md", "---\nname: gem\ndescription: d\ntools: 1.5\n---\nx\n")
    write(source, ".gemini/agents/lst.md",
          "---\nname: lst\ndescription: d\ntools: [read_file, odd_tool]\n---\nx\n")  # fmt: skip
    report = import_tree(target, source)
    assert report.refused == [] and report.validation == {"errors": 0, "warnings": 0}
    set_targets(target, ALL)
    sync(target)

    def meta(rel: str) -> dict[str, object]:
        return dict(frontmatter.parse((target / rel).read_text(encoding="utf-8"), rel).meta)

    assert meta(".github/agents/cop.agent.md")["tools"] == "read, github/*"
    assert meta(".gemini/agents/gem.md")["tools"] == 1.5
    assert meta(".gemini/agents/lst.md")["tools"] == ["read_file", "odd_tool"]
    assert sync(target).written == 0


def test_registry_files_the_import_adds_to_keep_the_users_comments(
    tmp_path: Path, target: Path
) -> None:
    """tools.yaml, scopes.yaml, values.yaml and mcp.yaml are the team's own files: the import
    used to rewrite them whole, dropping every comment."""
    from orkestra.core import yamlio

    tools = (
        "# Tools every agent may use.\nbuiltin:\n  - Read   # always fine\n  - Grep\n  - Glob\n"
        "mcp: {}   # none yet\nguides:\n  Grep: |\n    Prefer rg.\n"
    )
    scopes = (
        "# our scopes\nscopes:\n    example:   # init's\n        description: Example\n"
        "        primary_skills: [example-skill]\n"
    )
    write(target, "registries/tools.yaml", tools)
    write(target, "registries/scopes.yaml", scopes)
    write(target, "registries/mcp.yaml", "# servers\ngithub:\n  command: gh-mcp\n")
    source = tmp_path / "commented"
    write(
        source,
        "pl/agents/a.md",
        "---\nname: a\ndescription: d\ntools: Read, New, mcp__db__q\n---\nx\n",
    )
    write(source, "pl/skills/s/SKILL.md", "---\nname: s\ndescription: S. Use when s.\n---\nb\n")
    write(source, "pl/.mcp.json", json.dumps({"mcpServers": {"db": {"command": "db-mcp"}}}))
    write(source, "AGENTS.md", "# Team\n\n## Values\n\n- **Small steps**: one change at a time.\n")
    report = import_tree(target, source)
    assert report.refused == [] and report.validation == {"errors": 0, "warnings": 0}
    text = {n: (target / f"registries/{n}.yaml").read_text() for n in ("tools", "scopes", "mcp")}
    assert text["tools"].startswith(tools.split("mcp:")[0] + "  - New\n")
    assert "# none yet" in text["tools"] and "Prefer rg." in text["tools"]
    assert yamlio.loads(text["tools"], "t")["mcp"] == {"db": ["q"]}
    assert text["scopes"].startswith(scopes) and "pl:" in text["scopes"]
    assert (
        text["mcp"].startswith("# servers\ngithub:\n  command: gh-mcp\n") and "db:" in text["mcp"]
    )
    # a layout the text edit does not handle is written whole, still right
    write(target, "registries/tools.yaml", "builtin: [Read, Grep, Glob]  # flow\nmcp: {}\n")
    write(source, "pl2/agents/b.md", "---\nname: b\ndescription: d\ntools: Other\n---\nx\n")
    import_tree(target, source)
    again = yamlio.loads((target / "registries/tools.yaml").read_text(), "t")
    assert again["builtin"] == ["Read", "Grep", "Glob", "Other"]


def test_an_imported_codex_agent_keeps_its_own_sandbox_mode(tmp_path: Path, target: Path) -> None:
    import tomllib

    from tests.render.targets.test_targets import set_targets

    source = tmp_path / "codex-src"
    write(source, ".codex/agents/reader.toml", 'name = "reader"\ndescription = "Reads."\n'
          'sandbox_mode = "read-only"\ndeveloper_instructions = "Read."\n')  # fmt: skip
    assert import_tree(target, source).refused == []
    set_targets(target, ["claude", "codex"])
    sync(target)
    after = tomllib.loads((target / ".codex/agents/reader.toml").read_text(encoding="utf-8"))
    assert after["sandbox_mode"] == "read-only"


def test_a_full_disk_halfway_through_an_import_writes_no_file(
    tmp_path: Path, target: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from orkestra.core import safewrite
    from orkestra.core.errors import WriteFailed

    source = tmp_path / "src"
    for name in ("alpha", "beta"):
        agent = (
            f"---\nname: {name}\ndescription: The {name} agent.\ntools: Read, WebFetch\n---\nHi.\n"
        )
        write(source, f"agents/{name}.md", agent)
    before = _bytes_below(target, "registries")
    real = safewrite._fill

    def fill(tmp: str, payload: bytes, mode: int, durable: bool) -> None:
        if "/.tools.yaml.orkestra-" in tmp:  # the last file, after both agents
            raise OSError(errno.ENOSPC, "No space left on device", tmp)
        real(tmp, payload, mode, durable)

    with monkeypatch.context() as patch:
        patch.setattr(safewrite, "_fill", fill)
        with pytest.raises(WriteFailed) as err:
            import_tree(target, source)
    assert err.value.file == "registries/tools.yaml" and "No space left" in err.value.message
    assert _bytes_below(target, "registries") == before  # no agent naming an unknown tool
    report = import_tree(target, source)  # the rerun imports everything, not collisions
    assert {"registries/agents/alpha.yaml", "registries/tools.yaml"} <= set(report.written)
    assert report.validation == {"errors": 0, "warnings": report.validation["warnings"]}


def test_a_registry_file_the_import_cannot_add_to_as_text_keeps_its_comments(
    tmp_path: Path, target: Path
) -> None:
    """A one-line flow list takes the addition inside its brackets, its comment kept; a layout
    the text edit cannot handle in a file with comments is refused, never rewritten without
    them (a file without comments is still written whole)."""
    from orkestra.core.errors import InputError

    source = tmp_path / "src"
    write(source, "agents/b.md", "---\nname: b\ndescription: d\ntools: Other\n---\nx\n")
    write(target, "registries/tools.yaml", "builtin: [Read, Grep, Glob]  # flow\nmcp: {}\n")
    import_tree(target, source)
    text = (target / "registries/tools.yaml").read_text()
    assert text.startswith("builtin: [Read, Grep, Glob, Other]  # flow\n")

    folded = "# our tools\nbuiltin: [Read,\n  Grep, Glob]\nmcp: {}\n"
    write(target, "registries/tools.yaml", folded)
    write(source, "agents/c.md", "---\nname: c\ndescription: d\ntools: Third\n---\nx\n")
    before = _bytes_below(target, "registries")
    with pytest.raises(InputError) as err:
        import_tree(target, source)
    assert (err.value.file, err.value.line) == ("registries/tools.yaml", 1)
    assert "would lose its comments" in err.value.message and "block style" in err.value.message
    assert _bytes_below(target, "registries") == before  # nothing was written

    write(target, "registries/tools.yaml", folded.removeprefix("# our tools\n"))
    import_tree(target, source)
    assert "Third" in (target / "registries/tools.yaml").read_text()
