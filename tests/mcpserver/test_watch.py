"""The change check: inotify answers "nothing changed" for free, never wrongly; without it, file
identities are compared on every call; remembered answers are dropped at every change."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from orkestra.mcpserver import identity, tools, watch
from orkestra.mcpserver.workspace import Workspace
from tests.conftest import write

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux only")


@pytest.fixture
def ws(root: Path) -> Any:
    ws = Workspace.open(root)
    yield ws
    ws.close()


@linux
def test_a_quiet_tree_is_not_scanned(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    assert ws.watcher.active
    ws.refresh()  # drains the events of opening

    def boom(root: Path) -> identity.Snapshot:
        raise AssertionError("scanned although nothing changed")

    monkeypatch.setattr(identity, "snapshot", boom)
    assert ws.refresh() == []


@linux
def test_edits_in_new_and_nested_folders_are_seen(ws: Workspace, root: Path) -> None:
    ws.refresh()
    write(root, "knowledge/decisions/new-note.md", "---\ntype: decision\n---\n")
    assert ws.refresh() == ["knowledge/decisions/new-note.md"]
    (root / "knowledge/decisions/new-note.md").write_text("changed\n", encoding="utf-8")
    assert ws.refresh() == ["knowledge/decisions/new-note.md"]  # a folder watched since
    assert ws.refresh() == []


def test_without_inotify_every_call_compares_identities(root: Path) -> None:
    ws = Workspace.open(root)
    ws.watcher.close()  # as on a system without inotify
    try:
        assert not ws.watcher.active and ws.watcher.maybe_changed()
        target = root / "registries/decisions/records/DEC-PL-142.yaml"
        target.write_text(target.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        assert ws.refresh() == ["registries/decisions/records/DEC-PL-142.yaml"]
    finally:
        ws.close()


@linux
def test_a_failing_watch_turns_the_watcher_off(tmp_path: Path) -> None:
    watcher = watch.Watcher()
    watcher.watch([str(tmp_path / "missing")])
    assert not watcher.active and watcher.maybe_changed()


def test_remembered_answers_are_dropped_at_a_change(ws: Workspace, root: Path) -> None:
    first = tools.search(ws, "zeppelin", None, 5, False)
    assert first["total"] == 0
    target = root / "registries/decisions/records/DEC-PL-142.yaml"
    text = target.read_text(encoding="utf-8").replace("title: Adopt", "title: Adopt Zeppelin")
    target.write_text(text, encoding="utf-8")
    assert tools.search(ws, "zeppelin", None, 5, False)["total"] == 0  # no refresh yet
    ws.refresh()
    assert tools.search(ws, "zeppelin", None, 5, False)["total"] == 1


def test_the_registry_loads_in_the_background_and_once(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.registry import loader

    calls = []
    real = loader.load
    monkeypatch.setattr(loader, "load", lambda r: calls.append(r) or real(r))
    ws = Workspace.open(root)
    try:
        ws.join()
        assert len(calls) == 1
        ws.registry()
        tools.listing(ws, "agent", None, 10)
        assert len(calls) == 1  # warm: no reload without a change
    finally:
        ws.close()


def test_a_change_reloads_the_registry_after_the_answer(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import anyio
    from mcp import Client

    from orkestra.mcpserver.server import build
    from orkestra.registry import loader

    ws = Workspace.open(root)
    ws.join()
    calls = []
    real = loader.load
    monkeypatch.setattr(loader, "load", lambda r: calls.append(r) or real(r))
    target = root / "registries/agents/release-manager.yaml"

    async def go() -> None:
        async with Client(build(ws)) as client:
            target.write_text(target.read_text(encoding="utf-8") + "\n", encoding="utf-8")
            result = await client.call_tool("search", {"query": "release"})
            assert not result.is_error

    try:
        anyio.run(go)
        ws.join()
        assert len(calls) == 1  # in the background, after the search answered
        ws.registry()
        assert len(calls) == 1  # and the next registry call finds it loaded
    finally:
        ws.close()
