"""`render.exclusive`: one writing sync at a time in a project; reading runs never wait."""

from __future__ import annotations

import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from orkestra.render import exclusive, noop, writer
from orkestra.render.sync import sync
from tests.render.conftest import synced_rich

AGENT = "registries/agents/plain-helper.yaml"
OUTPUT = ".claude/agents/plain-helper.md"
TODAY = "2026-11-30"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synced_rich(tmp_path_factory.mktemp("exclusive") / "proj")


@pytest.fixture
def proj(template: Path, tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(template, root, symlinks=True)
    return root


def _start(root: Path, *args: str) -> subprocess.Popen[str]:
    exe = Path(sys.executable).with_name("orkestra")
    env = {**os.environ, "ORKESTRA_TODAY": TODAY}
    return subprocess.Popen([str(exe), *args], cwd=root, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip


WAITING = "orkestra: another sync is writing in this project; waiting for it to end"


def _until_waiting(run: subprocess.Popen[str], timeout: float = 60.0) -> str:
    """The run's stderr up to its waiting notice: it has reached the held lock and waits. Read
    with os.read (no buffer `communicate` would not see), however slowly the run starts on a
    loaded machine; a run that ends or stays silent fails the test."""
    assert run.stderr is not None
    said = b""
    deadline = time.monotonic() + timeout
    while WAITING.encode() not in said:
        left = deadline - time.monotonic()
        assert left > 0 and run.poll() is None, said
        ready, _, _ = select.select([run.stderr], [], [], left)
        if ready:
            said += os.read(run.stderr.fileno(), 4096)
    return said.decode()


def _finish(run: subprocess.Popen[str], waited: bool = False, said: str = "") -> dict[str, Any]:
    """The run's JSON answer; `said` is the stderr `_until_waiting` read before."""
    out, err = run.communicate(timeout=120)
    err = said + err
    assert run.returncode in (0, 1), err
    assert (WAITING in err) == waited, err  # said once when it waited, never otherwise
    assert err.count(WAITING) == int(waited), err
    return dict(json.loads(out))


def _edit(root: Path, old: str, new: str) -> None:
    path = root / AGENT
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def _held_elsewhere(root: Path) -> bool:
    """Whether another open file holds the project's sync lock now."""
    fd = os.open(root / exclusive.LOCK, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_a_writing_sync_waits_for_the_one_that_holds_the_lock(proj: Path) -> None:
    _edit(proj, "Be plain.", "Be plain, in turn.")
    with exclusive.held(proj):
        run = _start(proj, "sync")
        said = _until_waiting(run)
        time.sleep(0.5)
        assert run.poll() is None  # waiting, nothing read or written yet
        assert "in turn" not in (proj / OUTPUT).read_text(encoding="utf-8")
    assert _finish(run, True, said)["updated"] == [OUTPUT, "registries/.render-lock.json"]
    assert "in turn" in (proj / OUTPUT).read_text(encoding="utf-8")


@pytest.mark.parametrize("args", [["--force"], ["--target", "claude"]])
def test_a_forced_or_targeted_sync_waits_too(proj: Path, args: list[str]) -> None:
    """These run the full sync directly (no no-op record): the same lock."""
    _edit(proj, "Be plain.", "Be plain, forced.")
    with exclusive.held(proj):
        run = _start(proj, "sync", *args)
        said = _until_waiting(run)
        assert run.poll() is None
    assert OUTPUT in _finish(run, True, said)["updated"]


@pytest.mark.parametrize("stderr", ["full", "closed"])
def test_a_sync_whose_stderr_cannot_be_written_still_waits(proj: Path, stderr: str) -> None:
    """The notice failing (a full device, a closed stderr) neither skips the lock nor ends
    the sync."""
    exe = str(Path(sys.executable).with_name("orkestra"))
    env = {**os.environ, "ORKESTRA_TODAY": TODAY}
    _edit(proj, "Be plain.", "Be plain, quietly.")
    with exclusive.held(proj):
        if stderr == "full":
            with Path("/dev/full").open("w") as full:  # every write fails: ENOSPC
                run = subprocess.Popen([exe, "sync"], cwd=proj, env=env, text=True,
                                       stdout=subprocess.PIPE, stderr=full)  # fmt: skip
        else:
            run = subprocess.Popen(["sh", "-c", 'exec "$0" sync 2>&-', exe], cwd=proj, env=env,
                                   text=True, stdout=subprocess.PIPE)  # fmt: skip
        time.sleep(1.0)
        assert run.poll() is None  # waiting, not writing beside the holder
        assert "quietly" not in (proj / OUTPUT).read_text(encoding="utf-8")
    out, _ = run.communicate(timeout=120)
    assert run.returncode == 0
    assert json.loads(out)["updated"] == [OUTPUT, "registries/.render-lock.json"]
    assert not (proj / ".orkestra" / "logs").exists()  # no crash log


def test_with_format_json_stderr_holds_nothing_but_an_error(proj: Path) -> None:
    _edit(proj, "Be plain.", "Be plain, as JSON.")
    with exclusive.held(proj):
        run = _start(proj, "sync", "--format", "json")
        time.sleep(1.0)
        assert run.poll() is None
    out, err = run.communicate(timeout=120)
    assert run.returncode == 0 and err == ""
    assert json.loads(out)["updated"] == [OUTPUT, "registries/.render-lock.json"]


def test_the_lock_is_one_however_the_project_is_named(proj: Path, tmp_path: Path) -> None:
    """`.` and a symlink to the project are the same project: a nested block goes on."""
    import threading

    link = tmp_path / "link"
    link.symlink_to(proj)
    held: list[bool] = []

    def nested() -> None:  # in a thread: a regression waits on itself, and the join says so
        with (
            exclusive.held(proj),
            exclusive.held(Path(os.path.relpath(proj))),
            exclusive.held(link),
        ):
            held.append(_held_elsewhere(proj))

    thread = threading.Thread(target=nested, daemon=True)
    thread.start()
    thread.join(20)
    assert not thread.is_alive() and held == [True]
    assert not _held_elsewhere(proj)


def test_check_and_dry_run_do_not_wait(proj: Path) -> None:
    _edit(proj, "Be plain.", "Be plain, checked.")
    with exclusive.held(proj):
        checked = _finish(_start(proj, "sync", "--check"))
        planned = _finish(_start(proj, "sync", "--dry-run"))
    assert checked["ok"] is False and checked["updated"] == [OUTPUT,
                                                             "registries/.render-lock.json"]  # fmt: skip
    assert planned["updated"] == checked["updated"]
    assert "checked" not in (proj / OUTPUT).read_text(encoding="utf-8")


def test_two_syncs_queued_behind_the_lock_leave_what_one_sync_leaves(
    proj: Path, tmp_path: Path
) -> None:
    """Edits before and between two syncs that start at once: each runs on its own, after the
    other, so the second finds the first's lock and outputs whole; no conflict, nothing left to
    do, the files of a cold sync."""
    with exclusive.held(proj):
        _edit(proj, "Be plain.", "Be plain, first.")
        first = _start(proj, "sync")
        said_first = _until_waiting(first)
        _edit(proj, "first", "second")
        second = _start(proj, "sync")
        said_second = _until_waiting(second)
    answers = [_finish(first, True, said_first), _finish(second, True, said_second)]
    assert all(a["ok"] and not a["conflicts"] for a in answers)
    assert sorted(a["written"] for a in answers) == [0, 2]  # one wrote, the other had nothing
    again = _finish(_start(proj, "sync", "--check"))
    assert again["ok"] is True and again["written"] == 0
    cold = tmp_path / "cold"
    shutil.copytree(proj, cold, symlinks=True, ignore=shutil.ignore_patterns(".orkestra"))
    _finish(_start(cold, "sync"))
    assert (cold / OUTPUT).read_bytes() == (proj / OUTPUT).read_bytes()
    lock = "registries/.render-lock.json"
    assert (cold / lock).read_bytes() == (proj / lock).read_bytes()


@pytest.mark.parametrize("run", ["sync_result", "sync"])
def test_the_lock_is_held_while_a_sync_writes(
    proj: Path, monkeypatch: pytest.MonkeyPatch, run: str
) -> None:
    seen: list[bool] = []
    real = writer.apply
    monkeypatch.setattr(writer, "apply", lambda *a, **k: seen.append(_held_elsewhere(proj))
                        or real(*a, **k))  # fmt: skip
    monkeypatch.setenv("ORKESTRA_TODAY", TODAY)
    _edit(proj, "Be plain.", "Be plain, held.")
    if run == "sync_result":
        noop.sync_result(proj, "write")
    else:
        sync(proj, mode="write")
    assert seen == [True]
    assert not _held_elsewhere(proj)  # released at the end


@pytest.mark.parametrize("how", ["file", "symlink"])
def test_a_sync_writes_without_the_lock_where_it_cannot_be_made(
    proj: Path, tmp_path: Path, how: str
) -> None:
    """`.orkestra` a file, or a symlink out of the project: no lock file made, none through the
    link, and the sync writes as it did before."""
    shutil.rmtree(proj / ".orkestra")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    if how == "file":
        (proj / ".orkestra").write_text("not a folder\n", encoding="utf-8")
    else:
        (proj / ".orkestra").symlink_to(elsewhere)
    _edit(proj, "Be plain.", "Be plain, unlocked.")
    answer = _finish(_start(proj, "sync"))
    assert answer["ok"] is True and OUTPUT in answer["updated"]
    assert "unlocked" in (proj / OUTPUT).read_text(encoding="utf-8")
    assert list(elsewhere.iterdir()) == []


def test_a_block_inside_one_holding_the_lock_goes_on_and_another_thread_waits(
    proj: Path,
) -> None:
    import threading

    order: list[str] = []

    def other() -> None:
        with exclusive.held(proj):
            order.append("other thread")

    with exclusive.held(proj):
        with exclusive.held(proj):  # the same sync, one call inside another: no wait
            order.append("inner")
        thread = threading.Thread(target=other)
        thread.start()
        thread.join(0.5)
        assert thread.is_alive()  # waits for this thread's block to end
        order.append("outer ends")
    thread.join(10)
    assert order == ["inner", "outer ends", "other thread"]
    assert not _held_elsewhere(proj)
