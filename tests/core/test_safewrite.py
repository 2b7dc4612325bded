"""The one safe writer: inside the root, no symlinks on the way, atomic, mode kept, no temp left."""

from __future__ import annotations

import os
import signal
import stat
import time
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import safewrite
from orkestra.core.errors import ChangedOnDisk, ConflictError, UnsafePathError, WriteFailed


def files(root: Path) -> dict[str, bytes]:
    """Every file below root (symlinks as their target), for "nothing changed" checks."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            out[rel] = str(path.readlink()).encode()
        elif path.is_file():
            out[rel] = path.read_bytes()
    return out


def test_writes_text_and_bytes_creating_folders(tmp_path: Path) -> None:
    full = safewrite.write_file(tmp_path, "a/b/c.txt", "héllo\n")
    assert full == tmp_path / "a/b/c.txt" and full.read_bytes() == "héllo\n".encode()
    safewrite.write_file(tmp_path, tmp_path / "a/b/c.txt", b"\x00bin")
    assert full.read_bytes() == b"\x00bin"
    assert stat.S_IMODE(full.stat().st_mode) == 0o644
    assert files(tmp_path) == {"a/b/c.txt": b"\x00bin"}  # no temporary file left


@pytest.mark.parametrize(
    "path", ["../out.txt", "a/../../out.txt", "/etc/passwd", "", "a//b", "./a", "a\\b"]
)
def test_paths_leaving_the_root_or_odd_are_refused(tmp_path: Path, path: str) -> None:
    root = tmp_path / "project"
    root.mkdir()
    with pytest.raises(UnsafePathError):
        safewrite.write_file(root, path, "x")
    assert files(tmp_path) == {}


def test_an_absolute_path_below_the_root_is_accepted(tmp_path: Path) -> None:
    safewrite.write_file(tmp_path, tmp_path.resolve() / "x.txt", "x")
    assert (tmp_path / "x.txt").read_text() == "x"


@pytest.mark.parametrize("leaves", [True, False], ids=["to-outside", "to-inside"])
def test_a_symlinked_parent_folder_is_refused(tmp_path: Path, leaves: bool) -> None:
    root, outside = tmp_path / "project", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "real").mkdir()
    (root / "a").mkdir()
    (root / "a/link").symlink_to(outside if leaves else root / "real")
    before = files(tmp_path)
    with pytest.raises(UnsafePathError) as info:
        safewrite.write_file(root, "a/link/deep/x.txt", "x")
    assert info.value.file == "a/link" and "symlink" in info.value.message
    assert "outside the project" in info.value.message
    assert files(tmp_path) == before and not (outside / "deep").exists()


def test_a_symlinked_target_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("keep")
    root = tmp_path / "project"
    root.mkdir()
    (root / "f.txt").symlink_to(secret)
    with pytest.raises(UnsafePathError) as info:
        safewrite.write_file(root, "f.txt", "x")
    assert info.value.file == "f.txt" and "symlink" in info.value.message
    assert secret.read_text() == "keep" and (root / "f.txt").is_symlink()
    # an owned link may be replaced on purpose: the link goes, its target stays
    safewrite.write_file(root, "f.txt", "new", replace_link=True)
    assert not (root / "f.txt").is_symlink() and secret.read_text() == "keep"


def test_a_file_where_a_folder_is_needed_is_a_conflict(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("file")
    with pytest.raises(ConflictError) as info:
        safewrite.write_file(tmp_path, "a/b/c.txt", "x")
    assert info.value.file == "a" and "'a' is a file where a folder is needed" in str(info.value)


def test_a_folder_at_the_target_is_a_conflict(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    with pytest.raises(ConflictError, match="is a folder"):
        safewrite.write_file(tmp_path, "d", "x")
    assert files(tmp_path) == {}


def test_the_mode_of_an_existing_file_is_kept(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text("old")
    script.chmod(0o750)
    safewrite.write_file(tmp_path, "run.sh", "new")
    assert script.read_text() == "new" and stat.S_IMODE(script.stat().st_mode) == 0o750
    safewrite.write_file(tmp_path, "run.sh", "newer", mode=0o600)
    assert stat.S_IMODE(script.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("before", "executable", "after"),
    [
        (None, True, 0o755),  # a new file
        (None, False, 0o644),
        (0o600, False, 0o600),  # a file holding a secret stays private
        (0o600, True, 0o700),  # a script: executable where it is readable
        (0o640, True, 0o750),
        (0o444, True, 0o555),
        (0o755, False, 0o644),  # not a script (any more)
        (0o750, True, 0o750),
    ],
)
def test_executable_keeps_the_mode_and_sets_only_the_execute_bits(
    tmp_path: Path, before: int | None, executable: bool, after: int
) -> None:
    path = tmp_path / "f"
    if before is not None:
        path.write_text("old")
        path.chmod(before)
    old = os.umask(0o077)  # whatever the umask
    try:
        safewrite.write_file(tmp_path, "f", "new", executable=executable)
    finally:
        os.umask(old)
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == after
    batch_path = tmp_path / "g"
    if before is not None:
        batch_path.write_text("old")
        batch_path.chmod(before)
    with safewrite.Batch(tmp_path) as batch:
        batch.file("g", "new", executable=executable)
    assert stat.S_IMODE(batch_path.stat().st_mode) == after


def test_an_explicit_mode_ignores_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        safewrite.write_file(tmp_path, "hook", "#!/bin/sh\n", mode=0o755)
        safewrite.write_file(tmp_path, "plain", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "hook").stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "plain").stat().st_mode) == 0o644


def test_expected_old_mismatch_leaves_the_file_untouched(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_text("changed by someone else")
    with pytest.raises(ChangedOnDisk) as info:
        safewrite.write_file(tmp_path, "f.txt", "mine", expected_old=b"what I read")
    assert info.value.file == "f.txt" and "changed on disk" in info.value.message
    assert files(tmp_path) == {"f.txt": b"changed by someone else"}
    with pytest.raises(ChangedOnDisk):  # None: the file must not exist yet
        safewrite.write_file(tmp_path, "f.txt", "mine", expected_old=None)
    safewrite.write_file(tmp_path, "f.txt", "mine", expected_old=b"changed by someone else")
    safewrite.write_file(tmp_path, "new.txt", "n", expected_old=None)
    assert files(tmp_path) == {"f.txt": b"mine", "new.txt": b"n"}


def test_a_failed_rename_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "f.txt").write_text("old")

    def refuse(src: str, dst: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(safewrite.os, "replace", refuse)
    with pytest.raises(WriteFailed) as info:
        safewrite.write_file(tmp_path, "f.txt", "new")
    assert info.value.file == "f.txt" and "Permission denied" in info.value.message
    assert files(tmp_path) == {"f.txt": b"old"}


def test_an_interrupt_mid_write_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(safewrite.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        safewrite.write_file(tmp_path, "f.txt", "new")
    assert files(tmp_path) == {}


def test_short_writes_are_completed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.write

    def one_byte(fd: int, data: bytes | memoryview) -> int:
        return real(fd, bytes(data[:1]))

    monkeypatch.setattr(safewrite.os, "write", one_byte)
    safewrite.write_file(tmp_path, "f.txt", b"abcdef")
    assert (tmp_path / "f.txt").read_bytes() == b"abcdef"


def test_stale_temporary_files_of_dead_runs_are_removed(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    dead = tmp_path / "a" / ".f.txt.orkestra-999999999-3.tmp"  # no such process
    mine = tmp_path / "a" / f".g.txt.orkestra-{os.getpid()}-0.tmp"  # a write in progress
    old = tmp_path / f".h.orkestra-{os.getpid()}-1.tmp"
    user = tmp_path / "a" / ".f.txt.tmp"  # not ours
    former = tmp_path / "a" / f".i.txt.orkestra-{os.getpid()}-2.tmp"  # our pid, before we began
    for path in (dead, mine, old, user, former):
        path.write_text("x")
    os.utime(old, (1, 1))
    began = safewrite._STARTED - 10  # a container's pid 1, killed, and the next sync is pid 1
    os.utime(former, (began, began))
    removed = safewrite.clean_stale(tmp_path, ["a", tmp_path, "missing"])
    assert sorted(removed) == [old.name, "a/" + dead.name, "a/" + former.name]
    assert not dead.exists() and not old.exists() and mine.exists() and user.exists()


def test_a_derived_write_removes_killed_runs_temporary_files_in_its_folder_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`.orkestra/`'s folders are in no sync plan: a derived write there cleans them."""
    monkeypatch.setattr(safewrite, "_swept", set())
    (tmp_path / ".orkestra" / "cache").mkdir(parents=True)
    dead = tmp_path / ".orkestra" / ".record.json.orkestra-999999999-3.tmp"  # no such process
    live = tmp_path / ".orkestra" / f".other.orkestra-{os.getpid()}-9.tmp"  # a write in progress
    below = tmp_path / ".orkestra" / "cache" / ".00.json.orkestra-999999999-1.tmp"
    for path in (dead, live, below):
        path.write_text("half")
    safewrite.write_file(tmp_path, ".orkestra/clock", b"")  # durable: an output's own rules
    assert dead.exists()
    safewrite.write_file(tmp_path, ".orkestra/record.json", "{}", durable=False)
    assert not dead.exists() and live.exists() and below.exists()  # its own folder only
    dead.write_text("again")  # once a process: the next derived write there does not list it
    safewrite.write_file(tmp_path, ".orkestra/record.json", "{}", durable=False)
    assert dead.exists()
    safewrite.write_file(tmp_path, ".orkestra/cache/00.json", "{}", durable=False)
    assert not below.exists()


