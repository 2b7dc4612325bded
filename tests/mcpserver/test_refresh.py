"""A warm, consistent workspace: edits show in the next answer, a broken edit gives validate's
finding while the rest keeps serving the last good state, and no tool writes to the repository."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from orkestra.mcpserver.workspace import Workspace
from orkestra.registry.loader import load
from orkestra.registry.validate import validate
from tests.mcpserver.conftest import Session, call

AGENT = "registries/agents/release-manager.yaml"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_an_edit_is_visible_in_the_next_answer(session: Session, root: Path) -> None:
    record = root / "registries/decisions/records/DEC-PL-142.yaml"

    async def go(client: Any) -> Any:
        before = await call(client, "search", query="zeppelin")
        _edit(record, "title: Adopt DuckDB", "title: Adopt Zeppelin DuckDB")
        after = await call(client, "search", query="zeppelin")
        detail = await call(client, "get", kind="decision", id="DEC-PL-142")
        return before, after, detail

    before, after, detail = session(go)
    assert before["total"] == 0
    assert [h["id"] for h in after["results"]] == ["DEC-PL-142"]
    assert detail["title"].startswith("Adopt Zeppelin DuckDB")


def test_a_new_file_and_a_removed_file_are_seen(session: Session, root: Path) -> None:
    async def go(client: Any) -> Any:
        (root / AGENT).unlink()
        gone = await call(client, "list", kind="agent")
        return gone

    gone = session(go)
    assert "release-manager" not in {a["name"] for a in gone["items"]}


def test_a_broken_edit_gives_validates_finding_and_keeps_the_last_good_state(
    session: Session, root: Path
) -> None:
    path = root / AGENT

    async def go(client: Any) -> Any:
        _edit(path, "name: release-manager", "name: [release-manager")
        listed = await call(client, "list", kind="agent")
        agent = await call(client, "get", kind="agent", id="release-manager")
        other = await call(client, "get", kind="decision", id="DEC-PL-142")
        return listed, agent, other

    listed, agent, other = session(go)
    expected = [f.to_dict() for f in validate(load(root)).errors]
    assert expected and expected[0]["file"] == AGENT
    for answer in (listed, agent, other):
        assert answer["findings"] == expected
    assert "release-manager" in {a["name"] for a in listed["items"]}  # the last good entry
    assert agent["description"].startswith("Cuts releases")


def test_search_names_the_file_it_left_out(session: Session, root: Path) -> None:
    path = root / AGENT
    good = path.read_text(encoding="utf-8")

    async def go(client: Any) -> Any:
        path.write_text(good.replace("name: release-manager", "name: [x"), encoding="utf-8")
        broken = await call(client, "search", query="release")
        counts = await call(client, "search", query="release", summary=True)
        path.write_text(good, encoding="utf-8")
        fixed = await call(client, "search", query="release")
        return broken, counts, fixed

    broken, counts, fixed = session(go)
    for answer in (broken, counts):
        (found,) = [f for f in answer["findings"] if f["file"] == AGENT]
        assert (found["code"], found["line"], found["severity"]) == ("ORK001", 2, "error")
    assert "release-manager" not in {h["id"] for h in broken["results"]}
    assert "findings" not in fixed
    assert "release-manager" in {h["id"] for h in fixed["results"]}


def test_fixing_the_broken_edit_clears_the_findings(session: Session, root: Path) -> None:
    path = root / AGENT
    good = path.read_text(encoding="utf-8")

    async def go(client: Any) -> Any:
        path.write_text(good.replace("name: release-manager", "name: [x"), encoding="utf-8")
        broken = await call(client, "list", kind="agent")
        path.write_text(good.replace("Cuts releases", "Cuts big releases"), encoding="utf-8")
        fixed = await call(client, "get", kind="agent", id="release-manager")
        return broken, fixed

    broken, fixed = session(go)
    assert broken["findings"]
    assert "findings" not in fixed and fixed["description"].startswith("Cuts big releases")


def test_refresh_reports_only_the_changed_paths(root: Path) -> None:
    ws = Workspace.open(root)
    try:
        assert ws.refresh() == []
        generation = ws.generation
        target = root / "registries/truths/pipeline.yaml"
        target.write_text(target.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        assert ws.refresh() == ["registries/truths/pipeline.yaml"]
        assert ws.generation == generation + 1
        (root / "registries/tools.yaml").write_text("builtin: [Read]\n", encoding="utf-8")
        assert ws.refresh() == ["registries/tools.yaml"]  # not a search source, still watched
        assert ws.refresh() == []
    finally:
        ws.close()


def _tree(root: Path) -> dict[str, bytes]:
    out = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in (".orkestra", ".git")]
        for name in files:
            path = Path(folder, name)
            out[path.relative_to(root).as_posix()] = path.read_bytes()
    return out


def test_no_tool_writes_to_the_repository(session: Session, root: Path) -> None:
    # a stale verified note: `notes check` would demote it, the tool only reports
    stale = root / "knowledge/glossary/duckdb-runner.md"
    _edit(stale, 'confidence: "observed"', 'confidence: "verified"')
    _edit(stale, 'verified_at: ""', 'verified_at: "2020-01-01"')
    before = _tree(root)

    async def go(client: Any) -> Any:
        await call(client, "search", query="duckdb")
        await call(client, "get", kind="note", id="duckdb-runner")
        await call(client, "list", kind="decision")
        await call(client, "context_for", paths=["packages"])
        report = await call(client, "check_notes")
        await call(client, "verify_truths")
        for uri in ("orkestra://GROUND_TRUTHS.md", "orkestra://knowledge/INDEX.md"):
            await client.read_resource(uri)
        return report

    report = session(go)
    assert report["demoted"] == ["duckdb-runner"] and report["applied"] is False
    assert _tree(root) == before


def test_a_same_size_edit_within_the_timestamp_granularity_is_seen(root: Path) -> None:
    target = root / "registries/truths/pipeline.yaml"
    text = target.read_text(encoding="utf-8")
    target.write_text(text, encoding="utf-8")  # just written: a recent mtime
    stamp = target.stat().st_mtime_ns
    ws = Workspace.open(root)
    try:
        ws.refresh()
        target.write_text(text.replace("idempotent", "IDEMPOTENT"), encoding="utf-8")
        os.utime(target, ns=(stamp, stamp))  # same mtime, same size: only the bytes differ
        assert ws.refresh() == ["registries/truths/pipeline.yaml"]
    finally:
        ws.close()


def test_the_background_load_collects_garbage_itself(root: Path, monkeypatch: Any) -> None:
    """The load runs with the collector paused; its full collection is done in the background
    thread, not left to the next request (which it slowed from ~0.4 s to ~1.4 s at 50,000
    entries)."""
    import gc
    import threading

    collected: list[str] = []
    monkeypatch.setattr(gc, "collect", lambda *a: collected.append(threading.current_thread().name))
    ws = Workspace.open(root)
    ws.preload()
    ws.join()
    assert "orkestra-registry" in collected


def test_a_load_begun_before_a_counted_change_does_not_stand_for_it(
    root: Path, monkeypatch: Any
) -> None:
    """A background load that began before an edit, with `refresh` counting the edit while it
    runs: its registry stands for the generation it began in, so the next call that needs the
    registry loads it again instead of serving the files as they were."""
    import orkestra.registry.loader as loader

    ws = Workspace(root.resolve())
    real = loader.load

    def counted_meanwhile(*args: Any, **kwargs: Any) -> Any:
        reg = real(*args, **kwargs)
        ws.generation += 1  # an edit `refresh` counted while this load read the old files
        return reg

    try:
        monkeypatch.setattr(loader, "load", counted_meanwhile)
        ws.registry()
        assert ws._registry_generation == ws.generation - 1
        monkeypatch.setattr(loader, "load", real)
        ws.registry()
        assert ws._registry_generation == ws.generation  # loaded again
    finally:
        ws.close()


def test_search_names_a_file_with_a_schema_error_it_left_out(session: Session, root: Path) -> None:
    path = root / AGENT
    good = path.read_text(encoding="utf-8")

    async def go(client: Any) -> Any:
        clean = await call(client, "search", query="release")
        path.write_text(good.replace("description:", "summary:"), encoding="utf-8")
        broken = await call(client, "search", query="release")
        path.write_text(good, encoding="utf-8")
        fixed = await call(client, "search", query="release")
        return clean, broken, fixed

    clean, broken, fixed = session(go)
    assert "findings" not in clean
    (found,) = [f for f in broken["findings"] if f["file"] == AGENT]
    assert (found["code"], found["line"], found["severity"]) == ("ORK002", 1, "error")
    assert found["message"] == "missing required key 'description'"
    assert "release-manager" not in {h["id"] for h in broken["results"]}
    assert "findings" not in fixed
    assert "release-manager" in {h["id"] for h in fixed["results"]}


def test_an_index_deleted_under_the_server_is_rebuilt_with_the_new_files(
    session: Session, root: Path
) -> None:
    index = root / ".orkestra/search.sqlite3"
    agent = root / "registries/agents/zz-duckdb-keeper.yaml"

    async def go(client: Any) -> Any:
        before = await call(client, "search", query="duckdb")
        index.unlink()
        agent.write_text(
            "name: zz-duckdb-keeper\ndescription: Keeps DuckDB files tidy. Use when asked.\n",
            encoding="utf-8",
        )
        return before, await call(client, "search", query="duckdb")

    before, after = session(go)
    assert after["total"] == before["total"] + 1
    assert "zz-duckdb-keeper" in {h["id"] for h in after["results"]}
    assert index.is_file()


def test_an_index_damaged_under_the_server_is_rebuilt_not_an_error(
    session: Session, root: Path
) -> None:
    index = root / ".orkestra/search.sqlite3"

    async def go(client: Any) -> Any:
        before = [await call(client, "search", query=q) for q in ("duckdb", "release")]
        size = index.stat().st_size
        with index.open("r+b") as handle:  # another process's bad write, or a bad disk
            handle.seek(size // 2)
            handle.write(b"\xff" * (size - size // 2))
            handle.truncate(4096)
        after = [await call(client, "search", query=q) for q in ("release", "duckdb", "pdf")]
        return before, after

    (duckdb, release), (release_after, duckdb_after, pdf) = session(go)
    assert (release_after, duckdb_after) == (release, duckdb)
    assert pdf["total"] > 0
    import sqlite3

    conn = sqlite3.connect(index)  # rebuilt whole, not left damaged for every later call
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        conn.close()


def test_a_folder_in_the_way_of_the_index_is_an_error_naming_it(
    session: Session, root: Path
) -> None:
    # the CLI says "Is a directory (fix or move it, ...)" naming the path (exit 1); the tool
    # failed with a bare "Error executing tool search"
    from mcp import MCPError
    from mcp_types import INTERNAL_ERROR

    index = root / ".orkestra/search.sqlite3"

    async def go(client: Any) -> Any:
        await call(client, "search", query="duckdb")
        index.unlink()
        index.mkdir()
        _edit(root / AGENT, "Cuts releases", "Cuts big releases")
        try:
            await client.call_tool("search", {"query": "release"})
        except MCPError as exc:
            failed = exc.error
        index.rmdir()
        return failed, await call(client, "search", query="release")

    failed, fixed = session(go)
    assert failed.code == INTERNAL_ERROR
    assert "Is a directory (fix or move it, then run the command again)" in failed.message
    assert ".orkestra/search.sqlite3" in failed.message
    assert "release-manager" in {h["id"] for h in fixed["results"]}
