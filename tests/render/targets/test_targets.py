"""The client targets: goldens, idempotency and --check per target, pruning, per-agent clients,
per-client models, tool mapping and the MCP servers of registries/mcp.yaml."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
from skills_ref.validator import validate as agentskills_validate

from orkestra.core import frontmatter, yamlio
from orkestra.registry.loader import load
from orkestra.registry.validate import validate
from orkestra.render.sync import sync
from orkestra.render.targets import codex, cursor, gemini
from tests.render.targets.conftest import ALL, build_clients

GOLDEN = Path(__file__).parent / "golden"
SHAPES = {
    "agents-md.md": "AGENTS.md",
    "codex-agent.toml": ".codex/agents/notebook-analyst.toml",
    "codex-config.toml": ".codex/config.toml",
    "copilot-agent.md": ".github/agents/notebook-analyst.agent.md",
    "copilot-instructions.md": ".github/copilot-instructions.md",
    "cursor-agent.md": ".cursor/agents/notebook-analyst.md",
    "cursor-rule.mdc": ".cursor/rules/orkestra.mdc",
    "gemini-agent.md": ".gemini/agents/notebook-analyst.md",
    "gemini-settings.json": ".gemini/settings.json",
    "vscode-mcp.json": ".vscode/mcp.json",
    "cursor-mcp.json": ".cursor/mcp.json",
    "claude-mcp.json": ".mcp.json",
}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ORKESTRA_TODAY", "2026-11-30")
        root = build_clients(tmp_path_factory.mktemp("targets") / "clients")
        sync(root)
    return root


@pytest.mark.parametrize("golden", sorted(SHAPES))
def test_rendered_file_matches_golden(rendered: Path, golden: str) -> None:
    actual = (rendered / SHAPES[golden]).read_text(encoding="utf-8")
    path = GOLDEN / golden
    if os.environ.get("ORKESTRA_UPDATE_GOLDEN"):
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8"), f"{golden} differs from {SHAPES[golden]}"


@pytest.mark.parametrize("target", ALL)
def test_each_target_alone_is_idempotent_and_check_clean(clients: Path, target: str) -> None:
    first = sync(clients, target=target)
    assert first.written > 0
    assert sync(clients, target=target).written == 0
    assert sync(clients, target=target, mode="check").ok
    # the other targets were not rendered: a full check finds them missing
    assert not sync(clients, mode="check").ok


def test_the_targets_of_one_render_compose_each_agent_once(
    clients: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.render import sync as sync_module
    from orkestra.render.environment import Templates
    from orkestra.render.targets import claude

    reg = load(clients)
    alone = {
        out.path: out.data
        for target in ALL
        for out in sync_module.render_outputs(reg, [target], Templates(clients))
    }
    made: list[str] = []
    composed = claude.agent_context
    monkeypatch.setattr(claude, "agent_context", lambda a, s: made.append(a.name) or composed(a, s))
    prompts: list[str] = []
    render = Templates.render
    monkeypatch.setattr(
        Templates,
        "render",
        lambda self, name, context, **kw: (
            (prompts.append(name) if name.startswith("shared/") else None)
            or render(self, name, context, **kw)
        ),
    )
    templates = Templates(clients)
    together = {o.path: o.data for o in sync_module.render_outputs(reg, ALL, templates)}
    assert together == alone  # byte for byte what each target renders on its own
    assert sorted(made) == sorted(set(made)) and set(made) == set(reg.agents)
    # one composed prompt per agent for the four targets that write it; the instruction block
    # once with markers (AGENTS.md, Copilot's file) and once without (Cursor's rule)
    assert sorted(prompts) == sorted(
        ["shared/instructions.md.j2"] * 2 + ["shared/prompt.md.j2"] * len(reg.agents)
    )
    assert templates.shared is None  # nothing is shared with the next render
    made.clear()
    sync_module.render_outputs(reg, ["codex", "gemini"], templates)
    assert sorted(made) == sorted(reg.agents)  # a new render composes again


def test_full_sync_twice_writes_nothing_and_check_is_clean(clients: Path) -> None:
    sync(clients)
    assert sync(clients).written == 0
    assert sync(clients, mode="check").ok


def test_removing_targets_prunes_their_files_and_keeps_shared_configs(clients: Path) -> None:
    sync(clients)
    set_targets(clients, ["claude"])
    report = sync(clients)
    for gone in (".codex/agents", ".github/agents", ".cursor/agents", ".gemini/agents"):
        assert not list((clients / gone).glob("*")), gone
    assert not (clients / ".agents/skills").exists()
    assert not (clients / ".cursor/rules/orkestra.mdc").exists()
    assert ".codex/agents/notebook-analyst.toml" in report.plan.deleted
    assert (clients / ".claude/agents/notebook-analyst.md").is_file()
    assert (clients / ".codex/config.toml").is_file()  # the user's file: only entries managed


def test_target_option_prunes_only_that_target(clients: Path) -> None:
    sync(clients)
    (clients / "registries/agents/codex-reviewer.yaml").unlink()
    report = sync(clients, target="gemini")
    assert report.plan.deleted == []
    report = sync(clients, target="codex")
    assert report.plan.deleted == [".codex/agents/codex-reviewer.toml"]
    assert (clients / ".claude/agents/codex-reviewer.md").is_file()


def test_an_agent_is_rendered_only_for_its_clients(rendered: Path) -> None:
    found = sorted(
        p.relative_to(rendered).as_posix()
        for p in rendered.rglob("codex-reviewer*")
        if not p.is_relative_to(rendered / "registries")
    )
    assert found == [".claude/agents/codex-reviewer.md", ".codex/agents/codex-reviewer.toml"]


def test_models_per_client_and_never_a_claude_name_elsewhere(rendered: Path) -> None:
    agent = tomllib.loads((rendered / ".codex/agents/notebook-analyst.toml").read_text())
    assert agent["model"] == "gpt-5-codex"
    copilot = _frontmatter(rendered / ".github/agents/notebook-analyst.agent.md")
    assert "model" not in copilot  # `sonnet` is a Claude name: the client's default instead
    for folder in (".codex/agents", ".github/agents", ".cursor/agents", ".gemini/agents"):
        for path in (rendered / folder).iterdir():
            text = path.read_text()
            head = text.split("developer_instructions", 1)[0].split("\n---\n", 1)[0]
            for claude_name in ("opus", "sonnet", "haiku", "inherit", "claude-"):
                assert claude_name not in head, (path, claude_name)


def test_unmappable_tools_and_claude_models_are_warnings_naming_agent_and_tool(
    clients: Path,
) -> None:
    found = [f for f in validate(load(clients)).findings if f.code in ("ORK111", "ORK112")]
    messages = sorted(f.message for f in found)
    assert all(f.severity == "warning" for f in found)
    assert any("'notebook-analyst'" in m and "'NotebookEdit'" in m and "gemini" in m
               for m in messages)  # fmt: skip
    assert any("'mcp__data_lake__query'" in m and "gemini" in m for m in messages)
    assert any("models.copilot is 'sonnet'" in m for m in messages)
    gemini_agent = (
        _frontmatter(clients / ".gemini/agents/notebook-analyst.md")
        if (clients / ".gemini/agents/notebook-analyst.md").exists()
        else None
    )
    assert gemini_agent is None  # validate alone writes nothing


def test_tool_mapping_per_client(rendered: Path) -> None:
    assert _frontmatter(rendered / ".gemini/agents/notebook-analyst.md")["tools"] == [
        "read_file", "grep_search", "web_fetch", "mcp_github_get_pr",
    ]  # fmt: skip
    assert _frontmatter(rendered / ".github/agents/notebook-analyst.agent.md")["tools"] == [
        "read", "search", "edit", "web", "github/get_pr", "data_lake/query",
    ]  # fmt: skip
    reviewer = tomllib.loads((rendered / ".codex/agents/codex-reviewer.toml").read_text())
    analyst = tomllib.loads((rendered / ".codex/agents/notebook-analyst.toml").read_text())
    assert reviewer["sandbox_mode"] == "read-only"
    assert analyst["sandbox_mode"] == "workspace-write"  # NotebookEdit writes
    assert _frontmatter(rendered / ".cursor/agents/plain-helper.md").get("readonly") is None


def test_codex_agents_parse_with_every_required_key(rendered: Path) -> None:
    for path in sorted((rendered / ".codex/agents").iterdir()):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert all(isinstance(data.get(k), str) and data[k] for k in codex.REQUIRED), path
        assert data["name"] == path.stem
        assert set(data) <= {*codex.REQUIRED, *codex.OPTIONAL}


def test_agents_keep_their_full_composed_prompt(rendered: Path) -> None:
    claude_body = (rendered / ".claude/agents/db-guardian.md").read_text().split("\n---\n", 1)[1]
    toml = tomllib.loads((rendered / ".codex/agents/db-guardian.toml").read_text())
    assert toml["developer_instructions"].strip() == claude_body.strip()
    for path in (".gemini/agents/db-guardian.md", ".github/agents/db-guardian.agent.md",
                 ".cursor/agents/db-guardian.md"):  # fmt: skip
        assert (rendered / path).read_text().split("\n---\n", 1)[1].strip() == claude_body.strip()


def test_gemini_agents_use_only_schema_keys(rendered: Path) -> None:
    for path in sorted((rendered / ".gemini/agents").iterdir()):
        assert set(_frontmatter(path)) <= set(gemini.SCHEMA_KEYS), path


def test_cursor_files_use_only_documented_keys(rendered: Path) -> None:
    """Cursor has no offline client: its documented keys are the check."""
    for path in sorted((rendered / ".cursor/agents").iterdir()):
        assert set(_frontmatter(path)) <= set(cursor.KEYS), path
    rule = _frontmatter(rendered / ".cursor/rules/orkestra.mdc")
    assert set(rule) <= set(cursor.RULE_KEYS)
    assert rule["alwaysApply"] is True and "globs" not in rule and rule["description"]


def test_instruction_blocks_hold_values_truths_and_rosters(rendered: Path) -> None:
    for rel in ("AGENTS.md", ".github/copilot-instructions.md"):
        text = (rendered / rel).read_text()
        assert text.count("<!-- orkestra:begin") == 1 and text.count("<!-- orkestra:end") == 1
        for needle in ("Simplicity first", "GROUND_TRUTHS.md", "`notebook-analyst`",
                       "`schema-migration`"):  # fmt: skip
            assert needle in text, (rel, needle)


def test_a_users_agents_md_is_kept_around_the_block(clients: Path) -> None:
    (clients / "AGENTS.md").write_text("# Team rules\n\nUse tabs.\n")
    sync(clients)
    text = (clients / "AGENTS.md").read_text()
    assert text.startswith("# Team rules\n\nUse tabs.\n\n<!-- orkestra:begin")
    (clients / "AGENTS.md").write_text(text + "\nFooter by hand.\n")
    sync(clients)
    assert (clients / "AGENTS.md").read_text().endswith("Footer by hand.\n")


def test_skills_are_written_once_where_clients_share_a_folder(rendered: Path) -> None:
    shared = sorted(p.name for p in (rendered / ".agents/skills").iterdir())
    assert shared == sorted(p.name for p in (rendered / ".claude/skills").iterdir())
    assert not (rendered / ".cursor/skills").exists() and not (rendered / ".github/skills").exists()
    for folder in (rendered / ".agents/skills").iterdir():
        assert agentskills_validate(folder.resolve()) == [], folder


def test_copilot_and_cursor_with_claude_read_claude_skills_only(clients: Path) -> None:
    set_targets(clients, ["claude", "copilot", "cursor"])
    sync(clients)
    assert not (clients / ".agents/skills").exists()
    assert (clients / ".claude/skills/schema-migration/SKILL.md").is_file()


def test_mcp_servers_merge_with_the_users_entries(clients: Path) -> None:
    (clients / ".vscode").mkdir()
    mine = {"servers": {"mine": {"type": "stdio", "command": "my-server"}}, "inputs": []}
    (clients / ".vscode/mcp.json").write_text(json.dumps(mine))
    (clients / ".codex").mkdir()
    (clients / ".codex/config.toml").write_text(
        'model = "o3"\n\n[mcp_servers.mine]\ncommand = "x"\n'
    )
    sync(clients)
    vscode = json.loads((clients / ".vscode/mcp.json").read_text())
    assert vscode["servers"]["mine"] == mine["servers"]["mine"] and vscode["inputs"] == []
    assert vscode["servers"]["github"]["type"] == "stdio"
    assert vscode["servers"]["data_lake"] == {
        "type": "http", "url": "https://mcp.example.com/lake",
        "headers": {"Authorization": "Bearer ${env:LAKE_TOKEN}"},  # VS Code's spelling
    }  # fmt: skip
    toml = tomllib.loads((clients / ".codex/config.toml").read_text())
    assert toml["model"] == "o3" and toml["mcp_servers"]["mine"] == {"command": "x"}
    # Codex expands no ${VAR}: the variable is forwarded from the user's environment
    assert toml["mcp_servers"]["github"]["env_vars"] == ["GITHUB_TOKEN"]
    assert "env" not in toml["mcp_servers"]["github"]
    assert sync(clients).written == 0


@pytest.mark.parametrize("spelling", ["json", "toml"])
def test_a_server_entry_the_user_wrote_under_a_registry_name_is_a_conflict(
    clients: Path, spelling: str
) -> None:
    """A user's own `github` entry is not Orkestra's to replace: the sync stops, naming the
    server, the file and what to do, and writes nothing; `--force` writes Orkestra's, which
    the lock then records."""
    from orkestra.core.errors import ConflictError

    if spelling == "json":
        rel, theirs = ".vscode/mcp.json", '{"servers": {"github": {"command": "my-gh"}}}\n'
    else:
        rel, theirs = ".codex/config.toml", '[mcp_servers.github]\ncommand = "my-gh"\n'
    (clients / rel).parent.mkdir()
    (clients / rel).write_text(theirs)

    def tree() -> dict[Path, bytes]:  # the project, not the derived caches under .orkestra/
        return {p: p.read_bytes() for p in clients.rglob("*") if p.is_file() and
                ".orkestra" not in p.relative_to(clients).parts}  # fmt: skip

    before = tree()
    with pytest.raises(ConflictError, match=rf"'github' in {rel}.*registries/mcp.yaml") as caught:
        sync(clients)
    assert caught.value.file == rel
    assert tree() == before
    check = sync(clients, mode="check")
    assert check.plan.conflicts == [rel] and not check.ok
    assert sync(clients, force=True).written > 0
    assert "my-gh" not in (clients / rel).read_text()
    lock = json.loads((clients / "registries/.render-lock.json").read_text())
    assert "github" in lock["mcp_servers"][rel]
    assert sync(clients).written == 0


def test_a_codex_server_whose_quoted_name_starts_with_ours_is_its_own(clients: Path) -> None:
    """`[mcp_servers."github.replica"]` is one server of the user's, not a sub-table of
    `github`: the merge adds `github` beside it and keeps it."""
    (clients / ".codex").mkdir()
    mine = (
        '[mcp_servers."github.replica"]\ncommand = "replica"\n\n[mcp_servers.\'x.y\']\nurl = "u"\n'
    )
    (clients / ".codex/config.toml").write_text(mine)
    sync(clients)
    text = (clients / ".codex/config.toml").read_text()
    servers = tomllib.loads(text)["mcp_servers"]
    assert servers["github.replica"] == {"command": "replica"} and servers["x.y"] == {"url": "u"}
    assert servers["github"]["command"] == "npx" and text.startswith(mine)
    assert sync(clients).written == 0


def test_a_registry_server_named_orkestra_is_owned_as_the_others_are(clients: Path) -> None:
    """Only the built-in entry (`mcp.serve`) is Orkestra's by its name: a server of mcp.yaml
    named `orkestra` does not replace the user's own `orkestra` entry."""
    from orkestra.core.errors import ConflictError

    servers = clients / "registries/mcp.yaml"
    servers.write_text(servers.read_text() + "orkestra:\n  command: something-else\n")
    mine = '{"mcpServers": {"orkestra": {"command": "my-own", "args": ["--token", "t"]}}}\n'
    (clients / ".mcp.json").write_text(mine)
    with pytest.raises(ConflictError, match=r"'orkestra' in \.mcp\.json"):
        sync(clients)
    assert (clients / ".mcp.json").read_text() == mine


