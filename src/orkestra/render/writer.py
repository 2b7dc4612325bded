"""The writer: diff planned outputs against the disk, then write only what changed.

Safety: every path stays inside the project root and never passes through a symlink (except an
owned link that this same plan deletes first); files Orkestra did not write are never touched
(they are reported as conflicts), and owned files whose source is gone are deleted. The file
I/O itself (checks, temporary file, rename, stale temporary files) is `core.safewrite`'s.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from orkestra.core import safewrite
from orkestra.core.errors import ConflictError
from orkestra.core.safewrite import Guard, check_relative
from orkestra.render import manifest
from orkestra.render.plan import Output, RenderPlan

__all__ = ["apply", "check_relative", "plan"]


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
    before = Guard(root)  # a deletion must not reach through a symlinked folder either
    for path in gone:
        if before.parents(path) != "ok":
            continue
        with contextlib.suppress(OSError):  # already gone: nothing left to prune
            st = os.lstat(root / path)
            if stat.S_ISLNK(st.st_mode) or stat.S_ISREG(st.st_mode):
                result.deleted.append(path)
                if stat.S_ISLNK(st.st_mode):
                    removable.add(path)
    guard = Guard(root, removable)
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
    writes = sorted(p for p in [*result.created, *result.updated, *result.conflicts] if p)
    if not writes and not result.deleted:
        return 0
    safewrite.clean_stale(root, {str(Path(p).parent) for p in result.outputs})
    guard = Guard(root)
    for path in result.deleted:
        _delete(root, path, guard)
    guard.forget()  # deletions may have removed owned links and emptied folders
    # one batch: every file staged, fsynced together, then renamed (serial writes: threads made
    # the kernel contend on the journal, measured)
    with safewrite.Batch(root, guard=guard) as batch:
        for path in writes:
            if path != manifest.LOCK_PATH:
                _stage(batch, result.outputs[path])
    if manifest.LOCK_PATH in writes:  # last: a crash before this leaves the old ownership
        lock = result.outputs[manifest.LOCK_PATH]
        safewrite.write_file(root, lock.path, lock.data or b"", replace_link=True, guard=guard)
    return len(writes)


def _stage(batch: safewrite.Batch, out: Output) -> None:
    if out.link is not None:
        batch.link(out.path, out.link)
    else:
        mode = 0o755 if out.executable else 0o644
        batch.file(out.path, out.data or b"", mode=mode, replace_link=True)


def _delete(root: Path, path: str, guard: Guard) -> None:
    safewrite.remove_file(root, path, guard=guard)
    parent = (root / path).parent
    # remove folders emptied by pruning, but never the top-level folder (.claude) or the root
    while parent != root and parent.parent != root:
        try:
            parent.rmdir()
        except OSError:  # not empty (or gone): the folder is kept, as intended
            break
        parent = parent.parent
