"""`orkestra sync` through the real CLI: output shape, exit codes, error messages."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

from tests.conftest import write


def test_sync_prints_the_plan_and_second_run_writes_nothing(cli: Any, scaffold: Path) -> None:
    first = cli("sync", cwd=scaffold)
    assert first.exit_code == 0, first.stderr
    data = first.json()
    assert list(data) == [
        "ok",
        "mode",
        "targets",
        "skipped_targets",
        "written",
        "warnings",
        "created",
        "updated",
        "deleted",
        "unchanged",
        "conflicts",
        "released",
    ]
    assert data["written"] == 4 and data["targets"] == ["claude"]
    second = cli("sync", cwd=scaffold).json()
    assert second["written"] == 0 and len(second["unchanged"]) == 4


def test_dry_run_prints_json_plan_and_writes_nothing(cli: Any, scaffold: Path) -> None:
    result = cli("sync", "--dry-run", cwd=scaffold)
    assert result.exit_code == 0
    plan = result.json()
    assert plan["mode"] == "dry-run" and plan["written"] == 0
    assert ".claude/agents/example-agent.md" in plan["created"]
    assert not (scaffold / ".claude").exists()


def test_check_exit_codes(cli: Any, scaffold: Path) -> None:
    drift = cli("sync", "--check", cwd=scaffold)
    assert drift.exit_code == 1
    assert drift.json()["ok"] is False and drift.json()["created"]
    assert not (scaffold / ".claude").exists()
    assert cli("sync", cwd=scaffold).exit_code == 0
    clean = cli("sync", "--check", cwd=scaffold)
    assert clean.exit_code == 0 and clean.json()["ok"] is True
    text = cli("sync", "--check", "--format", "text", cwd=scaffold)
    assert text.stdout.strip().startswith("ok: would write 0 file(s)")


def test_check_lists_what_would_change_in_text(cli: Any, scaffold: Path) -> None:
    cli("sync", cwd=scaffold)
    (scaffold / ".claude/agents/example-agent.md").write_text("edited\n")
    result = cli("sync", "--check", "--format", "text", cwd=scaffold)
    assert result.exit_code == 1
    assert "conflicts .claude/agents/example-agent.md" in result.stdout  # edited by hand
    assert "drift:" in result.stdout


def test_table_format(cli: Any, scaffold: Path) -> None:
    result = cli("sync", "--dry-run", "--format", "table", cwd=scaffold)
    assert result.exit_code == 0 and "created" in result.stdout


def test_validation_error_exit_1_with_file_line(cli: Any, scaffold: Path) -> None:
    agent = scaffold / "registries/agents/example-agent.yaml"
    agent.write_text(agent.read_text().replace("- Glob", "- Teleport"))
    line = agent.read_text().splitlines().index("  - Teleport") + 1
    result = cli("sync", cwd=scaffold)
    assert result.exit_code == 1
    assert result.stderr.startswith(
        f"orkestra: registries/agents/example-agent.yaml:{line}: sync refused"
    )
    assert "ORK025" in result.stderr
    assert not (scaffold / ".claude").exists()


def test_conflict_exit_1_and_force_takes_over(cli: Any, scaffold: Path) -> None:
    write(scaffold, ".claude/agents/example-agent.md", "mine\n")
    result = cli("sync", cwd=scaffold)
    assert result.exit_code == 1 and "did not write" in result.stderr
    assert (scaffold / ".claude/agents/example-agent.md").read_text() == "mine\n"
    assert cli("sync", "--force", cwd=scaffold).exit_code == 0
    assert (scaffold / ".claude/agents/example-agent.md").read_text() != "mine\n"


def test_an_unknown_target_is_a_usage_error(cli: Any, scaffold: Path) -> None:
    unknown = cli("sync", "--target", "vim", cwd=scaffold)
    assert unknown.exit_code == 2 and "unknown target 'vim'" in unknown.stderr
    assert cli("sync", "--target", "codex", "--dry-run", cwd=scaffold).exit_code == 0
    assert cli("sync", "--target", "claude", "--dry-run", cwd=scaffold).exit_code == 0


def test_writing_a_target_orkestra_yaml_does_not_list_is_refused(cli: Any, scaffold: Path) -> None:
    """The next full sync would prune it again: the user is told to configure it first."""
    result = cli("sync", "--target", "codex", cwd=scaffold)
    assert result.exit_code == 2
    assert "not in the `targets` of registries/orkestra.yaml" in result.stderr
    assert not (scaffold / ".codex").exists()
    assert cli("sync", "--target", "codex", "--check", cwd=scaffold).exit_code in (0, 1)
    assert cli("sync", "--target", "claude", cwd=scaffold).exit_code == 0


def test_every_configured_target_is_rendered(cli: Any, scaffold: Path) -> None:
    (scaffold / "registries/orkestra.yaml").write_text("project: p\ntargets: [claude, cursor]\n")
    data = cli("sync", "--dry-run", cwd=scaffold).json()
    assert data["targets"] == ["claude", "cursor"] and data["skipped_targets"] == []
    assert ".cursor/rules/orkestra.mdc" in data["created"]


def test_template_error_names_the_project_template(cli: Any, scaffold: Path) -> None:
    write(scaffold, "templates/claude/agent.md.j2", "---\nname: {{ nme }}\n---\n")
    result = cli("sync", "--format", "json", cwd=scaffold)
    assert result.exit_code == 1
    assert "templates/claude/agent.md.j2" in result.stderr and '"line": 2' in result.stderr
    assert not (scaffold / ".claude").exists()


def test_installed_executable_check_mode(scaffold: Path) -> None:
    exe = shutil.which("orkestra")
    assert exe is not None
    subprocess.run([exe, "sync"], cwd=scaffold, check=True, capture_output=True)
    done = subprocess.run([exe, "sync", "--check"], cwd=scaffold, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_sync_keeps_the_mode_of_every_file_it_writes_again(cli: Any, scaffold: Path) -> None:
    """§13: a file written again keeps its mode. A user's `.mcp.json` holding a token, CLAUDE.md
    and AGENTS.md at 0600 stay private once Orkestra's part is merged in; an output the user
    made read-only keeps that when an edit rewrites it."""
    import stat

    (scaffold / "registries/orkestra.yaml").write_text(
        "project: p\ntargets: [claude, agents-md]\nrender: {claude_md: true}\nmcp: {serve: true}\n"
    )
    mcp = '{"mcpServers": {"db": {"command": "db-mcp", "env": {"DB_TOKEN": "s3cr3t"}}}}\n'
    write(scaffold, ".mcp.json", mcp)
    write(scaffold, "CLAUDE.md", "# private notes\n")
    write(scaffold, "AGENTS.md", "# agents\n")
    private = [".mcp.json", "CLAUDE.md", "AGENTS.md"]
    for rel in private:
        (scaffold / rel).chmod(0o600)

    def mode(rel: str) -> int:
        return stat.S_IMODE((scaffold / rel).stat().st_mode)

    first = cli("sync", cwd=scaffold)
    assert first.exit_code == 0, first.stderr
    assert set(private) <= set(first.json()["updated"])
    assert {rel: mode(rel) for rel in private} == dict.fromkeys(private, 0o600)
    assert "s3cr3t" in (scaffold / ".mcp.json").read_text()
    agent = ".claude/agents/example-agent.md"
    assert mode(agent) == 0o644  # a new file
    (scaffold / agent).chmod(0o440)
    source = scaffold / "registries/agents/example-agent.yaml"
    source.write_text(source.read_text().replace("description: ", "description: Edited. ", 1))
    second = cli("sync", cwd=scaffold)
    assert second.exit_code == 0, second.stderr
    assert agent in second.json()["updated"] and "Edited." in (scaffold / agent).read_text()
    assert mode(agent) == 0o440
    assert {rel: mode(rel) for rel in private} == dict.fromkeys(private, 0o600)


def test_a_note_naming_the_markers_above_the_block_is_the_user_s_text(
    cli: Any, scaffold: Path
) -> None:
    """The markers count as lines of their own, outside code fences: a note that names them
    in prose, or shows them in an example, is kept byte for byte by every sync."""
    (scaffold / "registries/orkestra.yaml").write_text(
        "project: p\ntargets: [claude, agents-md]\nrender: {claude_md: true}\n"
    )
    assert cli("sync", cwd=scaffold).exit_code == 0
    notes = {
        "CLAUDE.md": "# Team notes\n\nOrkestra owns everything between `<!-- orkestra:begin -->`"
        " and\nUSER TEXT B\nUSER TEXT C\n`<!-- orkestra:end -->`; do not edit it by hand.\n\n",
        "AGENTS.md": "# Repo guide\n\nThe block below that starts with `<!-- orkestra:begin -->`"
        " is generated.\n\n## Build\n\nmake all\n\n## Example\n\n```markdown\n"
        "<!-- orkestra:begin -->\nan example\n<!-- orkestra:end -->\n```\n\n",
    }
    for rel, note in notes.items():
        path = scaffold / rel
        path.write_text(note + path.read_text())
    before = {rel: (scaffold / rel).read_text() for rel in notes}
    source = scaffold / "registries/agents/example-agent.yaml"
    source.write_text(source.read_text().replace("description: ", "description: Edited. ", 1))
    for _ in range(2):  # the run that rewrites the blocks, and the one after it
        result = cli("sync", cwd=scaffold)
        assert result.exit_code == 0, result.stderr
        for rel, note in notes.items():
            text = (scaffold / rel).read_text()
            assert text.startswith(note) and text.count("<!-- orkestra:begin (managed") == 1
    assert all("Edited." in (scaffold / rel).read_text() for rel in notes)
    assert all((scaffold / rel).read_text() != before[rel] for rel in notes)
    assert cli("sync", "--check", cwd=scaffold).exit_code == 0


def test_a_users_mcp_entry_under_a_registry_server_s_name_stops_the_sync(
    cli: Any, scaffold: Path
) -> None:
    """Through the CLI: exit 1, the message names the server, the file and what to do (with a
    file conflict beside it, both), nothing is written; `--check` lists the file."""
    (scaffold / "registries/orkestra.yaml").write_text("project: p\ntargets: [claude]\n")
    write(scaffold, "registries/mcp.yaml", "db:\n  command: team-db-server\n")
    mcp = '{\n  "mcpServers": {\n    "db": {"command": "my-db"}\n  }\n}\n'
    write(scaffold, ".mcp.json", mcp)
    write(scaffold, ".claude/agents/example-agent.md", "mine\n")
    result = cli("sync", cwd=scaffold)
    assert result.exit_code == 1
    assert "1 file(s) exist that Orkestra did not write" in result.stderr
    assert "'db' in .mcp.json are not the ones Orkestra wrote" in result.stderr
    assert "registries/mcp.yaml" in result.stderr and "--force" in result.stderr
    assert (scaffold / ".mcp.json").read_text() == mcp
    assert not (scaffold / "registries/.render-lock.json").exists()
    (scaffold / ".claude/agents/example-agent.md").unlink()
    check = cli("sync", "--check", cwd=scaffold)
    assert check.exit_code == 1 and check.json()["conflicts"] == [".mcp.json"]


def test_sync_target_claude_takes_out_the_block_claude_md_was_turned_off_for(
    cli: Any, scaffold: Path
) -> None:
    """`render.claude_md` turned off: `sync --target claude --check` fails as `sync --check`
    does, and `sync --target claude` takes the block out, the user's text kept."""
    write(scaffold, "CLAUDE.md", "# Mine\n\nNotes.\n")
    config = scaffold / "registries/orkestra.yaml"
    plain = config.read_text()
    config.write_text(plain + "render:\n  claude_md: true\n")
    assert cli("sync", cwd=scaffold).exit_code == 0
    assert "orkestra:begin" in (scaffold / "CLAUDE.md").read_text()
    config.write_text(plain)
    check = cli("sync", "--target", "claude", "--check", cwd=scaffold)
    assert check.exit_code == 1 and check.json()["updated"] == ["CLAUDE.md"]
    assert cli("sync", "--target", "claude", cwd=scaffold).json()["updated"] == ["CLAUDE.md"]
    assert (scaffold / "CLAUDE.md").read_text() == "# Mine\n\nNotes.\n"
    assert cli("sync", "--check", cwd=scaffold).exit_code == 0


