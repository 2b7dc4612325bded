"""An edit made while `sync` runs is never overwritten or deleted (PRODUCT.md §4, §13).

Sync reads a file (the user's CLAUDE.md to merge its block in, an owned output to prove it is
still what the lock recorded, the absence of a file it creates), renders, plans and writes. What
each file held when it was read is checked once more just before the renames (and before each
deletion): a file the user changed in between makes the write refuse with ChangedOnDisk, naming
it, and nothing more is written; the next sync starts from the user's version.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import safewrite
from orkestra.core.errors import ChangedOnDisk, ConflictError
from orkestra.render import sync as sync_module
from orkestra.render import writer
from orkestra.render.sync import sync
from tests.render.conftest import at_call, build_rich
from tests.render.test_sync_failures import tree

INTRO = "Hand-written intro."


@pytest.fixture
def proj(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    root = build_rich(tmp_path / "proj")
    sync(root, mode="write")
    return root


def _agents(root: Path) -> list[Path]:
    return sorted((root / "registries" / "agents").glob("*.yaml"))


def _reprompt(path: Path, word: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert "prompt: |\n" in text
    path.write_text(text.replace("prompt: |\n", f"prompt: |\n  {word}.\n", 1), encoding="utf-8")


def _output(root: Path, agent: Path) -> Path:
    return root / ".claude" / "agents" / f"{agent.stem}.md"


def _at(monkeypatch: pytest.MonkeyPatch, moment: str, act: Callable[[], None]) -> None:
    """Run `act` once, at `moment` of the next sync: after the render read the files, just
    before or after the plan (which reads every output again), or while the staged files are
    fsynced (the last step before the renames)."""
    owner, name, before = {
        "after render": (sync_module, "_render_reusing", False),
        "before plan": (writer, "plan", True),
        "after plan": (writer, "plan", False),
        "while fsyncing": (safewrite, "_fsync_all", False),
    }[moment]
    at_call(monkeypatch, owner, name, act, before=before)


MOMENTS = ["after render", "before plan", "after plan", "while fsyncing"]


@pytest.mark.parametrize("moment", MOMENTS)
def test_the_user_s_text_in_claude_md_edited_while_sync_runs_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    claude_md = proj / "CLAUDE.md"
    claude_md.write_text(f"# My project\n\n{INTRO}\n", encoding="utf-8")  # the block taken out
    _reprompt(_agents(proj)[0], "Newly")
    edited = f"# My project\n\n{INTRO} Edited meanwhile.\n"
    _at(monkeypatch, moment, lambda: claude_md.write_text(edited, encoding="utf-8"))
    before = {**tree(proj), "CLAUDE.md": edited.encode()}
    with pytest.raises(ChangedOnDisk) as caught:
        sync(proj, mode="write")
    assert caught.value.file == "CLAUDE.md"
    assert "changed on disk while sync ran" in caught.value.message
    assert tree(proj) == before  # nothing written: not CLAUDE.md, not the agent, not the lock
    monkeypatch.undo()
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    sync(proj, mode="write")  # the next sync starts from the user's version
    assert f"{INTRO} Edited meanwhile." in claude_md.read_text(encoding="utf-8")


@pytest.mark.parametrize("moment", ["after plan", "while fsyncing"])
def test_an_owned_output_edited_while_sync_writes_it_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    first, second = _agents(proj)[:2]
    _reprompt(first, "Newly")
    _reprompt(second, "Also")
    target = _output(proj, first)
    edited = target.read_text(encoding="utf-8") + "\nmy own note\n"
    _at(monkeypatch, moment, lambda: target.write_text(edited, encoding="utf-8"))
    before = {**tree(proj), target.relative_to(proj).as_posix(): edited.encode()}
    with pytest.raises(ChangedOnDisk) as caught:
        sync(proj, mode="write")
    assert caught.value.file == target.relative_to(proj).as_posix()
    assert tree(proj) == before  # the other agent's output was not written either


def test_an_owned_output_edited_while_the_files_before_it_are_renamed_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The content check runs once before the renames; an edit landing after it, before the
    file's own rename, is caught by its stat: the files renamed before it stay, the lock says
    so, and the next sync reports the edited file as a conflict instead of taking it over."""
    first, second = _agents(proj)[:2]
    _reprompt(first, "Newly")
    _reprompt(second, "Also")
    target = _output(proj, second)
    rel = target.relative_to(proj).as_posix()
    edited = target.read_text(encoding="utf-8") + "\nmy own note\n"
    real, fired = safewrite._rename, []

    def rename(tmp: str, full: str, rel_: str) -> None:  # the edit lands once `first`'s is done
        real(tmp, full, rel_)
        if full == str(_output(proj, first)):
            fired.append(target.write_text(edited, encoding="utf-8"))

    monkeypatch.setattr(safewrite, "_rename", rename)
    with pytest.raises(ChangedOnDisk) as caught:
        sync(proj, mode="write")
    assert fired and caught.value.file == rel
    assert target.read_text(encoding="utf-8") == edited
    assert "Newly." in _output(proj, first).read_text(encoding="utf-8")  # renamed before it
    monkeypatch.undo()
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    with pytest.raises(ConflictError) as conflict:
        sync(proj, mode="write")
    assert conflict.value.file == rel
    assert target.read_text(encoding="utf-8") == edited


