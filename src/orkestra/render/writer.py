"""The writer: diff planned outputs against the disk, then write only what changed.

Safety: every path stays inside the project root and never passes through a symlink (except an
owned link that this same plan deletes first). Ownership is proven, not claimed: a file is
overwritten or deleted only when the lock lists it and its bytes still hash to the recorded
sha256; anything else that is in the way is a conflict (reported, untouched; `--force` takes it
over). Every precondition of the whole plan (conflicts, path types, permissions) is checked before
the first write; if the OS still fails mid-apply, the lock records what was done, so the next run
converges. Temporary files a killed run left in the output folders are planned as deletions (so
`--check` reports them). The file I/O itself is `core.safewrite`'s.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from orkestra.core import project, safewrite
from orkestra.core.errors import (
    ChangedOnDisk,
    ConflictError,
    OrkestraError,
    UnsafePathError,
    WriteFailed,
)
from orkestra.core.readfile import open_regular, special_kind
from orkestra.core.safewrite import Guard, check_relative
from orkestra.registry.cache import identity
from orkestra.registry.render_lock import (
    MARK_SCAN,
    TRUTHS_MARK,
    earlier_truths,
    mark_holder,
    mark_state,
    skill_link_path,
)
from orkestra.render import manifest, pending
from orkestra.render.manifest import Entry
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
    try:
        with open(full, "rb") as handle:  # noqa: PTH123
            return handle.read() == out.data
    except PermissionError:  # cannot tell: not proven either, and `_conflicts` names it unreadable
        return False


def _proven_same(
    path: str,
    st: os.stat_result,
    out: Output,
    owned: Mapping[str, Entry],
    proven: Mapping[str, tuple[list[int], str]] | None,
) -> bool:
    """True when `path` still has the identity a record proved, so it holds the bytes whose
    sha256 the proven lock records, and those are the rendered ones (a regular file, same
    executable bit)."""
    proof = proven.get(path) if proven else None
    entry = owned.get(path) if proof is not None else None
    return (
        entry is not None
        and proof is not None
        and entry.sha256 is not None
        and proof[1] == entry.sha256
        and out.link is None
        and out.data is not None
        and not out.shared
        and stat.S_ISREG(st.st_mode)
        and bool(st.st_mode & 0o100) == out.executable
        and proof[0] == identity(st)
        and manifest.digest(out.data) == entry.sha256
    )


def _proven(root: Path, path: str, owned: Mapping[str, Entry]) -> bool:
    """Listed in the lock, and the bytes on disk still hash to what was recorded."""
    entry = owned.get(path)
    return (
        entry is not None
        and entry.sha256 is not None
        and manifest.disk_digest(root, path) == entry.sha256
    )


def _authored(root: Path, path: str, entry: Entry, st: os.stat_result) -> bool | None:
    """Whether the owned file `path`, its source gone, is provably Orkestra's own: True when
    it (or, in a skill's folder, that folder's SKILL.md: `render_lock.mark_holder`) carries in
    its first lines the mark a file rendered there carries (`render_lock.proper_mark`: a copy
    saved under another name is no longer marked); an earlier ground-truths output
    (`render_lock.earlier_truths`) must start as the bundled template's do. A symlink, which
    has no text, only where sync makes one (a linked vendor skill, right in a skills folder),
    which never touches what it points to. None for a file that carries no mark, which only
    an Orkestra from before the mark may have written, or the user; False for any other.
    Neither is deleted: a lock entry with the right hash proves nothing more than that the
    file's bytes are known (a committed file's are; a lock passed off as one from before the
    mark is no more), so such a file is kept, and released from the lock."""
    if stat.S_ISLNK(st.st_mode):
        return skill_link_path(path)
    earlier = earlier_truths(path, entry)
    holder = path if earlier else mark_holder(path)
    head = _head(root, holder)
    if head is None:
        return False
    if earlier:
        return head.startswith(TRUTHS_MARK)
    return mark_state(head, holder, entry.target)


def _rewritable(root: Path, path: str, out: Output, there: os.stat_result) -> bool | None:
    """Whether the owned file `path` (listed, holding the recorded bytes) that a registry entry
    now renders to is Orkestra's to rewrite: True when it carries the mark a file rendered there
    carries (`render_lock.proper_mark`), or lies in a skill's folder (answered for by the skill,
    whose SKILL.md is checked in its own right); None when it carries no mark, which only an
    Orkestra from before the mark may have written (`_decide_unmarked`); False for any other
    (a copy of a generated file saved there: a conflict, `--force` takes it over). Where sync
    puts a link, only a link is replaced."""
    if out.link is not None:
        return stat.S_ISLNK(there.st_mode)
    if mark_holder(path) != path:
        return True
    head = _head(root, path)
    return False if head is None else mark_state(head, path, out.target)


def _head(root: Path, path: str) -> bytes | None:
    """The first `MARK_SCAN` bytes of `path` (never through a symlink), None when unreadable."""
    try:
        with open_regular(root / path, follow=False) as handle:
            return handle.read(MARK_SCAN)
    except OSError:
        return None


def _nested_project(root: Path, path: str) -> bool:
    """A folder between the project and `path` is the root of another project or repository
    (it holds its own `registries/orkestra.yaml` or `.git`: a package, a submodule, a vendored
    project): an earlier ground-truths output there is that project's, never pruned."""
    cut = path.find("/")
    while cut > 0:
        folder = root / path[:cut]
        if (folder / ".git").exists() or project.config_path(folder).exists():
            return True
        cut = path.find("/", cut + 1)
    return False