def test_a_refused_sync_names_the_file_that_failed_to_load_first(cli: Any, scaffold: Path) -> None:
    """A broken tools.yaml: sync named an agent's "unknown tool" (sorted first) as the error,
    and its fix ("register it in registries/tools.yaml"), not the broken file."""
    write(scaffold, "registries/tools.yaml", "builtin: [Read]\nbuiltin: [Grep, Glob]\n")
    result = cli("sync", cwd=scaffold)
    assert result.exit_code == 1
    assert result.stderr.startswith("orkestra: registries/tools.yaml:2: sync refused")
    assert "first ORK001: duplicate key 'builtin'" in result.stderr


def test_the_sync_that_takes_agents_md_over_codex_s_limit_says_so(cli: Any, scaffold: Path) -> None:
    """The run that writes an AGENTS.md over Codex's 32 KiB counts the warning (ORK113)."""
    from tests.render.test_sync import _over_codex_s_limit

    _over_codex_s_limit(scaffold)
    first = cli("sync", cwd=scaffold)
    assert first.exit_code == 0, first.stderr
    assert "AGENTS.md" in first.json()["updated"] and first.json()["warnings"] == 1
    assert cli("sync", cwd=scaffold).json()["warnings"] == 1


def test_a_text_sync_tells_its_warnings(cli: Any, scaffold: Path) -> None:
    """`--format text` names the warnings the run counts (an AGENTS.md over Codex's limit),
    and where to see them; a run without any says nothing of them."""
    from tests.render.test_sync import _over_codex_s_limit

    clean = cli("sync", "--dry-run", "--format", "text", cwd=scaffold)
    assert "warning" not in clean.stdout
    _over_codex_s_limit(scaffold)
    result = cli("sync", "--format", "text", cwd=scaffold)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == (
        "1 warning(s): `orkestra validate --show-warnings` lists them"
    )