def test_a_server_entry_edited_since_it_was_written_is_a_conflict(clients: Path) -> None:
    """The user's edit of an entry Orkestra wrote is never overwritten silently; put back,
    or changed in registries/mcp.yaml while the entry is still as written, it syncs again."""
    from orkestra.core.errors import ConflictError

    sync(clients)
    path = clients / ".mcp.json"
    written = path.read_text()
    data = json.loads(written)
    data["mcpServers"]["github"]["env"]["EXTRA"] = "mine"
    path.write_text(json.dumps(data, indent=2) + "\n")
    with pytest.raises(ConflictError, match=r"'github' in \.mcp\.json"):
        sync(clients)
    assert json.loads(path.read_text())["mcpServers"]["github"]["env"]["EXTRA"] == "mine"
    path.write_text(written)
    assert sync(clients).written == 0
    servers = clients / "registries/mcp.yaml"
    servers.write_text(servers.read_text().replace("server-github", "server-github@2"))
    assert sync(clients).written > 0
    assert "server-github@2" in path.read_text()


def test_a_long_prompt_stops_the_copilot_target_naming_the_agent(clients: Path) -> None:
    from orkestra.core.errors import InputError

    agent = clients / "registries/agents/plain-helper.yaml"
    data = yamlio.loads(agent.read_text())
    data["prompt"] = "word " * 7000
    agent.write_text(yamlio.dumps(data))
    with pytest.raises(InputError, match=r"plain-helper.*30000"):
        sync(clients, target="copilot")
    assert sync(clients, target="codex").written > 0  # other clients are not limited


