"""One agent rendered for two clients, a user's file in the way on one side (PRODUCT.md §4, §13).

Every precondition of the whole plan is checked before the first write, so the sync writes
nothing and the user's file is untouched; the message names the file, the client it blocks, that
nothing was written, and the `sync --target` that renders each client it does not block, which
writes that side and still leaves the user's file alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import ConflictError
from orkestra.render import manifest
from orkestra.render.sync import sync
from tests.conftest import write

CURSOR = ".cursor/agents/example-agent.md"
MINE = "---\nname: example-agent\ndescription: my own reviewer\n---\nKeep this.\n"


def _clients(root: Path, targets: str = "claude, cursor") -> None:
    write(root, "registries/orkestra.yaml", f"project: proj\ntargets: [{targets}]\n")
    write(root, CURSOR, MINE)


def test_the_message_names_the_blocked_client_and_how_to_render_the_others(
    scaffold: Path,
) -> None:
    _clients(scaffold, "claude, cursor, codex")
    with pytest.raises(ConflictError) as caught:
        sync(scaffold)
    message = caught.value.message
    assert caught.value.file == CURSOR
    assert f"{CURSOR} blocks target cursor" in message
    assert "nothing was written for any target" in message
    assert "`orkestra sync --target claude`" in message
    assert "`orkestra sync --target codex`" in message
    assert "--target cursor" not in message
    assert (scaffold / CURSOR).read_text() == MINE
    assert not (scaffold / ".claude/agents/example-agent.md").exists()


def test_the_suggested_target_sync_renders_that_side_and_keeps_the_users_file(
    scaffold: Path, cli: Any
) -> None:
    _clients(scaffold)
    result = cli("sync", cwd=scaffold)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert CURSOR in result.stderr and "orkestra sync --target claude" in result.stderr
    again = cli("sync", "--target", "claude", cwd=scaffold)
    assert again.exit_code == 0, again.stderr
    assert (scaffold / ".claude/agents/example-agent.md").is_file()
    assert (scaffold / CURSOR).read_text() == MINE
    assert CURSOR not in manifest.load(scaffold)
    check = cli("sync", "--check", cwd=scaffold)  # the conflict is still reported
    assert check.exit_code == 1 and CURSOR in check.stdout


def test_a_conflict_in_the_shared_skills_folder_blocks_every_client_reading_it(
    scaffold: Path,
) -> None:
    write(scaffold, "registries/orkestra.yaml", "project: proj\ntargets: [claude, codex]\n")
    write(scaffold, ".agents/skills/example-skill/SKILL.md", "---\nname: mine\n---\nmine\n")
    with pytest.raises(ConflictError) as caught:
        sync(scaffold)
    message = caught.value.message
    assert "blocks target codex" in message
    assert "`orkestra sync --target claude`" in message and "--target codex`" not in message
