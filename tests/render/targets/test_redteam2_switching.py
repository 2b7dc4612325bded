"""Red-team: switching targets on and off, one at a time or all at once, never loses or changes
a hand-written file in any client's folder (PRODUCT.md §4: ownership is proven, not claimed)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from orkestra.render.sync import sync
from tests.render.targets.conftest import ALL
from tests.render.targets.test_targets import set_targets

#: a hand-written file beside every target's output (its bytes must never change)
MINE = {
    ".claude/agents/mine.md": "---\nname: mine\ndescription: Mine.\n---\nBy hand.\n",
    ".claude/skills/mine/SKILL.md": "---\nname: mine\ndescription: Mine. Use when x.\n---\nx\n",
    ".agents/skills/mine/SKILL.md": "---\nname: mine\ndescription: Mine. Use when y.\n---\ny\n",
    ".agents/skills/mine/scripts/run.sh": "#!/bin/sh\necho mine\n",
    ".codex/agents/mine.toml": 'name = "mine"\ndescription = "d"\ndeveloper_instructions = "x"\n',
    ".github/agents/mine.agent.md": "---\ndescription: Mine.\n---\nBy hand.\n",
    ".cursor/agents/mine.md": "---\nname: mine\ndescription: Mine.\n---\nBy hand.\n",
    ".cursor/rules/team.mdc": "---\ndescription: Team rule\nalwaysApply: false\n---\nTabs.\n",
    ".gemini/agents/mine.md": "---\nname: mine\ndescription: Mine.\n---\nBy hand.\n",
    ".github/hooks/mine.json": '{"version": 1, "hooks": {}}\n',
}
#: files whose user part must survive around Orkestra's managed part
AROUND = {
    "AGENTS.md": "# Team rules\n\nUse tabs.\n",
    ".github/copilot-instructions.md": "# Copilot\n\nBe brief.\n",
}


def test_switching_targets_never_loses_a_hand_written_file(clients: Path) -> None:
    for rel, text in {**MINE, **AROUND}.items():
        (clients / rel).parent.mkdir(parents=True, exist_ok=True)
        (clients / rel).write_text(text, encoding="utf-8")
    (clients / ".gemini/settings.json").write_text(json.dumps({"theme": "dark"}))
    (clients / ".codex/config.toml").write_text('model = "o3"\n')
    steps: list[tuple[list[str], str | None]] = [
        (ALL, None),
        (["claude"], None),
        (ALL, "codex"),
        (ALL, "gemini"),
        (["agents-md", "copilot"], None),
        ([], None),
        (ALL, None),
        (["cursor", "codex"], "cursor"),
        (["cursor", "codex"], None),
        (ALL, None),
    ]
    for targets, only in steps:
        set_targets(clients, targets)
        report = sync(clients, target=only)
        assert report.plan.conflicts == [], (targets, only)
        for rel, text in MINE.items():
            assert (clients / rel).read_text(encoding="utf-8") == text, (targets, only, rel)
        for rel, text in AROUND.items():
            assert (clients / rel).read_text(encoding="utf-8").startswith(text), (targets, rel)
        settings = json.loads((clients / ".gemini/settings.json").read_text())
        assert settings["theme"] == "dark", (targets, only)
        codex = tomllib.loads((clients / ".codex/config.toml").read_text())
        assert codex["model"] == "o3", (targets, only)
    assert sync(clients).written == 0
    # every target off: the user's instruction files are back to what the user wrote
    set_targets(clients, [])
    sync(clients)
    for rel, text in AROUND.items():
        assert (clients / rel).read_text(encoding="utf-8").rstrip("\n") == text.rstrip("\n"), rel
    assert not (clients / ".codex/agents/notebook-analyst.toml").exists()


def test_removing_a_target_takes_its_mcp_servers_out_of_the_users_config(clients: Path) -> None:
    (clients / ".gemini").mkdir()
    (clients / ".gemini/settings.json").write_text(json.dumps({"theme": "dark"}))
    sync(clients)
    assert set(json.loads((clients / ".gemini/settings.json").read_text())["mcpServers"]) == {
        "github",
        "data_lake",
    }
    set_targets(clients, [t for t in ALL if t != "gemini"])
    sync(clients)
    settings = json.loads((clients / ".gemini/settings.json").read_text())
    assert settings.get("mcpServers", {}) == {} and settings["theme"] == "dark"
    lock = json.loads((clients / "registries/.render-lock.json").read_text())
    assert ".gemini/settings.json" not in lock.get("mcp_servers", {})
    assert sync(clients).written == 0


def test_a_server_the_user_edited_stays_when_its_target_is_removed(clients: Path) -> None:
    sync(clients)
    path = clients / ".cursor/mcp.json"
    data = json.loads(path.read_text())
    data["mcpServers"]["github"]["env"] = {"TOKEN_FILE": "/home/me/token"}  # now the user's
    data["mcpServers"]["mine"] = {"command": "my-server"}
    path.write_text(json.dumps(data, indent=2) + "\n")
    set_targets(clients, [t for t in ALL if t != "cursor"])
    sync(clients)
    left = json.loads(path.read_text())["mcpServers"]
    assert set(left) == {"github", "mine"}
    assert left["github"]["env"] == {"TOKEN_FILE": "/home/me/token"}


def test_a_client_config_with_comments_is_refused_with_what_to_do(clients: Path) -> None:
    """VS Code and Cursor read JSONC; rewriting it as JSON would drop the user's comments."""
    from orkestra.core.errors import InputError

    text = '{\n  // my servers\n  "servers": {\n    "mine": {"command": "x",},\n  },\n}\n'
    (clients / ".vscode").mkdir()
    (clients / ".vscode/mcp.json").write_text(text)
    with pytest.raises(InputError) as info:
        sync(clients)
    assert info.value.file == ".vscode/mcp.json" and info.value.line == 2
    assert "comments or trailing commas (JSONC)" in info.value.message
    assert "out of `targets`" in info.value.message
    # the client is named: the file alone does not say .vscode/mcp.json is copilot's
    assert "take copilot out of `targets`" in info.value.message
    assert (clients / ".vscode/mcp.json").read_text() == text
    assert not (clients / ".codex/agents").exists()  # nothing was written