def test_a_derived_write_succeeds_when_its_folder_cannot_be_cleaned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(safewrite, "_swept", set())

    def refused(*_args: object) -> list[str]:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(safewrite, "clean_stale", refused)
    safewrite.write_file(tmp_path, "record.json", "{}", durable=False)
    assert (tmp_path / "record.json").read_text() == "{}"


def test_the_temporary_name_is_the_one_clean_stale_recognises(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    real = os.replace

    def spy(src: str, dst: str) -> None:
        seen.append(Path(src).name)
        real(src, dst)

    monkeypatch.setattr(safewrite.os, "replace", spy)
    safewrite.write_file(tmp_path, "f.txt", "x")
    assert seen and safewrite.TEMP_RE.match(seen[0]) and seen[0].startswith(".f.txt.orkestra-")


def test_remove_file_stays_inside_and_never_follows_links(tmp_path: Path) -> None:
    root, outside = tmp_path / "project", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "x.txt").write_text("keep")
    (root / "link").symlink_to(outside)
    with pytest.raises(UnsafePathError):
        safewrite.remove_file(root, "link/x.txt")
    with pytest.raises(UnsafePathError):
        safewrite.remove_file(root, "../outside/x.txt")
    assert (outside / "x.txt").read_text() == "keep"
    assert safewrite.remove_file(root, "link") and outside.is_dir()  # the link, not its target
    assert not safewrite.remove_file(root, "gone.txt")


