"""`mcpserver.identity`: what makes the server look again at a source file between calls."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from orkestra.mcpserver import identity
from orkestra.mcpserver.workspace import Workspace

DECISION = "registries/decisions/records/DEC-PL-142.yaml"
#: a registry file search does not index (`identity._registry_rest`)
TOOLS = "registries/tools.yaml"


def _same_size_edit_keeping_the_mtime(path: Path) -> None:
    """Another text of the same size, its old mtime set back (`cp -p`, `tar x`, a restore)."""
    before = path.stat()
    data = path.read_bytes()
    path.write_bytes(data[:-2] + (b"#\n" if data[-2:] != b"#\n" else b"!\n"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size


@pytest.mark.parametrize("rel", [DECISION, TOOLS])
def test_a_same_size_edit_that_sets_the_old_mtime_back_is_seen_by_its_ctime(
    root: Path, monkeypatch: pytest.MonkeyPatch, rel: str
) -> None:
    """Outside the racy window (no content digest to compare), only the ctime moved."""
    if not (root / rel).is_file():
        (root / rel).write_text("tools: {}\n", encoding="utf-8")
    monkeypatch.setattr(identity, "RACY_NS", -(10**12))  # nothing racy: identities alone decide
    before = identity.snapshot(root)
    assert before[rel][2] == ""
    time.sleep(0.02)  # past the coarse clock's tick: the ctime moves
    _same_size_edit_keeping_the_mtime(root / rel)
    assert identity.changed(before, identity.snapshot(root)) == [rel]


def test_an_edit_in_the_tick_of_a_racy_file_is_seen_by_a_later_snapshot(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A call takes a racy file's digest; a same-size edit in the same tick keeps its identity
    (a file system of whole seconds); the next call comes after the window, with no digest of
    its own to compare: the file's bytes are compared once more, then its identity vouches."""
    path = root / DECISION
    first = identity.snapshot(root)
    assert first[DECISION][2] != ""  # racy: just copied
    _same_size_edit_keeping_the_mtime(path)
    st = path.stat()
    kept = (max(st.st_mtime_ns, st.st_ctime_ns), st.st_size)  # the identity a coarse clock keeps
    before = {**first, DECISION: (*kept, first[DECISION][2])}
    monkeypatch.setattr(identity, "RACY_NS", -(10**12))  # the next call, long after
    later = identity.snapshot(root, 0, before)
    assert identity.changed(before, later) == [DECISION]
    settled = identity.snapshot(root, 0, later)
    assert settled[DECISION][2] == "" and identity.changed(later, settled) == []
    assert identity.snapshot(root, 0, settled)[DECISION][2] == ""


def test_a_file_changed_just_now_by_a_lagging_file_clock_is_racy(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server 10 s behind ours: a file edited just now looks 10 s old by our clock; by the
    file clock it is racy, so its content digest is kept and compared."""
    path = root / DECISION
    path.write_bytes(path.read_bytes() + b"\n")
    real = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real() + 10_000_000_000)
    assert identity.snapshot(root)[DECISION][2] == ""  # by our clock alone: not racy
    assert identity.snapshot(root, 10_000_000_000)[DECISION][2] != ""


def test_the_workspace_reads_the_file_clock_s_lag_once_a_minute(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.core import clock

    calls: list[Path] = []
    monkeypatch.setattr(clock, "files_behind", lambda at: calls.append(at) or 7)
    ws = Workspace.open(root)
    ws.watcher.close()  # every call compares identities
    seen: list[int] = []
    real = identity.snapshot

    def spied(at: Path, behind: int = 0, before: identity.Snapshot | None = None) -> Any:
        assert before is ws.snapshot  # the last call's: a racy file's bytes compared once more
        seen.append(behind)
        return real(at)

    monkeypatch.setattr(identity, "snapshot", spied)
    try:
        assert calls  # read as it opened
        calls.clear()
        ws.refresh()
        ws.refresh()  # (nothing changed: the search index is not written either)
        assert calls == [] and seen == [7, 7]
        ws._behind = (7, time.monotonic())  # a minute on: the reading has expired
        ws.refresh()
        assert calls == [ws.root] and seen == [7, 7, 7]
    finally:
        ws.close()


def test_a_registry_file_named_in_bytes_that_are_not_utf8_is_watched(root: Path) -> None:
    """Search leaves such a file out, but `validate` names it (ORK001): its coming and going
    changes the server's findings, so the snapshot keeps it."""
    bad = os.fsencode(root / "registries/agents") + b"/caf\xff.yaml"
    before = identity.snapshot(root)
    with open(bad, "wb") as handle:  # noqa: PTH123 (a bytes path)
        handle.write(b"name: x\n")
    added = identity.snapshot(root)
    assert identity.changed(before, added) == [os.fsdecode(b"registries/agents/caf\xff.yaml")]
    os.remove(bad)  # noqa: PTH107 (a bytes path)
    assert identity.changed(added, identity.snapshot(root)) == [
        os.fsdecode(b"registries/agents/caf\xff.yaml")
    ]