def test_a_stat_that_moves_while_others_are_renamed_with_the_bytes_kept_is_no_edit(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Renaming over one of two hard-linked outputs moves the other's ctime (its link count
    drops); the bytes tell: the sync writes both, as before."""
    first, second = _agents(proj)[:2]
    _reprompt(first, "Newly")
    _reprompt(second, "Also")
    target = _output(proj, second)
    real, fired = safewrite._rename, []

    def rename(tmp: str, full: str, rel_: str) -> None:
        real(tmp, full, rel_)
        if full == str(_output(proj, first)):  # a new ctime, the same bytes
            fired.append(os.chmod(target, os.lstat(target).st_mode & 0o777))  # noqa: PTH101

    monkeypatch.setattr(safewrite, "_rename", rename)
    assert sync(proj, mode="write").written
    assert fired and "Also." in target.read_text(encoding="utf-8")


@pytest.mark.parametrize("moment", ["after plan", "while fsyncing"])
def test_a_file_the_user_creates_where_sync_creates_one_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    source = _agents(proj)[0]
    text = source.read_text(encoding="utf-8").replace(f"name: {source.stem}", "name: newcomer")
    (source.parent / "newcomer.yaml").write_text(text, encoding="utf-8")
    target = proj / ".claude" / "agents" / "newcomer.md"
    _at(monkeypatch, moment, lambda: target.write_text("mine\n", encoding="utf-8"))
    with pytest.raises(ChangedOnDisk):
        sync(proj, mode="write")
    assert target.read_text(encoding="utf-8") == "mine\n"


def test_an_owned_output_edited_before_its_deletion_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = _agents(proj)[0]
    target = _output(proj, gone)
    gone.unlink()  # its output is pruned
    edited = target.read_text(encoding="utf-8") + "\nkeep me\n"
    _at(monkeypatch, "after plan", lambda: target.write_text(edited, encoding="utf-8"))
    with pytest.raises(ChangedOnDisk):
        sync(proj, mode="write")
    assert target.read_text(encoding="utf-8") == edited


def test_without_edits_the_same_sync_writes(proj: Path) -> None:
    """The checks refuse only a change: the same writes, untouched, go through."""
    _reprompt(_agents(proj)[0], "Newly")
    (proj / "CLAUDE.md").write_text(f"# My project\n\n{INTRO}\n", encoding="utf-8")
    report = sync(proj, mode="write")
    assert report.written >= 3  # the agent, CLAUDE.md and the lock
    assert sync(proj, mode="check").ok


def test_the_cli_names_the_file_and_exits_non_zero(
    proj: Path, monkeypatch: pytest.MonkeyPatch, cli: Any
) -> None:
    first = _agents(proj)[0]
    _reprompt(first, "Newly")
    target = _output(proj, first)
    _at(monkeypatch, "while fsyncing", lambda: target.write_text("mine\n", encoding="utf-8"))
    result = cli("sync", "--force", cwd=proj)  # --force: the direct path, no no-op record
    assert result.exit_code != 0
    assert target.relative_to(proj).as_posix() in result.stderr
    assert target.read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize("moment", ["before plan", "after plan", "while fsyncing"])
def test_the_user_s_server_added_to_an_mcp_config_while_sync_runs_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    """A client's MCP config is shared too: sync merges its servers into the user's file (after
    the render of the other outputs: an edit before the merge is merged)."""
    import json

    from orkestra.core import yamlio

    servers = proj / "registries" / "mcp.yaml"
    servers.write_text(yamlio.dumps({"github": {"command": "npx"}}), encoding="utf-8")
    sync(proj, mode="write")
    config = proj / ".mcp.json"
    assert "github" in json.loads(config.read_text(encoding="utf-8"))["mcpServers"]
    servers.write_text(yamlio.dumps({"github": {"command": "gh"}}), encoding="utf-8")

    def add_mine() -> None:
        held = json.loads(config.read_text(encoding="utf-8"))
        held["mcpServers"]["mine"] = {"command": "my-server"}
        config.write_text(json.dumps(held, indent=2) + "\n", encoding="utf-8")

    _at(monkeypatch, moment, add_mine)
    with pytest.raises(ChangedOnDisk) as caught:
        sync(proj, mode="write")
    assert caught.value.file == ".mcp.json"
    assert "mine" in json.loads(config.read_text(encoding="utf-8"))["mcpServers"]
    monkeypatch.undo()
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    sync(proj, mode="write")
    after = json.loads(config.read_text(encoding="utf-8"))["mcpServers"]
    assert after["github"] == {"command": "gh"} and "mine" in after