def test_write_link_replaces_an_owned_link(tmp_path: Path) -> None:
    safewrite.write_link(tmp_path, "l", "a")
    safewrite.write_link(tmp_path, "l", "b")
    assert str((tmp_path / "l").readlink()) == "b" and files(tmp_path) == {"l": b"b"}


def test_a_batch_file_with_expected_old_lands_only_while_the_file_holds_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.json").write_text("read")
    with pytest.raises(ChangedOnDisk) as err, safewrite.Batch(tmp_path) as batch:
        batch.file("b.json", "b", expected_old=None)
        batch.file("a.json", "ours", expected_old=b"read")
        (tmp_path / "a.json").write_text("edited meanwhile")
    assert err.value.file == "a.json"
    assert files(tmp_path) == {"a.json": b"edited meanwhile"}  # neither file written
    with pytest.raises(ChangedOnDisk), safewrite.Batch(tmp_path) as batch:
        batch.file("a.json", "ours", expected_old=b"edited meanwhile")
        batch.file("b.json", "b", expected_old=None)
        (tmp_path / "b.json").write_text("appeared")
    assert files(tmp_path) == {"a.json": b"edited meanwhile", "b.json": b"appeared"}
    with safewrite.Batch(tmp_path) as batch:
        batch.file("a.json", "ours", expected_old=b"edited meanwhile")
    assert (tmp_path / "a.json").read_text() == "ours"