def set_targets(root: Path, targets: list[str]) -> None:
    config = root / "registries/orkestra.yaml"
    data = yamlio.loads(config.read_text())
    data["targets"] = targets
    config.write_text(yamlio.dumps(dict(data)))
    assert load(root).config.targets == targets


def _frontmatter(path: Path) -> dict[str, object]:
    doc = frontmatter.parse(path.read_text(encoding="utf-8"), path.name)
    return dict(doc.meta)


def test_a_scoped_tool_maps_by_its_name() -> None:
    from orkestra.registry.client_rules import map_tools

    assert map_tools("gemini", ["Bash(git diff:*)", "Read"]) == (
        ["run_shell_command", "read_file"],
        [],
    )
    assert map_tools("copilot", ["Bash(git diff:*)"]) == (["execute"], [])
    assert map_tools("gemini", ["NotebookEdit"]) == ([], ["NotebookEdit"])


def test_an_agents_md_over_codexs_limit_is_a_warning(clients: Path) -> None:
    sync(clients)
    assert not [f for f in validate(load(clients)).findings if f.code == "ORK113"]
    with (clients / "AGENTS.md").open("a") as handle:
        handle.write("x" * 33 * 1024)
    (found,) = [f for f in validate(load(clients)).findings if f.code == "ORK113"]
    assert found.file == "AGENTS.md" and "project_doc_max_bytes" in found.message