def plan(
    root: Path,
    outputs: Iterable[Output],
    owned: Mapping[str, Entry],
    targets: set[str],
    *,
    proven: Mapping[str, tuple[list[int], str]] | None = None,
    scanned: set[str] | None = None,
    vouched: Mapping[str, Any] | None = None,
    upgrading: frozenset[str] = frozenset(),
) -> RenderPlan:
    """Compare `outputs` with the disk. `owned` is the lock (entries inside their roots only);
    only `targets` are pruned. `proven` holds identities (size, mtime_ns, ctime_ns, inode,
    device) with the sha256 their bytes hash to: an output found with its proven identity, whose
    hash `owned` records too and the render gives, is unchanged without being read. Stale
    temporary files are looked for in `scanned` folders (default: those of every output and
    lock entry) and where a killed sync was writing, except in a folder `vouched` gives the
    identity of, as a record that found no temporary file there left it (`render.noop`), when
    it still has that identity: no name was added there since. `upgrading`: the targets whose
    files an earlier version wrote, not yet rewritten with the mark (`_decide_unmarked`)."""
    result = RenderPlan()
    result.outputs = {o.path: o for o in outputs}
    result.lock_before = dict(owned)
    gone = sorted(p for p, e in owned.items() if e.target in targets and p not in result.outputs)
    unmarked_now: list[str] = []  # owned, rendered again, no mark: rewritten only before marks
    removable: set[str] = set()
    before = Guard(root)  # a deletion must not reach through a symlinked folder either
    for path in gone:
        try:
            if before.parents(path) != "ok":
                continue
        except UnsafePathError:  # below a symlinked folder: refused, unless beyond the roots
            if earlier_truths(path, owned[path]):  # (`docs/` a link): never reached, forgotten
                continue
            raise
        with contextlib.suppress(OSError):  # already gone: nothing left to prune
            st = os.lstat(root / path)
            if not (stat.S_ISLNK(st.st_mode) or stat.S_ISREG(st.st_mode)):
                continue
            if earlier_truths(path, owned[path]) and _nested_project(root, path):
                continue  # another project's own (its sync may have rewritten it): forgotten
            if not _proven(root, path, owned):
                result.conflicts.append(path)  # edited since it was written: never deleted
                result.orphans.add(path)
                continue
            if not _authored(root, path, owned[path], st):  # no mark, or another's
                result.released.append(path)  # kept, and the lock forgets it
                continue
            result.deleted.append(path)
            result.expected[path] = owned[path].sha256
            if stat.S_ISLNK(st.st_mode):
                removable.add(path)
    guard = Guard(root, removable)
    base = str(root)
    for path in sorted(result.outputs):
        out = result.outputs[path]
        if out.remove:  # a shared file left empty: deleted only while it holds what was read
            _plan_removal(root, path, out, guard, result)
            continue
        state = guard.parents(path)
        if state == "gone":
            result.created.append(path)
            result.expected[path] = None
            continue
        if state != "ok":
            result.conflicts.append(path)
            continue
        full = f"{base}/{path}"
        there = _lstat(full, path.rpartition("/")[0] in guard.missing)
        if there is None:
            result.created.append(path)
            result.expected[path] = None if out.base in (None, "") else out.base
            continue
        if path in removable:
            result.updated.append(path)
            result.expected[path] = None  # the link is deleted first
        elif _proven_same(path, there, out, owned, proven) or _same(full, there, out):
            result.unchanged.append(path)
        elif stat.S_ISDIR(there.st_mode):
            emptied = out.link is not None and _emptied(root, path, set(result.deleted))
            (result.created if emptied else result.conflicts).append(path)
            if emptied:  # gone once its files are deleted: a file added there meanwhile stays
                result.expected[path] = None
        elif path == manifest.LOCK_PATH:
            result.updated.append(path)
            _seen(root, path, result.expected)  # committed: a checkout may change it meanwhile
        elif out.shared and out.conflict is not None:
            result.conflicts.append(path)
            _seen(root, path, result.expected)  # `--force` takes over these bytes, not a later edit
        elif out.shared:
            result.updated.append(path)
            seen = out.base if out.base is not None else manifest.disk_digest(root, path)
            result.expected[path] = seen or None
        elif (
            _proven(root, path, owned)
            and (ours := _rewritable(root, path, out, there)) is not False
        ):
            # None, no mark: decided once every output was looked at
            (result.updated if ours else unmarked_now).append(path)
            result.expected[path] = owned[path].sha256
        else:
            result.conflicts.append(path)
            _seen(root, path, result.expected)  # `--force` takes over these bytes, not a later edit
    result.released.sort()
    _decide_unmarked(result, upgrading, unmarked_now)
    if scanned is None:
        every = [*result.outputs, *owned]
        scanned = {p.rpartition("/")[0] for p in every if p != manifest.LOCK_PATH}
    result.scanned = set(scanned)
    # and where a killed sync was writing (its sources gone since), always
    killed = set(pending.folders(root))
    result.vouched = {f for f in scanned if f not in killed and _vouched(root, f, vouched)}
    folders = {*scanned, *killed} - result.vouched
    stale = safewrite.stale_temps(root, folders, guard=guard, clean=result.clean)
    result.clean |= result.vouched
    result.deleted = sorted([*result.deleted, *stale])
    result.conflicts.sort()
    return result