def test_plain_json_that_is_broken_keeps_the_plain_message(clients: Path) -> None:
    from orkestra.core.errors import InputError

    (clients / ".vscode").mkdir()
    (clients / ".vscode/mcp.json").write_text('{"servers": {"a": "http://x//y"')
    with pytest.raises(InputError) as info:
        sync(clients)
    assert "JSONC" not in info.value.message


def test_removing_a_target_removes_an_instruction_file_that_held_only_its_block(
    clients: Path,
) -> None:
    """Issue 15: removing a target prunes its files. An instructions file Orkestra's block was
    alone in is deleted; one the user also wrote in keeps the user's text (tested above)."""
    for rel in ("AGENTS.md", ".github/copilot-instructions.md"):
        (clients / rel).unlink(missing_ok=True)
    sync(clients)
    assert (clients / "AGENTS.md").is_file()
    assert (clients / ".github/copilot-instructions.md").is_file()
    set_targets(clients, ["claude"])
    report = sync(clients)
    assert {"AGENTS.md", ".github/copilot-instructions.md"} <= set(report.plan.deleted)
    assert not (clients / "AGENTS.md").exists()
    assert not (clients / ".github/copilot-instructions.md").exists()
    assert sync(clients).written == 0 and sync(clients, mode="check").plan.deleted == []


def test_a_block_only_file_that_changed_since_it_was_read_is_left(clients: Path) -> None:
    from orkestra.render import writer
    from orkestra.render.plan import Output, RenderPlan

    (clients / "AGENTS.md").write_text("now the user's\n")
    result = RenderPlan()
    guard = writer.Guard(clients)
    writer._plan_removal(
        clients, "AGENTS.md", Output("AGENTS.md", b"old", remove=True), guard, result
    )
    assert result.deleted == []


@pytest.mark.parametrize("rel", ["AGENTS.md", ".github/copilot-instructions.md"])
def test_claude_md_s_block_kept_in_an_unconfigured_target_s_file_stays(
    clients: Path, rel: str
) -> None:
    """`render.claude_md_path` naming AGENTS.md (or Copilot's instructions) with that target
    not configured: the file is the claude target's, its block is never taken out as an
    unconfigured target's leftover (the two used to alternate: created, deleted, created)."""
    from orkestra.core import yamlio

    (clients / rel).unlink(missing_ok=True)
    config = clients / "registries/orkestra.yaml"
    data = dict(yamlio.loads(config.read_text()))
    data.update(targets=["claude"], render={"claude_md": True, "claude_md_path": rel})
    config.write_text(yamlio.dumps(data))
    first = sync(clients)
    assert rel in first.plan.created or rel in first.plan.updated
    text = (clients / rel).read_text(encoding="utf-8")
    for _ in range(2):
        again = sync(clients)
        assert again.plan.has_changes() is False, again.plan.to_dict()
        assert (clients / rel).read_text(encoding="utf-8") == text