@pytest.mark.parametrize("client", ["codex", "copilot", "cursor", "gemini"])
def test_each_clients_page_shows_its_mapping_table(client: str) -> None:
    from orkestra.registry.client_rules import TOOLS

    page = (Path(__file__).parents[3] / "docs/clients" / f"{client}.md").read_text()
    for claude, name in TOOLS[client].items():
        shown = f"`{name}`" if name else "(granted without a name)"
        assert f"| `{claude}` | {shown} |" in page, (client, claude)


def test_removing_a_target_takes_its_block_out_of_the_users_file(clients: Path) -> None:
    (clients / "AGENTS.md").write_text("# Team\n\nUse tabs.\n")
    sync(clients)
    assert "<!-- orkestra:begin" in (clients / "AGENTS.md").read_text()
    assert (clients / ".github/copilot-instructions.md").is_file()
    set_targets(clients, ["claude", "codex"])
    sync(clients)
    assert (clients / "AGENTS.md").read_text() == "# Team\n\nUse tabs.\n"
    assert not (clients / ".github/copilot-instructions.md").exists()  # it held only the block
    assert sync(clients).written == 0 and sync(clients, mode="check").ok


def test_an_agent_without_claude_in_its_clients_is_not_rendered_for_claude(clients: Path) -> None:
    agent = clients / "registries/agents/codex-reviewer.yaml"
    agent.write_text(agent.read_text().replace("- claude\n", ""))
    assert load(clients).agents["codex-reviewer"].clients == ["codex"]
    sync(clients)
    assert not (clients / ".claude/agents/codex-reviewer.md").exists()
    assert (clients / ".codex/agents/codex-reviewer.toml").is_file()