def _decide_unmarked(
    result: RenderPlan,
    upgrading: frozenset[str],
    now: list[str],
) -> None:
    """The owned files a registry entry renders to again that carry no mark. An Orkestra from
    before the mark wrote none, so in a target whose files it wrote and no sync with the mark
    has rewritten yet (`upgrading`: the lock's `unmarked_targets`, or every target of a lock
    from before the mark), they are its own, as before: rewritten. Anywhere else an unmarked
    file a lock entry names is someone else's: a conflict (`expected` holds its bytes: `--force`
    takes over those, not a later edit). One whose source is gone is never deleted, in any
    target (`_authored`: the lock, which anyone can edit, is all that would say an earlier
    Orkestra wrote it), so it is released with the others the plan cannot prove."""
    for path in now:
        (result.updated if result.outputs[path].target in upgrading else result.conflicts).append(
            path
        )
    result.updated.sort()


def _vouched(root: Path, folder: str, vouched: Mapping[str, Any] | None) -> bool:
    """True when `folder` is a folder (not a symlink) with the identity `vouched` gives it."""
    want = vouched.get(folder) if vouched and folder else None
    if want is None:
        return False
    try:
        st = os.lstat(f"{root}/{folder}")
    except (OSError, ValueError):
        return False
    return stat.S_ISDIR(st.st_mode) and identity(st) == want


def _lstat(full: str, folder_missing: bool) -> os.stat_result | None:
    """`full`'s lstat, None when it is not there (not looked up when its folder is not)."""
    if folder_missing:
        return None
    try:
        return os.lstat(full)
    except FileNotFoundError:
        return None


def _seen(root: Path, path: str, expected: dict[str, str | None]) -> None:
    """Record what `path` holds now as what the write must still find (unless unreadable)."""
    digest = manifest.disk_digest(root, path)
    if digest is not None:
        expected[path] = digest


def _plan_removal(root: Path, path: str, out: Output, guard: Guard, result: RenderPlan) -> None:
    """Delete `path` when it is a regular file (not through a symlink) whose bytes are still
    `out.data`; else leave it alone (it changed since it was read: the next sync looks again)."""
    if guard.parents(path) != "ok":
        return
    try:
        st = os.lstat(root / path)
        same = stat.S_ISREG(st.st_mode) and (root / path).read_bytes() == out.data
    except OSError:
        return
    if same:
        result.deleted.append(path)
        result.expected[path] = manifest.digest(out.data)