def test_a_batch_renames_only_after_every_file_is_staged(tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_text("old")
    (tmp_path / "old.txt").chmod(0o600)
    (tmp_path / "blocker").write_text("a file")
    with pytest.raises(ConflictError), safewrite.Batch(tmp_path) as batch:
        batch.file("old.txt", "new")
        batch.link("l", "old.txt")
        batch.file("blocker/x.txt", "x")  # refused: nothing of the batch lands
    assert files(tmp_path) == {"old.txt": b"old", "blocker": b"a file"}
    with safewrite.Batch(tmp_path) as batch:
        for n in range(20):  # enough to fsync in threads
            batch.file(f"d/{n}.txt", str(n))
        batch.file("old.txt", "new")
        batch.link("l", "old.txt")
    assert (tmp_path / "d/19.txt").read_text() == "19" and (
        tmp_path / "old.txt"
    ).read_text() == "new"
    assert stat.S_IMODE((tmp_path / "old.txt").stat().st_mode) == 0o600
    assert str((tmp_path / "l").readlink()) == "old.txt"
    assert len(files(tmp_path)) == 23  # no temporary file left


def test_a_batch_whose_fsync_fails_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(safewrite.os, "fsync", broken)
    with pytest.raises(WriteFailed, match="Input/output error"), safewrite.Batch(tmp_path) as batch:
        batch.file("a.txt", "a")
        batch.file("b.txt", "b")
    assert files(tmp_path) == {}


def test_a_big_batch_writes_its_files_in_threads_and_renames_them_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    renamed: list[str] = []
    real = os.replace

    def tracked(src: str, dst: str) -> None:
        assert Path(src).stat().st_size == len(Path(dst).name.split(".")[0])  # written whole first
        renamed.append(Path(dst).relative_to(tmp_path).as_posix())
        real(src, dst)

    monkeypatch.setattr(safewrite.os, "replace", tracked)
    names = [f"s/{n:03d}/{n:03d}.md" for n in range(60)]  # a folder each, as skills have
    with safewrite.Batch(tmp_path) as batch:
        for name in names:
            batch.file(name, Path(name).name.split(".")[0])
        assert batch.writing  # from the _POOL_FROM-th file on, in threads
    assert renamed == names
    assert files(tmp_path) == {name: Path(name).name.split(".")[0].encode() for name in names}


def _full_disk_at(monkeypatch: pytest.MonkeyPatch, call: int) -> None:
    """The disk fills up at the `call`th fsync."""
    real, calls = os.fsync, []

    def full_disk(fd: int) -> None:
        calls.append(fd)
        if len(calls) == call:
            raise OSError(28, "No space left on device")
        real(fd)

    monkeypatch.setattr(safewrite.os, "fsync", full_disk)


def test_a_write_failing_in_a_thread_writes_nothing_and_names_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "keep.txt").write_text("old")
    # the 3rd fsync: the threads (32) take files in order, so keep.txt, the 36th file of the
    # pool (files from the 16th on), starts only once 4 before it are fsynced; the 30th fsync
    # could be keep.txt's on a loaded machine
    _full_disk_at(monkeypatch, 3)
    with (
        pytest.raises(WriteFailed, match="No space left") as caught,
        safewrite.Batch(tmp_path) as batch,
    ):
        for n in range(50):
            batch.file(f"d/{n}.txt", str(n))
        batch.file("keep.txt", "new")
    assert caught.value.file is not None and caught.value.file.startswith("d/")
    assert "(one of 51 file(s))" in caught.value.message
    assert files(tmp_path) == {"keep.txt": b"old"}  # nothing renamed, no temporary file left