def test_a_server_removed_from_mcp_yaml_leaves_the_clients_files(clients: Path) -> None:
    sync(clients)
    lock = json.loads((clients / "registries/.render-lock.json").read_text())
    assert set(lock["mcp_servers"][".codex/config.toml"]) == {"github", "data_lake"}
    vscode = json.loads((clients / ".vscode/mcp.json").read_text())
    vscode["servers"]["data_lake"]["url"] = "https://edited.example.com"  # the user's now
    (clients / ".vscode/mcp.json").write_text(json.dumps(vscode))
    (clients / "registries/mcp.yaml").unlink()
    sync(clients)
    toml = tomllib.loads((clients / ".codex/config.toml").read_text())
    assert toml.get("mcp_servers", {}) == {}
    assert json.loads((clients / ".gemini/settings.json").read_text())["mcpServers"] == {}
    kept = json.loads((clients / ".vscode/mcp.json").read_text())["servers"]
    assert set(kept) == {"data_lake"}  # edited since it was written: never removed
    assert "mcp_servers" not in json.loads((clients / "registries/.render-lock.json").read_text())
    assert sync(clients).written == 0


def test_a_toml_table_key_is_read_into_its_parts() -> None:
    """Basic, literal and bare parts; a basic string's escapes read as TOML reads them (a bad
    one kept as written); a key this does not read is split at its dots, quotes dropped."""
    from orkestra.render.targets.mcp_config import _key_parts

    assert _key_parts('mcp_servers . "db.replica"') == ["mcp_servers", "db.replica"]
    assert _key_parts("mcp_servers.'x.y'.env") == ["mcp_servers", "x.y", "env"]
    assert _key_parts('mcp_servers."a\\"b\\u00e9"') == ["mcp_servers", 'a"bé']
    assert _key_parts('mcp_servers."bad\\q"') == ["mcp_servers", "bad\\q"]
    assert _key_parts('mcp_servers.d b."x"') == ["mcp_servers", "d b", "x"]