def _emptied(root: Path, folder: str, deleted: set[str]) -> bool:
    """True when every file below `folder` is an owned file this plan deletes."""
    for dirpath, _, files in os.walk(root / folder):
        rel = Path(dirpath).relative_to(root).as_posix()
        if any(f"{rel}/{name}" not in deleted for name in files):
            return False
    return True


def apply(root: Path, result: RenderPlan, *, force: bool = False) -> int:
    """Carry out a plan: check it whole, delete gone owned files, then write changed ones.

    Returns the number of files written. Nothing is written when a precondition fails; when the
    OS fails mid-apply the lock is rewritten to what was done and WriteFailed names the path.
    A refusal for conflicts ends with the plan's `blocking` (which target each one blocks).
    """
    if result.conflicts and not force:
        first = result.conflicts[0]
        message = _conflicts(root, result) + result.blocking
        raise ConflictError(message, file=_blocking(root, first) or first)
    # an orphan (edited by hand, its source gone) is never deleted: `--force` releases it from
    # the lock and leaves it on disk
    deletions = result.deleted
    writes = sorted(p for p in [*result.created, *result.updated, *result.conflicts] if p)
    writes = [p for p in writes if p not in result.orphans]
    if not writes and not deletions:
        return 0
    _preconditions(root, result, writes, deletions)
    try:
        _carry_out(root, result, writes, deletions)
    except OSError as exc:  # anything safewrite did not already name
        where = exc.filename if isinstance(exc.filename, str) else "the output tree"
        _record_partial(root, result)
        raise WriteFailed(f"cannot write '{where}': {exc.strerror or exc}", file=where) from exc
    except BaseException:  # an OrkestraError, or an interrupt (Ctrl-C) during the renames
        _record_partial(root, result)
        raise
    return len(writes)


def _carry_out(root: Path, result: RenderPlan, writes: list[str], deletions: list[str]) -> None:
    guard = Guard(root)
    # a skill folder's SKILL.md last: a killed run leaves it proving the rest Orkestra's
    for path in sorted(deletions, key=lambda p: (p.endswith("/SKILL.md"), p)):
        _unchanged(root, path, result.expected)
        _delete(root, path, guard)
    guard.forget()  # deletions may have removed owned links and emptied folders

    # one batch: every file staged (written and fsynced in threads, `safewrite.Batch`), then
    # renamed; each file is checked by content once more just before the renames, and by its
    # stat just before its own rename: one edited (or created) while sync ran is never
    # overwritten (the files renamed before it stay, and the lock says so: `_record_partial`)
    marks: dict[str, tuple[int, ...] | None] = {}

    def unchanged() -> None:
        for path in writes:
            mark = marks[path] = _mark(root, path)  # before the content: an edit after it shows
            if mark is not None or result.expected.get(path, "") is not None:
                _unchanged(root, path, result.expected)  # (absent where absence is expected)

    def still(path: str) -> None:
        """A stat that moved is looked at by content: a rename over a hard-linked twin moves
        this file's ctime, not its bytes."""
        if path in marks and _mark(root, path) != marks[path]:
            _unchanged(root, path, result.expected)

    # before the first temporary file: a sync killed from here on leaves this record, and the
    # next one looks there for its temporary files and adopts the files it renamed
    writing = {p: result.lock_after.get(p) for p in writes if p != manifest.LOCK_PATH}
    pending.record(root, result.expected.get(manifest.LOCK_PATH), result.lock_before, writing)

    with safewrite.Batch(root, guard=guard, check=unchanged, check_each=still) as batch:
        for path in writes:
            if path != manifest.LOCK_PATH:
                _stage(batch, result.outputs[path])
    if manifest.LOCK_PATH in writes:  # last: a crash before this leaves the old ownership
        lock = result.outputs[manifest.LOCK_PATH]
        safewrite.write_file(root, lock.path, lock.data or b"", replace_link=True, guard=guard)
    pending.clear(root)