def test_a_refusal_while_threads_write_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.fsync

    def slow(fd: int) -> None:  # the threads are still writing when the refusal comes
        time.sleep(0.02)
        real(fd)

    monkeypatch.setattr(safewrite.os, "fsync", slow)
    (tmp_path / "blocker").write_text("a file")
    with pytest.raises(ConflictError), safewrite.Batch(tmp_path) as batch:
        for n in range(200):
            batch.file(f"d/{n}/x.txt", "x" * 10_000)
        batch.file("blocker/x.txt", "x")  # refused while the threads are still writing
    time.sleep(0.3)  # a write still queued then would have made its temporary file by now
    assert files(tmp_path) == {"blocker": b"a file"}


def test_a_second_interrupt_while_a_batch_is_discarded_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.fsync

    def slow(fd: int) -> None:  # writes still running when the interrupts come
        time.sleep(0.2)
        real(fd)

    def again(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # a second Ctrl-C, while the first one's cleanup waits

    monkeypatch.setattr(safewrite.os, "fsync", slow)
    previous = signal.signal(signal.SIGALRM, again)
    try:
        with pytest.raises(KeyboardInterrupt), safewrite.Batch(tmp_path) as batch:
            for n in range(300):
                batch.file(f"d/{n}.txt", str(n))
            signal.setitimer(signal.ITIMER_REAL, 0.05)
            raise KeyboardInterrupt
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    time.sleep(0.5)  # a write left queued would have made its temporary file by now
    assert files(tmp_path) == {}


def test_an_interrupt_while_the_folders_are_checked_again_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during the last check of the folders, after every file was written: the batch is
    discarded, as on any refusal there."""
    real, calls = safewrite.Guard.parents, []

    def interrupted(self: safewrite.Guard, rel: str) -> str:
        calls.append(rel)
        if len(calls) == 5 and self is not batch.guard:  # the recheck's own, uncached guard
            raise KeyboardInterrupt
        return real(self, rel)

    with pytest.raises(KeyboardInterrupt), safewrite.Batch(tmp_path) as batch:
        for n in range(40):
            batch.file(f"d/{n}.txt", str(n))
        calls.clear()
        monkeypatch.setattr(safewrite.Guard, "parents", interrupted)
    assert files(tmp_path) == {}


@pytest.mark.parametrize("step", ["_recheck", "check", "rename"])
def test_an_interrupt_between_the_steps_of_a_commit_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    """Ctrl-C at the start of a step of `commit` (after the writes, before the renames, or
    after some renames): what is not renamed yet is removed, what is renamed stays whole."""
    renames: list[str] = []
    real_rename = safewrite._rename

    def interrupt(*args: object) -> None:
        raise KeyboardInterrupt

    def rename(tmp: str, full: str, rel: str) -> None:
        if len(renames) == 10:
            raise KeyboardInterrupt
        real_rename(tmp, full, rel)
        renames.append(rel)

    if step == "_recheck":
        monkeypatch.setattr(safewrite.Batch, "_recheck", interrupt)
    elif step == "rename":
        monkeypatch.setattr(safewrite, "_rename", rename)
    check = interrupt if step == "check" else None
    with pytest.raises(KeyboardInterrupt), safewrite.Batch(tmp_path, check=check) as batch:
        for n in range(40):
            batch.file(f"d/{n}.txt", str(n))
    assert files(tmp_path) == {f"d/{n}.txt": str(n).encode() for n in range(len(renames))}


def test_a_failed_batch_removes_the_folders_it_made_and_keeps_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk halfway: the thousands of folders the batch made for its files do not stay
    behind empty; a folder that was there, or that holds a file meanwhile, is kept."""
    (tmp_path / "there").mkdir()
    _full_disk_at(monkeypatch, 30)
    with pytest.raises(WriteFailed), safewrite.Batch(tmp_path) as batch:
        for n in range(50):
            batch.file(f"deep/{n}/inner/x.txt", str(n))
        batch.file("there/x.txt", "x")
        batch.file("kept/x.txt", "x")
        (tmp_path / "kept" / "users.txt").write_text("mine")
    folders = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_dir())
    assert folders == ["kept", "there"] and files(tmp_path) == {"kept/users.txt": b"mine"}


