"""`.orkestra` made a regular file: `context_for` answers from the registry and the notes, with a
warning finding naming the file and what to do (it failed outright); `mine_candidates`, which
needs the commit index, says exactly that."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from tests.mcpserver.conftest import Session, call
from tests.mcpserver.test_tools import error_of


def _block(root: Path, workspace: Any) -> None:
    """`.orkestra` (made by the server's workspace as it opened) replaced by a regular file,
    once the registry the workspace loads in the background has written its cache there (a
    delete racing that write failed with "Directory not empty")."""
    workspace.join()
    shutil.rmtree(root / ".orkestra")
    (root / ".orkestra").write_text("", encoding="utf-8")


def test_context_for_answers_without_the_commit_index(
    session: Session, root: Path, workspace: Any
) -> None:
    _block(root, workspace)

    async def go(client: Any) -> Any:
        return await call(client, "context_for", paths=["packages/canonical/pipelines/runner.py"])

    found = session(go)
    assert ("decision", "DEC-PL-142") in [(i["kind"], i["id"]) for i in found["items"]]
    cache = [f for f in found["findings"] if f["code"] == "cache"]
    assert cache and cache[0]["file"] == ".orkestra" and cache[0]["severity"] == "warning"
    assert "move it away" in cache[0]["message"]


def test_mine_candidates_says_it_needs_the_cache_folder(
    session: Session, root: Path, workspace: Any
) -> None:
    _block(root, workspace)

    async def go(client: Any) -> str:
        return await error_of(client, "mine_candidates", limit=1)

    message = session(go)
    assert ".orkestra" in message and "cache folder" in message and "move it away" in message
