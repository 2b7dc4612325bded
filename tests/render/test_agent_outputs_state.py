"""`agents info` says an agent's file is `written` (Orkestra's, sync rewrites it) only when sync
would take it for its own (PRODUCT.md §4 ownership is proven, not claimed): listed in the render
lock for that target, holding the bytes the lock records, and carrying Orkestra's mark for that
agent. A file the lock claims by a hand-edited hash, an entry of another target or one without a
hash is what sync reports as a conflict, and `agents info` says so."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from orkestra.registry.inventory import agent_info
from orkestra.registry.loader import load
from orkestra.registry.render_lock import LOCK_PATH
from orkestra.render.sync import sync
from tests.conftest import write

CLAUDE = ".claude/agents/example-agent.md"
CURSOR = ".cursor/agents/example-agent.md"
MINE = b"---\nname: example-agent\ndescription: My own. Use when I say so.\n---\n\nMine.\n"


def _synced(root: Path) -> None:
    write(root, "registries/orkestra.yaml", "project: proj\ntargets: [claude, cursor]\n")
    sync(root)


def _lock(root: Path, edit: Any) -> None:
    path = root / LOCK_PATH
    data = json.loads(path.read_text())
    edit(data["files"])
    path.write_text(json.dumps(data, indent=2) + "\n")


def _states(root: Path) -> dict[str, str]:
    outputs = agent_info(load(root), "example-agent")["outputs"]
    return {o["path"]: o["state"] for o in outputs}


def test_a_hand_written_file_the_lock_claims_by_its_hash_is_not_written(scaffold: Path) -> None:
    _synced(scaffold)
    (scaffold / CLAUDE).write_bytes(MINE)
    _lock(scaffold, lambda f: f[CLAUDE].update(sha256=hashlib.sha256(MINE).hexdigest()))
    state = _states(scaffold)[CLAUDE]
    assert state != "written" and "conflict" in state and "mark" in state
    assert sync(scaffold, mode="check").plan.conflicts == [CLAUDE]  # as sync sees it


def test_an_entry_of_another_target_is_not_written(scaffold: Path) -> None:
    _synced(scaffold)
    _lock(scaffold, lambda f: f[CURSOR].update(target="claude"))
    state = _states(scaffold)[CURSOR]
    assert state != "written" and "orkestra validate" in state and "'claude'" in state


def test_an_entry_without_a_hash_is_not_called_edited(scaffold: Path) -> None:
    _synced(scaffold)
    _lock(scaffold, lambda f: f[CLAUDE].pop("sha256"))
    state = _states(scaffold)[CLAUDE]
    assert "edited" not in state and "no hash" in state and "--force" in state


def test_a_file_sync_wrote_is_written(scaffold: Path, cli: Any) -> None:
    _synced(scaffold)
    assert set(_states(scaffold).values()) == {"written"}
    (scaffold / CLAUDE).write_bytes(MINE)
    _lock(scaffold, lambda f: f[CLAUDE].update(sha256=hashlib.sha256(MINE).hexdigest()))
    shown = cli("agents", "info", "example-agent", cwd=scaffold)
    assert shown.exit_code == 0
    states = {o["path"]: o["state"] for o in shown.json()["outputs"]}
    assert states[CURSOR] == "written" and states[CLAUDE] != "written"