def test_a_second_interrupt_while_temporary_files_are_removed_removes_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real, calls = os.unlink, []

    def unlink(path: str) -> None:
        real(path)
        calls.append(path)
        if len(calls) in (3, 4):  # a second Ctrl-C (then a third) while the cleanup runs
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), safewrite.Batch(tmp_path) as batch:
        for n in range(40):
            batch.file(f"d/{n}.txt", str(n))
        monkeypatch.setattr(safewrite.os, "unlink", unlink)
        raise KeyboardInterrupt
    assert len(calls) > 4 and files(tmp_path) == {}  # went on after both interrupts


def test_an_interrupt_right_after_a_write_is_handed_to_a_thread_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    real = ThreadPoolExecutor.submit
    calls: list[int] = []

    def interrupted(self: ThreadPoolExecutor, *args: Any, **kwargs: Any) -> Any:
        future = real(self, *args, **kwargs)
        calls.append(1)
        if len(calls) == 5:  # the job is queued; the batch has not seen its future yet
            raise KeyboardInterrupt
        return future

    monkeypatch.setattr(ThreadPoolExecutor, "submit", interrupted)
    with pytest.raises(KeyboardInterrupt), safewrite.Batch(tmp_path) as batch:
        for n in range(40):
            batch.file(f"d/{n}.txt", str(n))
    time.sleep(0.2)
    assert files(tmp_path) == {}


def test_a_folder_that_cannot_be_made_in_a_big_batch_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.mkdir

    def read_only(path: str, *args: object) -> None:
        if "late" in str(path):
            raise OSError(30, "Read-only file system", path)
        real(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(safewrite.os, "mkdir", read_only)
    with (
        pytest.raises(WriteFailed, match="Read-only file system") as caught,
        safewrite.Batch(tmp_path) as batch,
    ):
        for n in range(20):
            batch.file(f"d/{n}/x.txt", str(n))
        batch.file("d/late/x.txt", "x")
    assert caught.value.file == "d/late/x.txt"
    assert files(tmp_path) == {}


def test_a_batch_whose_rename_fails_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.replace
    calls = []

    def flaky(src: str, dst: str) -> None:
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(safewrite.os, "replace", flaky)
    with pytest.raises(WriteFailed, match="No space left"), safewrite.Batch(tmp_path) as batch:
        for name in ("a", "b", "c"):
            batch.file(f"{name}.txt", name)
    assert files(tmp_path) == {"a.txt": b"a"}


def test_a_batch_checks_each_file_just_before_its_own_rename(tmp_path: Path) -> None:
    """`check_each` raising keeps the files renamed before and discards the rest."""
    seen: list[str] = []

    def check_each(rel: str) -> None:
        seen.append(rel)
        if rel == "b.txt":
            raise ChangedOnDisk("'b.txt' changed on disk while sync ran", file="b.txt")

    with pytest.raises(ChangedOnDisk), safewrite.Batch(tmp_path, check_each=check_each) as batch:
        for name in ("a", "b", "c"):
            batch.file(f"{name}.txt", name)
    assert seen == ["a.txt", "b.txt"]
    assert files(tmp_path) == {"a.txt": b"a"}  # no temporary file left either


def test_stale_cleanup_never_reaches_through_a_symlinked_folder(tmp_path: Path) -> None:
    root, outside = tmp_path / "project", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    dead = outside / ".f.txt.orkestra-999999999-3.tmp"
    dead.write_text("not ours to delete")
    (root / "link").symlink_to(outside)
    (root / "a").mkdir()
    (root / "a/link").symlink_to(outside)
    assert safewrite.clean_stale(root, ["link", "a/link", "link/sub"]) == []
    assert dead.exists()


def test_the_guard_looks_up_no_folder_below_one_that_is_not_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "a")
    looked: list[str] = []
    real = os.lstat

    def spy(path: str, *args: object, **kwargs: object) -> os.stat_result:
        looked.append(str(path)[len(str(tmp_path)) + 1 :])
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(safewrite.os, "lstat", spy)
    guard = safewrite.Guard(tmp_path)
    assert guard.parents("a/new/deeper/f.txt") == "ok"
    assert guard.parents("a/new/other/f.txt") == "ok"
    assert looked == ["a", "a/new"]  # one lookup per existing folder and the first missing one
    assert guard.missing == {"a/new", "a/new/deeper", "a/new/other"}
    with pytest.raises(UnsafePathError):  # a symlinked folder is still refused
        guard.parents("link/new/f.txt")
    (tmp_path / "a/new").mkdir()
    guard.forget()
    assert guard.parents("a/new/deeper/f.txt") == "ok" and guard.missing == {"a/new/deeper"}


