"""The writer: diff planned outputs against the disk, then write only what changed, atomically.

Safety: every path stays inside the project root and never passes through a symlink (except an
owned link that this same plan deletes first); files Orkestra did not write are never touched
(they are reported as conflicts), and owned files whose source is gone are deleted.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from orkestra.core.errors import ConflictError, UnsafePathError
from orkestra.render import manifest
from orkestra.render.plan import Output, RenderPlan

_counter = itertools.count()


def check_relative(path: str) -> None:
    """Reject a planned path that is absolute, climbs out, or is otherwise odd."""
    parts = path.split("/")
    if (
        not path
        or path.startswith("/")
        or "\\" in path
        or "\x00" in path
        or any(p in ("", ".", "..") for p in parts)
    ):
        raise UnsafePathError(f"refusing to write '{path}': not a plain path inside the project")


class _Guard:
    """Checks that the folders leading to a path are real folders inside the root."""

    def __init__(self, root: Path, removable_links: set[str]) -> None:
        self.root = root
        self.removable = removable_links
        self.seen: dict[str, str] = {}

    def parents(self, path: str) -> str:
        """'ok'; 'gone' below an owned link this plan deletes (so the path will be new);
        'blocked' when a regular file sits where a folder is needed."""
        check_relative(path)
        parts = path.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folder = "/".join(parts[:depth])
            state = self.seen.get(folder)
            if state is None:
                state = self._state(folder)
                self.seen[folder] = state
            if state != "ok":
                return state
        return "ok"

    def _state(self, folder: str) -> str:
        try:
            st = os.lstat(f"{self.root}/{folder}")
        except FileNotFoundError:
            return "ok"
        if stat.S_ISLNK(st.st_mode):
            if folder in self.removable:
                return "gone"
            raise UnsafePathError(
                f"refusing to write below '{folder}': it is a symlink, and sync never writes "
                "through symlinks; remove it or replace it with a folder",
                file=folder,
            )
        return "ok" if stat.S_ISDIR(st.st_mode) else "blocked"


def _same(full: str, st: os.stat_result, out: Output) -> bool:
    # plain strings and os calls: this runs for every output of every sync
    if out.link is not None:
        return stat.S_ISLNK(st.st_mode) and os.readlink(full) == out.link  # noqa: PTH115
    if not stat.S_ISREG(st.st_mode) or out.data is None or st.st_size != len(out.data):
        return False
    if bool(st.st_mode & 0o100) != out.executable:
        return False
    with open(full, "rb") as handle:  # noqa: PTH123
        return handle.read() == out.data


def plan(
    root: Path, outputs: Iterable[Output], owned: dict[str, str], targets: set[str]
) -> RenderPlan:
    """Compare `outputs` with the disk. `owned` is the lock; only `targets` are pruned."""
    result = RenderPlan()
    result.outputs = {o.path: o for o in outputs}
    gone = sorted(p for p, t in owned.items() if t in targets and p not in result.outputs)
    removable: set[str] = set()
    before = _Guard(root, set())  # a deletion must not reach through a symlinked folder either
    for path in gone:
        if before.parents(path) != "ok":
            continue
        with contextlib.suppress(OSError):
            st = os.lstat(root / path)
            if stat.S_ISLNK(st.st_mode) or stat.S_ISREG(st.st_mode):
                result.deleted.append(path)
                if stat.S_ISLNK(st.st_mode):
                    removable.add(path)
    guard = _Guard(root, removable)
    base = str(root)
    for path in sorted(result.outputs):
        out = result.outputs[path]
        state = guard.parents(path)
        if state == "gone":
            result.created.append(path)
            continue
        if state != "ok":
            result.conflicts.append(path)
            continue
        full = f"{base}/{path}"
        try:
            st = os.lstat(full)
        except FileNotFoundError:
            result.created.append(path)
            continue
        if path in removable:
            result.updated.append(path)
        elif _same(full, st, out):
            result.unchanged.append(path)
        elif stat.S_ISDIR(st.st_mode):
            emptied = out.link is not None and _emptied(root, path, set(result.deleted))
            (result.created if emptied else result.conflicts).append(path)
        elif path in owned or path == manifest.LOCK_PATH or out.shared:
            result.updated.append(path)
        else:
            result.conflicts.append(path)
    return result


def _emptied(root: Path, folder: str, deleted: set[str]) -> bool:
    """True when every file below `folder` is an owned file this plan deletes."""
    for dirpath, _, files in os.walk(root / folder):
        rel = Path(dirpath).relative_to(root).as_posix()
        if any(f"{rel}/{name}" not in deleted for name in files):
            return False
    return True


def apply(root: Path, result: RenderPlan, *, force: bool = False) -> int:
    """Carry out a plan: delete gone owned files, then write changed ones. Returns writes."""
    if result.conflicts and not force:
        shown = ", ".join(result.conflicts[:5])
        more = f" and {len(result.conflicts) - 5} more" if len(result.conflicts) > 5 else ""
        raise ConflictError(
            f"{len(result.conflicts)} file(s) exist that Orkestra did not write: {shown}{more}; "
            "move them away (or run `orkestra sync --force` to take them over)",
            file=result.conflicts[0],
        )
    for path in result.deleted:
        _delete(root, path)
    writes = sorted(p for p in [*result.created, *result.updated, *result.conflicts] if p)
    files = [result.outputs[p] for p in writes if p != manifest.LOCK_PATH]
    for folder in sorted({str((root / out.path).parent) for out in files}):
        os.makedirs(folder, exist_ok=True)  # noqa: PTH103 - one call per folder, not per file
    mask = os.umask(0)
    os.umask(mask)
    job = _Job(str(root), mask)
    for out in files:  # serial: threads made the kernel contend on the journal (measured)
        job.write(out)
    if manifest.LOCK_PATH in writes:  # last: a crash before this leaves the old ownership
        lock = result.outputs[manifest.LOCK_PATH]
        (root / lock.path).parent.mkdir(parents=True, exist_ok=True)
        job.write(lock)
    if writes or result.deleted:
        os.sync()
    return len(writes)


def _delete(root: Path, path: str) -> None:
    full = root / path
    with contextlib.suppress(FileNotFoundError):
        full.unlink()
    parent = full.parent
    # remove folders emptied by pruning, but never the top-level folder (.claude) or the root
    while parent != root and parent.parent != root:
        try:
            parent.rmdir()
        except OSError:
            break
        parent = parent.parent


class _Job:
    """Writes one output atomically: a temporary file in the same folder, then a rename."""

    def __init__(self, root: str, umask: int) -> None:
        self.root = root
        self.umask = umask

    def write(self, out: Output) -> None:
        full = f"{self.root}/{out.path}"
        folder, _, name = full.rpartition("/")
        tmp = f"{folder}/.{name}.orkestra-{os.getpid()}-{next(_counter)}.tmp"
        try:
            if out.link is not None:
                os.symlink(out.link, tmp)  # noqa: PTH211
            else:
                mode = 0o755 if out.executable else 0o644
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
                try:
                    view = memoryview(out.data or b"")
                    while view:
                        view = view[os.write(fd, view) :]
                    if mode & ~self.umask != mode:
                        os.fchmod(fd, mode)
                finally:
                    os.close(fd)
            try:
                os.replace(tmp, full)  # noqa: PTH105 - rename(2) never replaces a folder
            except IsADirectoryError:
                raise ConflictError(
                    f"'{out.path}' is a folder; move it away and re-sync", file=out.path
                ) from None
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)  # noqa: PTH108
            raise