def _mark(root: Path, path: str) -> tuple[int, ...] | None:
    """What `path` is by its stat (type and mode, size, times, inode), None when absent: any
    write, replacement or `touch` changes it."""
    try:
        st = os.lstat(f"{root}/{path}")
    except (OSError, ValueError):
        return None
    return (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def _unchanged(root: Path, path: str, expected: Mapping[str, str | None]) -> None:
    """ChangedOnDisk unless `path` still holds what the plan read there (None: nothing at all,
    not even a folder or a link); a path the plan expects nothing of is not checked."""
    if path not in expected:
        return
    want = expected[path]
    if os.path.lexists(root / path) if want is None else manifest.disk_digest(root, path) != want:
        raise ChangedOnDisk(
            f"'{path}' changed on disk while sync ran; nothing more was written, run "
            "`orkestra sync` again",
            file=path,
        )


def _preconditions(root: Path, result: RenderPlan, writes: list[str], deletions: list[str]) -> None:
    """Refuse the whole plan before the first write: a file where a folder is needed, a folder
    where a file goes, a file with another hard link, a folder that cannot be written."""
    links = {p for p in deletions if os.path.islink(root / p)}  # noqa: PTH114
    guard = Guard(root, links)
    for path in writes:
        safewrite.check_target(root, path, guard=guard, replace_link=True)  # blocked: conflict
        full = root / path
        there = _lstat(str(full), folder_missing=False)
        special = there is not None and path in result.conflicts and special_kind(there.st_mode)
        if special:  # `--force` takes over a file, never a FIFO, a socket or a device
            raise ConflictError(_special(path, special), file=path)
        safewrite.check_single(path, there)
        if path in result.conflicts and full.is_dir() and not full.is_symlink():
            raise ConflictError(
                f"'{path}' is a folder where Orkestra writes a file; move it away "
                "(`--force` takes over files, never folders)",
                file=path,
            )
    nearest: dict[str, str] = {}
    writable: dict[str, bool] = {}
    for path in [*writes, *deletions]:
        folder = _nearest_folder(str(root), path.rpartition("/")[0], nearest)
        if folder not in writable:
            writable[folder] = os.access(f"{root}/{folder}" if folder else root, os.W_OK | os.X_OK)
        if not writable[folder]:
            shown = folder or "."
            why = _not_writable(f"{root}/{folder}" if folder else str(root))
            raise WriteFailed(
                f"cannot write '{path}': folder '{shown}' {why}; nothing was written",
                file=shown,
            )


def _not_writable(folder: str) -> str:
    """Why a folder `os.access` finds not writable is not (an error path)."""
    if safewrite.read_only_fs(folder):
        return "is on a read-only file system (mount it read-write, or sync a writable copy)"
    return "is not writable (permission denied)"


def _nearest_folder(root: str, folder: str, known: dict[str, str]) -> str:
    """The deepest existing folder from `folder` up (relative; "" for the root), memoised in
    `known` (a sync writes thousands of files into a few hundred folders)."""
    if not folder:
        return ""
    found = known.get(folder)
    if found is None:
        is_dir = os.path.isdir(f"{root}/{folder}")  # noqa: PTH112
        found = known[folder] = (
            folder if is_dir else _nearest_folder(root, folder.rpartition("/")[0], known)
        )
    return found


def _record_partial(root: Path, result: RenderPlan) -> None:
    """After a failure mid-apply: write the lock as the disk now is (each file the new entry if
    its bytes are the new ones, the old entry if it is still there, no entry if it is gone)."""
    if manifest.LOCK_PATH not in result.outputs:
        return
    try:  # a lock changed since the plan (a checkout) is not overwritten either
        _unchanged(root, manifest.LOCK_PATH, result.expected)
    except ChangedOnDisk:
        return
    before, after = result.lock_before, result.lock_after
    partial: dict[str, Entry] = {}
    for path in sorted({*before, *after}):
        new, old = after.get(path), before.get(path)
        if new is not None and new == old:
            partial[path] = new
            continue
        on_disk = manifest.disk_digest(root, path)
        if new is not None and on_disk == new.sha256:
            partial[path] = new
        elif old is not None and on_disk is not None:
            partial[path] = old
    # the upgrade's list as it was: the files not renamed yet still wait for their mark
    data = manifest.dumps(partial, _servers_on_disk(root, result), result.unmarked_before)
    with contextlib.suppress(OrkestraError, OSError):  # a full disk may refuse this too
        safewrite.write_file(root, manifest.LOCK_PATH, data, replace_link=True)
        pending.clear(root)  # the lock says it all now (when it could not be written: not)


def _servers_on_disk(root: Path, result: RenderPlan) -> dict[str, dict[str, str]]:
    """After a failure mid-apply, the MCP server entries each config file holds: the new ones
    where its new bytes were written (or it needed none), else those the lock held before.
    Recording a new entry the file does not hold would make it look edited by the user."""
    out: dict[str, dict[str, str]] = {}
    for path in sorted({*result.servers_before, *result.lock_servers}):
        planned = result.outputs.get(path)
        written = (
            planned is None
            or planned.data is None
            or path not in result.expected
            or (manifest.disk_digest(root, path) == manifest.digest(planned.data))
        )
        chosen = (result.lock_servers if written else result.servers_before).get(path)
        if chosen:
            out[path] = chosen
    return out


def _conflicts(root: Path, result: RenderPlan) -> str:
    """What stops the write: files Orkestra did not write (or that were edited since), files it
    cannot read to tell, and the shared files whose merge would replace an entry of the user's,
    each with its reason."""
    reasons = {
        p: o.conflict for p in result.conflicts if (o := result.outputs.get(p)) and o.conflict
    }
    unreadable = [p for p in result.conflicts if p not in reasons and _unreadable(root, p)]
    blocked: dict[str, list[str]] = {}  # a file (or FIFO, ...) where a folder is needed
    for path in result.conflicts:
        if path not in reasons and (where := _blocking(root, path)) is not None:
            blocked.setdefault(where, []).append(path)
    inside = {p for paths in blocked.values() for p in paths}
    special = {p: k for p in result.conflicts if p not in reasons and (k := _special_at(root, p))}
    files = [
        p
        for p in result.conflicts
        if p not in reasons and p not in unreadable and p not in inside and p not in special
    ]
    parts = list(reasons.values())  # each names its file
    parts[:0] = [_special(path, kind) for path, kind in special.items()]
    for where, paths in sorted(blocked.items(), reverse=True):
        parts.insert(0, f"'{where}' is not a folder, but a folder is needed there to write "
                     f"{_some(paths)}; move it away and run `orkestra sync` again")  # fmt: skip
    if unreadable:
        parts.insert(0, f"{len(unreadable)} file(s) cannot be read (permission denied), so "
                     f"whether Orkestra wrote them is unknown: {_some(unreadable)}; give them "
                     "read permission (chmod u+r) and run `orkestra sync` again")  # fmt: skip
    if files:
        parts.insert(0, f"{len(files)} file(s) exist that Orkestra did not write (or that were "
                     "edited since it wrote them, or that carry no `Generated by orkestra sync` "
                     f"mark): {_some(files)}; move them away (or run "
                     "`orkestra sync --force` to take them over)")  # fmt: skip
    return "; ".join(parts)


def _special_at(root: Path, path: str) -> str | None:
    """What `path` is when it is a FIFO, a socket or a device (`readfile.special_kind`)."""
    try:
        return special_kind(os.lstat(f"{root}/{path}").st_mode)
    except (OSError, ValueError):
        return None


def _special(path: str, kind: str) -> str:
    return (
        f"'{path}' is {kind}, not a file, where Orkestra writes a file; remove it (`rm {path}`) "
        "and run `orkestra sync` again (`--force` takes over files, never FIFOs, sockets or "
        "devices); nothing was written"
    )


def _blocking(root: Path, path: str) -> str | None:
    """The first folder of `path` that is there but is no folder (a file, a FIFO), else None."""
    parts = path.split("/")[:-1]
    for depth in range(1, len(parts) + 1):
        folder = "/".join(parts[:depth])
        try:
            st = os.lstat(f"{root}/{folder}")
        except (OSError, ValueError):
            return None
        if not stat.S_ISDIR(st.st_mode):
            return folder
    return None


def _some(paths: list[str]) -> str:
    """The first five of `paths`, and how many more."""
    more = f" and {len(paths) - 5} more" if len(paths) > 5 else ""
    return ", ".join(paths[:5]) + more


def _unreadable(root: Path, path: str) -> bool:
    """True when `path` is there but opening it is refused (an error path: costs nothing)."""
    try:
        with open_regular(f"{root}/{path}", follow=False):
            return False
    except PermissionError:
        return True
    except (OSError, ValueError):
        return False


def _stage(batch: safewrite.Batch, out: Output) -> None:
    if out.link is not None:
        batch.link(out.path, out.link)
    else:  # the file's own mode is kept (§13), its execute bits the render's
        batch.file(out.path, out.data or b"", executable=out.executable, replace_link=True)


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
