"""Red-team checks of the sync speed-ups: the render lock parsed once per text (`render_lock._read`),
the write's guard that looks below no missing folder, and the stale-temporary-file listing of
folders that exist only. Each attack compares with a run without the memo, or checks that a
change made mid-run is refused, never overwritten nor written through."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import safewrite
from orkestra.core.errors import ChangedOnDisk, OrkestraError, UnsafePathError, WriteFailed
from orkestra.registry import render_lock
from orkestra.registry.loader import load
from orkestra.registry.validate import validate
from orkestra.render import manifest, noop, writer
from orkestra.render import sync as sync_module
from orkestra.render.sync import sync
from tests.render.conftest import at_call, build_rich, synced_rich
from tests.render.test_sync_failures import tree

LOCK = render_lock.LOCK_PATH


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synced_rich(tmp_path_factory.mktemp("redteam") / "proj")


@pytest.fixture
def proj(template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    root = tmp_path / "proj"
    shutil.copytree(template, root, symlinks=True)
    return root


def _no_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every read of the lock parses it again (the behaviour before the memo)."""
    real = render_lock._read

    def fresh(root: Path) -> Any:
        render_lock._last.clear()
        return real(root)

    monkeypatch.setattr(render_lock, "_read", fresh)


def _outcome(run: Callable[[], Any]) -> Any:
    try:
        return run()
    except OrkestraError as exc:
        return (type(exc).__name__, str(exc))


def _run(root: Path) -> Any:
    findings = _outcome(
        lambda: [(f.code, f.file, f.line, f.message) for f in validate(load(root)).findings]
    )
    result = _outcome(lambda: sync(root, mode="write").to_dict())
    return findings, result, tree(root)


def _drop_entry(root: Path, rel: str) -> None:
    """The lock forgets the output of the agent `_unsource` removed (so it is not sync's to
    prune) and gains an entry validate reports (ORK046)."""
    data = json.loads((root / LOCK).read_text(encoding="utf-8"))
    del data["files"][rel]
    data["files"]["../outside.md"] = {"target": "claude", "sha256": "0" * 64}
    (root / LOCK).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _pruned(root: Path) -> str:
    return f".claude/agents/{_agent_source(root).stem}.md"


def _agent_source(root: Path) -> Path:
    return sorted((root / "registries" / "agents").rglob("*.yaml"))[0]


def _unsource(root: Path) -> None:
    """Remove an agent's source: its owned output is pruned by the next sync."""
    assert (root / _pruned(root)).is_file()
    gone = _agent_source(root)
    (root / "gone.yaml").write_bytes(gone.read_bytes())
    gone.unlink()


MOMENTS = {
    "before servers": (manifest, "load_servers", True),
    "before owned": (sync_module, "owned_entries", True),
    "before plan": (writer, "plan", True),
}