def test_claude_s_plan_and_question_tools_have_gemini_names() -> None:
    """gemini-cli 0.61's ALL_BUILTIN_TOOL_NAMES has ask_user, enter_plan_mode and
    exit_plan_mode: an agent holding Claude's tools of those names keeps them there, with no
    ORK111 warning that Gemini has none."""
    from orkestra.registry.client_rules import map_tools

    tools = ["Read", "AskUserQuestion", "EnterPlanMode", "ExitPlanMode"]
    assert map_tools("gemini", tools) == (
        ["read_file", "ask_user", "enter_plan_mode", "exit_plan_mode"],
        [],
    )


@pytest.mark.parametrize(
    ("clients", "targets", "warned"),
    [
        ([], ["claude", "codex"], True),  # `clients: []`: no client gets the agent
        (["gemini"], ["claude", "codex"], True),  # only a target not configured
        (["gemini"], ["claude", "gemini"], False),
        (None, ["claude"], False),  # every target
        ([], ["agents-md"], False),  # no configured target writes agent files
    ],
)
def test_an_agent_no_configured_target_renders_is_a_warning(
    tmp_path: Path, clients: list[str] | None, targets: list[str], warned: bool
) -> None:
    from orkestra.scaffold import init_project

    root = tmp_path / "p"
    init_project(root)
    config = yamlio.loads((root / "registries/orkestra.yaml").read_text())
    config["targets"] = targets
    (root / "registries/orkestra.yaml").write_text(yamlio.dumps(dict(config)))
    path = root / "registries/agents/example-agent.yaml"
    data = dict(yamlio.loads(path.read_text()))
    if clients is not None:
        data["clients"] = clients
    path.write_text(yamlio.dumps(data))
    found = [f for f in validate(load(root)).findings if f.code == "ORK116"]
    assert bool(found) == warned, found
    if warned:
        (finding,) = found
        assert (
            finding.severity == "warning" and finding.file == "registries/agents/example-agent.yaml"
        )
        assert "'example-agent'" in finding.message and "no client gets it" in finding.message