def test_stale_temporary_files_are_looked_for_only_in_folders_that_are_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a").mkdir()
    dead = tmp_path / "a" / ".f.txt.orkestra-999999999-3.tmp"
    dead.write_text("x")
    listed: list[str] = []
    real = os.scandir

    def spy(path: str) -> object:
        listed.append(str(path)[len(str(tmp_path)) + 1 :])
        return real(path)

    monkeypatch.setattr(safewrite.os, "scandir", spy)
    guard = safewrite.Guard(tmp_path)
    guard.parents("gone/x/y/f.txt")
    folders = ["a", "gone", "gone/x", "gone/x/y"]
    assert safewrite.stale_temps(tmp_path, folders, guard=guard) == ["a/" + dead.name]
    assert listed == ["a"]


def test_stale_temps_names_the_folders_it_listed_that_held_no_temporary_file(
    tmp_path: Path,
) -> None:
    """`clean` receives a folder listed with no temporary file in it, whoever's: not one holding
    a live writer's file (not stale), a dead one's, or a folder named like one; nor a folder not
    there, nor one reached through a symlink (never listed)."""
    for name in ("empty", "user", "live", "dead", "dirlike", "real"):
        (tmp_path / name).mkdir()
    (tmp_path / "user" / ".notes.tmp").write_text("x")
    (tmp_path / "live" / f".f.orkestra-{os.getpid()}-0.tmp").write_text("x")
    (tmp_path / "dead" / ".f.orkestra-999999999-0.tmp").write_text("x")
    (tmp_path / "dirlike" / ".d.orkestra-999999999-0.tmp").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    clean: set[str] = set()
    folders = ["empty", "user", "live", "dead", "dirlike", "link", "gone", ""]
    stale = safewrite.stale_temps(tmp_path, folders, clean=clean)
    assert stale == ["dead/.f.orkestra-999999999-0.tmp"]
    assert clean == {"empty", "user", ""}
    for folder in ("live", "dead", "dirlike"):  # as `holds_temporary` answers
        assert safewrite.holds_temporary(str(tmp_path / folder))
    assert not safewrite.holds_temporary(str(tmp_path / "user"))


def test_a_hard_linked_file_is_refused_naming_it_and_both_names_keep_their_bytes(
    tmp_path: Path,
) -> None:
    """A rename over a file with another hard link would leave the other name holding the old
    bytes, silently: refused, naming the file and what to do; a batch writes nothing at all."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "CLAUDE.md").write_text("mine\n")
    os.link(root / "CLAUDE.md", tmp_path / "elsewhere.md")
    with pytest.raises(ConflictError, match=r"'CLAUDE.md': it has 1 other hard link") as caught:
        safewrite.write_file(root, "CLAUDE.md", "new\n")
    assert caught.value.file == "CLAUDE.md" and "nothing was written" in caught.value.message
    with pytest.raises(ConflictError, match="hard link"), safewrite.Batch(root) as batch:
        batch.file("a.md", "first\n")
        batch.file("CLAUDE.md", "new\n")
    assert files(root) == {"CLAUDE.md": b"mine\n"}
    assert (tmp_path / "elsewhere.md").read_text() == "mine\n"
    safewrite.write_file(root, "CLAUDE.md", "derived\n", durable=False)  # a cache: no loss
    (tmp_path / "elsewhere.md").unlink()
    safewrite.write_file(root, "a.md", "one name\n")
    assert (root / "a.md").read_text() == "one name\n"