@pytest.mark.parametrize("moment", sorted(MOMENTS))
def test_a_lock_edited_mid_sync_is_seen_as_without_the_memo(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    other = tmp_path / "other"
    shutil.copytree(proj, other, symlinks=True)
    owner, name, before = MOMENTS[moment]
    pruned = _pruned(proj)
    _unsource(proj)
    _unsource(other)
    validate(load(proj))  # the memo primed with the lock as it was
    fired = at_call(monkeypatch, owner, name, lambda: _drop_entry(proj, pruned), before=before)
    got = _run(proj)
    assert fired
    monkeypatch.undo()
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    _no_memo(monkeypatch)
    at_call(monkeypatch, owner, name, lambda: _drop_entry(other, pruned), before=before)
    expected = _run(other)
    assert got == expected
    if moment != "before plan":  # dropped before ownership was read: not sync's to prune
        assert pruned in expected[2]


def _symlink_same_text(root: Path, tmp: Path) -> None:
    (tmp / "lock.json").write_bytes((root / LOCK).read_bytes())
    (root / LOCK).unlink()
    (root / LOCK).symlink_to(tmp / "lock.json")


def _fifo(root: Path, tmp: Path) -> None:
    (root / LOCK).unlink()
    os.mkfifo(root / LOCK)


def _huge(root: Path, tmp: Path) -> None:
    with (root / LOCK).open("r+b") as handle:  # sparse: over the JSON limit, nothing written
        handle.truncate(65 << 20)


def _not_json(root: Path, tmp: Path) -> None:
    (root / LOCK).write_text('{"files": {"a": ', encoding="utf-8")


def _no_files(root: Path, tmp: Path) -> None:
    (root / LOCK).write_text('{"generator": "orkestra", "version": 2}\n', encoding="utf-8")


@pytest.mark.parametrize("swap", [_symlink_same_text, _fifo, _huge, _not_json, _no_files])
def test_a_lock_swapped_after_a_primed_memo_is_answered_as_without_it(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, alarm: None, swap: Any
) -> None:
    other = tmp_path / "other"
    shutil.copytree(proj, other, symlinks=True)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    validate(load(proj))  # primed with the good lock's text
    swap(proj, tmp_path / "a")
    got = _run(proj)
    _no_memo(monkeypatch)
    swap(other, tmp_path / "b")
    expected = _run(other)
    assert _swap_paths(got, proj) == _swap_paths(expected, other)


def _swap_paths(run: Any, root: Path) -> str:
    return (
        json.dumps(run, default=repr)
        .replace(str(root), "ROOT")
        .replace(str(root.resolve()), "ROOT")
    )


# --- the write: a folder found missing by the plan ----------------------------------------------


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Never synced: `.claude/` and every output folder are missing when the plan looks."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    root = build_rich(tmp_path / "fresh")
    assert not (root / ".claude").exists()
    return root


def test_a_file_put_in_a_folder_the_plan_found_missing_is_kept(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = fresh / ".claude" / "agents"
    mine = {}

    def put() -> None:
        target.mkdir(parents=True)
        for name in sorted(o for o in planned if o.startswith(".claude/agents/"))[:1]:
            (fresh / name).write_text("mine\n", encoding="utf-8")
            mine[name] = "mine\n"

    planned: list[str] = []
    real_plan = writer.plan

    def spy(*args: Any, **kwargs: Any) -> Any:
        result = real_plan(*args, **kwargs)
        planned.extend(result.created)
        return result

    monkeypatch.setattr(writer, "plan", spy)
    at_call(monkeypatch, writer, "_preconditions", put)
    with pytest.raises(ChangedOnDisk):
        sync(fresh, mode="write")
    assert mine
    assert all((fresh / k).read_text(encoding="utf-8") == v for k, v in mine.items())


@pytest.mark.parametrize("call", [1, 2, 5])
def test_a_folder_made_a_symlink_while_files_are_staged_receives_nothing(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, call: int
) -> None:
    """`.claude/` was missing at the plan and at the first staged file; `.claude/skills` is
    planted as a symlink to a folder outside the project while the files are staged."""
    outside = tmp_path / "outside"
    outside.mkdir()

    def plant() -> None:
        (fresh / ".claude").mkdir(exist_ok=True)
        skills = fresh / ".claude" / "skills"
        if skills.is_dir() and not skills.is_symlink():
            shutil.rmtree(skills)
        skills.symlink_to(outside)

    fired = at_call(monkeypatch, safewrite.Batch, "file", plant, before=False, call=call)
    with pytest.raises((UnsafePathError, WriteFailed)):  # late: the staged temps went with it
        sync(fresh, mode="write")
    assert fired
    files = [p for p in outside.rglob("*") if not p.is_dir()]
    assert files == []  # staged temporary files removed, nothing renamed through the link
    assert not (fresh / LOCK).exists() or "skills" not in (fresh / LOCK).read_text()


# --- the no-op record: folders that were not there -----------------------------------------------


def _reference(root: Path) -> Any:
    findings = _outcome(lambda: [(f.file, f.line, f.code) for f in validate(load(root)).findings])
    return findings, _outcome(lambda: sync(root, mode="check", registry=load(root)).to_dict())


def _fast(root: Path) -> Any:
    findings = _outcome(
        lambda: [(f.file, f.line, f.code) for f in noop.validate_report(root).findings]
    )
    return findings, _outcome(lambda: noop.sync_result(root, "check"))


def test_a_stale_temp_appearing_in_a_lock_folder_that_was_missing_is_seen(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lock entry of a target not rendered now, its folder gone: the plan lists no stale
    temporary files there (the folder is not there). One appearing later must be seen."""
    entries = render_lock.load(proj)
    entries[".codex/agents/ghost.md"] = render_lock.Entry("codex", "0" * 64)
    (proj / LOCK).write_bytes(render_lock.dumps(entries, render_lock.load_servers(proj)))
    old = time.time_ns() - 10 * noop.RACY_NS
    os.utime(proj / LOCK, ns=(old, old))
    os.utime(proj / "registries", ns=(old, old))
    monkeypatch.setattr(noop, "RACY_NS", 0)
    monkeypatch.setattr(noop, "FINE_RACY_NS", 0)
    first = _reference(proj)
    assert _fast(proj) == first
    real, hits = noop.recorded, []
    monkeypatch.setattr(noop, "recorded", lambda r, run: hits.append(real(r, run)) or hits[-1])
    assert _fast(proj) == first
    assert hits and all(hit is not None for hit in hits)  # answered from the record
    folder = proj / ".codex" / "agents"
    folder.mkdir(parents=True)
    temp = folder / ".ghost.md.orkestra-999999999-1.tmp"  # no such process: stale
    temp.write_text("half", encoding="utf-8")
    ancient = time.time() - 3 * safewrite.STALE_SECONDS
    os.utime(temp, (ancient, ancient))
    expected = _reference(proj)
    assert ".codex/agents/.ghost.md.orkestra-999999999-1.tmp" in json.dumps(expected)
    assert _fast(proj) == expected
