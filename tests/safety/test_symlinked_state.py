"""A planted `.orkestra -> elsewhere` never receives a lock, an index or a cache (PRODUCT.md §13).

Found after the issue 11 review: `search` and `mine sync` created their lock files inside a
symlinked `.orkestra/` before any check, i.e. outside the project. Locks taken with a project
root now pass the safe writer's checks first (`core.lock.locked(..., root=...)`).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import UnsafePathError
from orkestra.core.lock import locked
from orkestra.scaffold import init_project


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, Path]:
    root, elsewhere = tmp_path / "p", tmp_path / "elsewhere"
    elsewhere.mkdir()
    init_project(root)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / ".orkestra").symlink_to(elsewhere)
    return root, elsewhere


@pytest.mark.parametrize("command", [("search", "example"), ("mine", "sync")])
def test_a_symlinked_state_folder_is_refused_and_receives_nothing(
    planted: tuple[Path, Path], cli: Any, command: tuple[str, ...]
) -> None:
    root, elsewhere = planted
    result = cli(*command, cwd=root)
    assert result.exit_code == 1, result.stderr
    assert "symlink" in result.stderr
    assert list(elsewhere.iterdir()) == []


def test_agents_list_still_answers_without_its_cache(planted: tuple[Path, Path], cli: Any) -> None:
    root, elsewhere = planted
    result = cli("agents", "list", cwd=root)
    assert result.exit_code == 0 and "example-agent" in result.stdout
    assert list(elsewhere.iterdir()) == []


def test_a_lock_with_a_root_is_checked_before_it_is_created(planted: tuple[Path, Path]) -> None:
    root, elsewhere = planted
    with pytest.raises(UnsafePathError), locked(root / ".orkestra" / "x.lock", root=root):
        pass
    assert not (elsewhere / "x.lock").exists()


# --- readers: what a symlink out of the project reaches is never read ----------------------------

EVENT = '{"ts": "2026-05-01T00:00:00Z", "session_id": "s1", "event": "Stop", "blocked": true}\n'


def test_events_summary_refuses_an_events_log_linked_out_of_the_project(
    cli: Any, tmp_path: Path
) -> None:
    root, outside = tmp_path / "p", tmp_path / "outside.jsonl"
    init_project(root)
    outside.write_text(EVENT, encoding="utf-8")
    (root / ".orkestra").mkdir(exist_ok=True)
    (root / ".orkestra/events.jsonl").symlink_to(outside)
    result = cli("events", "summary", "--format", "json", cwd=root)
    assert (result.exit_code, result.stdout) == (1, "")
    error = json.loads(result.stderr)["error"]
    assert (error["code"], error["file"]) == ("unsafe_path", ".orkestra/events.jsonl")
    assert f"is a symlink to '{outside}', outside the project" in error["message"]
    assert "remove the link" in error["message"]
    assert outside.read_text(encoding="utf-8") == EVENT  # untouched


def test_events_summary_refuses_a_state_folder_linked_out(
    planted: tuple[Path, Path], cli: Any
) -> None:
    root, elsewhere = planted
    (elsewhere / "events.jsonl").write_text(EVENT, encoding="utf-8")
    result = cli("events", "summary", cwd=root)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith("orkestra: .orkestra: is a symlink to ")


def test_an_events_log_linked_inside_the_project_is_read(cli: Any, tmp_path: Path) -> None:
    root = tmp_path / "p"
    init_project(root)
    (root / "logs").mkdir()
    (root / "logs/events.jsonl").write_text(EVENT, encoding="utf-8")
    (root / ".orkestra").mkdir(exist_ok=True)
    (root / ".orkestra/events.jsonl").symlink_to(root / "logs/events.jsonl")
    result = cli("events", "summary", cwd=root)
    assert result.exit_code == 0 and result.json()["total"] == 1


def test_the_stop_hook_does_not_read_an_events_log_linked_out(tmp_path: Path) -> None:
    from orkestra.hooks import events

    root, outside = tmp_path / "p", tmp_path / "outside.jsonl"
    init_project(root)
    outside.write_text(EVENT, encoding="utf-8")
    (root / ".orkestra").mkdir(exist_ok=True)
    (root / ".orkestra/events.jsonl").symlink_to(outside)
    assert events.session_records(str(root), "s1") == []
    assert "outside the project; it was not read" in (root / ".orkestra/logs/hooks.log").read_text()
    (root / ".orkestra/events.jsonl").unlink()
    (root / ".orkestra/events.jsonl").write_text(EVENT, encoding="utf-8")
    assert len(events.session_records(str(root), "s1")) == 1


def test_a_search_index_linked_out_of_the_project_is_neither_read_nor_written(
    cli: Any, tmp_path: Path
) -> None:
    root, outside = tmp_path / "p", tmp_path / "outside.sqlite3"
    init_project(root)
    assert cli("search", "example", cwd=root).exit_code == 0
    index = root / ".orkestra/search.sqlite3"
    index.rename(outside)
    index.symlink_to(outside)
    before = outside.read_bytes()
    result = cli("search", "example", "--format", "json", cwd=root)
    assert (result.exit_code, result.stdout) == (1, "")
    error = json.loads(result.stderr)["error"]
    assert (error["code"], error["file"]) == ("unsafe_path", ".orkestra/search.sqlite3")
    assert "symlink" in error["message"]
    assert outside.read_bytes() == before


def test_notes_outcomes_linked_out_of_the_project_are_not_read(tmp_path: Path) -> None:
    from orkestra.knowledge import outcomes

    root, outside = tmp_path / "p", tmp_path / "outcomes.json"
    init_project(root)
    outside.write_text('{"version": 1, "notes": {"n": "contradicted"}}', encoding="utf-8")
    (root / ".orkestra").mkdir(exist_ok=True)
    (root / outcomes.PATH).symlink_to(outside)
    assert outcomes.read(root) == {}
    (root / outcomes.PATH).unlink()
    (root / outcomes.PATH).write_text(outside.read_text(encoding="utf-8"), encoding="utf-8")
    assert outcomes.read(root) == {"n": "contradicted"}


def test_notes_check_never_reads_its_outcomes_through_a_symlinked_state_folder(
    planted: tuple[Path, Path], cli: Any, alarm: None
) -> None:
    """`notes check` read `.orkestra/notes-outcomes.json` before writing it, through a planted
    `.orkestra -> elsewhere` (a FIFO there blocked it): it is refused first, and nothing of
    elsewhere is read or written."""
    import os

    root, elsewhere = planted
    (root / "knowledge").mkdir()
    os.mkfifo(elsewhere / "notes-outcomes.json")
    result = cli("notes", "check", cwd=root)
    assert result.exit_code == 1, result.stderr
    assert "symlink" in result.stderr and ".orkestra" in result.stderr
    assert sorted(p.name for p in elsewhere.iterdir()) == ["notes-outcomes.json"]
    assert (elsewhere / "notes-outcomes.json").is_fifo()


@pytest.mark.parametrize("where", ["file", "folder"])
def test_the_notes_check_cache_is_never_read_through_a_symlink(
    cli: Any, tmp_path: Path, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`.orkestra/cache/notes-check.json` (or its folder) linked elsewhere: `notes check` read
    the cache through the link and answered from it. What the link reaches is never read: the
    check runs without the cache, and leaves the file there as it was."""
    from orkestra.knowledge import cache as check_cache
    from orkestra.knowledge.cache import CACHE, CheckCache

    monkeypatch.setattr(check_cache, "FRESH_SECONDS", -60.0)  # a note just written is kept
    root = tmp_path / "p"
    init_project(root)
    (root / "knowledge/glossary").mkdir(parents=True)
    (root / "knowledge/glossary/alpha.md").write_text(
        "---\ntype: glossary\ntitle: Alpha\n---\nAlpha is the first letter.\n", encoding="utf-8"
    )
    assert cli("notes", "check", cwd=root).exit_code in (0, 1)
    assert CheckCache(root).notes  # the cache answers for the note
    cache = root / CACHE
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    moved = elsewhere / "notes-check.json"
    if where == "file":
        cache.rename(moved)
        cache.symlink_to(moved)
    else:
        cache.rename(moved)
        cache.parent.rmdir()
        cache.parent.symlink_to(elsewhere)
    before = moved.read_bytes()
    assert CheckCache(root).notes == {}
    assert cli("notes", "check", cwd=root).exit_code in (0, 1)
    assert moved.read_bytes() == before
