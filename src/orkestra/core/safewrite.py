"""The one safe writer: every project file a command writes or deletes goes through here.

A path must stay inside the project root (no absolute path elsewhere, no `..`), no folder on its
way below the root may be a symlink, and an existing symlink at the path itself is refused (it
would be read or replaced in the user's place). Data goes to a temporary file in the same folder
(`.<name>.orkestra-<pid>-<n>.tmp`), is fsynced, then renamed over the target with `os.replace`,
so a reader sees the old file or the new one, never half of it; an existing file keeps its mode.
A file with other hard links is refused (`check_single`): the rename would give this name the new
bytes and leave every other name holding the old ones, silently.
A file that must not exist yet (`expected_old=None`) gets its name with a hard link instead, which
fails when anything took the name meanwhile (of two runs creating one file, one wins).
Temporary files left by a killed run are recognised by that name and removed by `clean_stale`.
Standard library only: the hooks use it too.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import re
import stat
import time
from collections.abc import Callable, Iterable
from pathlib import Path, PurePath

from orkestra.core.errors import ChangedOnDisk, ConflictError, UnsafePathError, WriteFailed

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: the hook path never imports typing
if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor
    from typing import Final, NoReturn

#: the temporary-file name of a write in progress: `.<name>.orkestra-<pid>-<n>.tmp`
TEMP_RE: Final = re.compile(r"^\..*\.orkestra-(?P<pid>\d+)-\d+\.tmp$")
#: a temporary file older than this is stale even when its pid belongs to a live process
STALE_SECONDS: Final = 24 * 3600
_NAME_ROOM: Final = 200  # keep the temporary name under NAME_MAX for long file names
_counter = itertools.count()
_POOL_FROM: Final = 16  # a batch's files from this one on are written in threads
#: threads writing one batch, each file created, written and fsynced by one of them while the
#: caller stages the next: more in flight lets the file system commit more of them at once, and
#: the system calls run beside the caller's Python code (6,000 small files in 5,000 new folders
#: on this machine: staged in turn and then fsynced in 16 threads 1.07-1.59 s; written and
#: fsynced in 16 threads as staged 0.90-1.13 s, 32 threads 0.90-0.93 s, 4 threads 1.46 s;
#: benchmarks/bench_sync.py's floor uses the same number)
FSYNC_THREADS: Final = 32


class _Unset:
    """Marker: no expected-old-content check."""


UNSET: Final = _Unset()


def check_relative(rel: str) -> None:
    """Reject a relative path that is empty, absolute, climbs out with `..`, or is otherwise odd."""
    parts = rel.split("/")
    if (
        not rel
        or rel.startswith("/")
        or "\\" in rel
        or "\x00" in rel
        or any(p in ("", ".", "..") for p in parts)
    ):
        raise UnsafePathError(f"refusing to write '{rel}': not a plain path inside the project")


def relative(root: Path, path: Path | str) -> str:
    """`path` (relative to `root`, or absolute below it) as a checked relative POSIX path."""
    if isinstance(path, str) and not path.startswith("/"):
        check_relative(path)  # as given: "a//b" or "./a" are odd, not silently normalised
        return path
    pure = PurePath(path)
    if pure.is_absolute():
        if pure.is_relative_to(root):  # the usual case: no resolve() (a syscall per part)
            pure = pure.relative_to(root)
        elif pure.is_relative_to(real := root.resolve()):
            pure = pure.relative_to(real)
        else:
            raise UnsafePathError(
                f"refusing to write '{path}': it is outside the project {root}", file=str(path)
            )
    rel = pure.as_posix()
    check_relative(rel)
    return rel


class Guard:
    """Checks that the folders leading to a path are real folders (or not there yet).

    Memoised: a writer with many files lstat()s each folder once. `removable_links` are owned
    symlinks the caller deletes before writing, so a path below one is reported as 'gone'.
    """

    def __init__(self, root: Path, removable_links: Iterable[str] = ()) -> None:
        self.root = str(root)
        self.removable = set(removable_links)
        self.seen: dict[str, str] = {}
        #: folders found not there (nor anything below them: not looked up)
        self.missing: set[str] = set()

    def parents(self, rel: str) -> str:
        """'ok'; 'gone' below a removable link; 'blocked' when a file sits where a folder is
        needed. A symlinked folder raises UnsafePathError."""
        check_relative(rel)
        parts = rel.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folder = "/".join(parts[:depth])
            state = self.seen.get(folder)
            if state is None:
                state = self.seen[folder] = self._state(folder)
            if state != "ok":
                return state
        return "ok"

    def forget(self) -> None:
        """Drop what was seen (after deletions changed the tree)."""
        self.seen.clear()
        self.missing.clear()

    def _state(self, folder: str) -> str:
        if folder.rpartition("/")[0] in self.missing:  # below a folder that is not there
            self.missing.add(folder)
            return "ok"
        try:
            st = os.lstat(f"{self.root}/{folder}")
        except FileNotFoundError:
            self.missing.add(folder)
            return "ok"
        if stat.S_ISLNK(st.st_mode):
            if folder in self.removable:
                return "gone"
            raise UnsafePathError(
                f"refusing to write below '{folder}': it is a symlink, and Orkestra never writes "
                "through a symlink (it could lead outside the project); replace it with a folder",
                file=folder,
            )
        return "ok" if stat.S_ISDIR(st.st_mode) else "blocked"


def check_target(
    root: Path, path: Path | str, *, guard: Guard | None = None, replace_link: bool = False
) -> str:
    """Every check `write_file` makes before writing, without writing; returns the relative path.

    Multi-file writers call it for every path first, so a refusal leaves nothing half-written.
    """
    rel = relative(root, path)
    guard = guard or Guard(root)
    state = guard.parents(rel)
    if state == "blocked":
        folders = itertools.accumulate(rel.split("/")[:-1], lambda a, b: f"{a}/{b}")
        folder = next(f for f in folders if guard.seen.get(f) == "blocked")
        raise ConflictError(
            f"'{folder}' is a file where a folder is needed to write '{rel}'; move it away",
            file=folder,
        )
    if not replace_link and state == "ok" and os.path.islink(f"{root}/{rel}"):  # noqa: PTH114
        raise UnsafePathError(
            f"refusing to rewrite '{rel}': it is a symlink, and Orkestra never writes through "
            "a symlink; replace it with a file",
            file=rel,
        )
    return rel


def check_single(rel: str, current: os.stat_result | None) -> None:
    """ConflictError when `current` (the lstat of the file at `rel`) is a regular file with
    another hard link: replacing it by a rename would split the link, the other name silently
    keeping the old bytes; the user decides which name is the file."""
    if current is None or current.st_nlink <= 1 or not stat.S_ISREG(current.st_mode):
        return
    others = current.st_nlink - 1
    raise ConflictError(
        f"refusing to rewrite '{rel}': it has {others} other hard link(s), and Orkestra writes "
        "a file by renaming a new one over it, which would leave the other name(s) holding the "
        f"old text; make '{rel}' a file of its own (`cp {rel} {rel}.copy && mv {rel}.copy "
        f"{rel}`) and, to keep both names in step, make the other name a symlink to it; "
        "nothing was written",
        file=rel,
    )


def write_file(
    root: Path,
    path: Path | str,
    data: bytes | str,
    *,
    expected_old: bytes | _Unset | None = UNSET,
    mode: int | None = None,
    executable: bool | None = None,
    replace_link: bool = False,
    durable: bool = True,
    guard: Guard | None = None,
) -> Path:
    """Write `data` (str is UTF-8) to `path` inside `root` atomically; return the full path.

    `mode` defaults to the existing file's mode, else 0o644; with `executable`, that mode's
    execute bits follow it (`_mode`). With `expected_old` the file must still hold those bytes
    (None: must not exist) or ChangedOnDisk is raised and nothing written.
    `replace_link` lets an owned symlink at the path be replaced (never followed). `durable=False`
    skips the fsync (derived caches that are rebuilt if lost); such a write also removes, once a
    process, the temporary files killed runs left in its folder (`.orkestra/`'s folders, which
    no sync plan lists).
    """
    rel = check_target(root, path, guard=guard, replace_link=replace_link)
    full = f"{root}/{rel}"
    payload = data.encode("utf-8") if isinstance(data, str) else data
    current = _lstat(full)
    if durable:  # a derived cache (`durable=False`) is Orkestra's alone: a split link is no loss
        check_single(rel, current)
    if not isinstance(expected_old, _Unset):
        _expect(full, rel, current, expected_old)
    chosen = _mode(current, mode, executable)
    _replace(
        full,
        rel,
        lambda tmp: _fill(tmp, payload, chosen, durable),
        root,
        create=expected_old is None,
    )
    if not durable:
        _sweep(root, rel)
    return Path(full)


#: the folders (full paths) a derived write has swept in this process
_swept: set[str] = set()


def _sweep(root: Path, rel: str) -> None:
    """Remove the stale temporary files in `rel`'s folder, the first time this process writes
    derived data there (a failure to list or remove is no error: the next run tries again)."""
    folder = rel.rpartition("/")[0]
    key = f"{root}/{folder}"
    if key not in _swept:
        _swept.add(key)
        with contextlib.suppress(OSError):
            clean_stale(root, [folder])


def write_link(root: Path, path: Path | str, target: str, *, guard: Guard | None = None) -> Path:
    """Create (or replace) the symlink `path` -> `target` atomically; `path` itself may be an
    owned link or file, which is replaced, never followed."""
    rel = check_target(root, path, guard=guard, replace_link=True)
    full = f"{root}/{rel}"
    _replace(full, rel, lambda tmp: os.symlink(target, tmp), root)  # noqa: PTH211
    return Path(full)


class Batch:
    """Many files written together, as fast as the disk allows and still durable.

    Each file goes to its temporary file first (same checks as `write_file`); from the
    `_POOL_FROM`th on, threads create, write and fsync them while the caller stages the next (so
    the file system commits many together); on `commit` every write is waited for, the first
    few files are fsynced, and only then is each renamed, in staging order. `check`, when given,
    runs just before the first rename: raising there (a target changed since it was read)
    discards everything. `check_each`, when given, runs with each file's relative path just
    before its own rename: raising there keeps the files renamed so far and discards the rest
    (a target changed while the others were renamed). A file staged with `expected_old` must
    still hold those bytes (None: must not exist) just before the first rename, as `write_file`
    checks. A failure before the renames leaves every target untouched, and temporary files never stay behind. Use as a context
    manager: commit on success, discard on error.
    """

    def __init__(
        self,
        root: Path,
        *,
        guard: Guard | None = None,
        check: Callable[[], None] | None = None,
        check_each: Callable[[str], None] | None = None,
    ) -> None:
        self.root = root
        self.check = check
        self.check_each = check_each
        self.guard = guard or Guard(root)
        self.staged: list[tuple[str, str, str, bool]] = []  # tmp, full, rel, regular file
        #: the files written (and fsynced) in threads: temporary file -> its write
        self.writing: dict[str, Future[None]] = {}
        self.pool: ThreadPoolExecutor | None = None
        self.folders: set[str] = set()  # folders this batch made or found
        self.made: list[str] = []  # folders this batch made, parents first (`discard`)
        #: the bytes a staged file must still hold (None: must not exist): full, rel, bytes
        self.expected: list[tuple[str, str, bytes | None]] = []

    def file(
        self, path: Path | str, data: bytes | str, *, mode: int | None = None,
        executable: bool | None = None, replace_link: bool = False,
        expected_old: bytes | _Unset | None = UNSET,
    ) -> None:  # fmt: skip
        """Stage a file (see `write_file` for `mode`, `executable`, `replace_link` and
        `expected_old`). From the `_POOL_FROM`th file on, a thread creates, writes and fsyncs it
        while the caller goes on."""
        rel = check_target(self.root, path, guard=self.guard, replace_link=replace_link)
        full = f"{self.root}/{rel}"
        if not isinstance(expected_old, _Unset):
            self.expected.append((full, rel, expected_old))
        payload = data.encode("utf-8") if isinstance(data, str) else data
        current = _lstat(full)
        check_single(rel, current)  # before any rename: the batch is discarded whole
        chosen = mode if mode is not None else _mode(current, None, executable)
        if len(self.staged) + 1 < _POOL_FROM:
            self._folder(full, rel)
            tmp = _stage(full, rel, lambda t: _fill(t, payload, chosen, durable=False))
            self.staged.append((tmp, full, rel, True))
        else:
            self._submit(full, rel, payload, chosen)

    def _submit(self, full: str, rel: str, payload: bytes, mode: int) -> None:
        """The temporary file for `full`, written and fsynced in a thread; its folder is made
        here first, in the caller's order (a failure names `rel` at once)."""
        tmp = self._folder(full, rel)
        if self.pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self.pool = ThreadPoolExecutor(FSYNC_THREADS)
        self.staged.append((tmp, full, rel, True))  # first: `discard` removes it whatever comes
        self.writing[tmp] = self.pool.submit(_fill, tmp, payload, mode, True)

    def _folder(self, full: str, rel: str) -> str:
        """Make the folder of `full` unless this batch knows it (one mkdir when its parent is
        known; a file there fails the write, named); the folders made are listed, for `discard`
        to remove again. Returns the temporary name for `full`."""
        folder = full.rpartition("/")[0]
        tmp = _temp_name(full)
        if folder in self.folders:
            return tmp
        try:
            if folder.rpartition("/")[0] in self.folders:
                try:
                    os.mkdir(folder)  # noqa: PTH102
                    self.made.append(folder)
                except FileExistsError:
                    pass
            else:
                missing, at = [], folder
                while at and at != str(self.root) and not os.path.lexists(at):
                    missing.append(at)
                    at = at.rpartition("/")[0]
                os.makedirs(folder, exist_ok=True)  # noqa: PTH103
                self.made += reversed(missing)
        except BaseException as exc:
            _failed(tmp, rel, exc)
        self.folders.update((folder, folder.rpartition("/")[0]))  # and its parent
        return tmp

    def link(self, path: Path | str, target: str) -> None:
        """Stage a symlink `path` -> `target` (an owned link or file there is replaced)."""
        rel = check_target(self.root, path, guard=self.guard, replace_link=True)
        full = f"{self.root}/{rel}"
        tmp = _stage(full, rel, lambda t: os.symlink(target, t))  # noqa: PTH211
        self.staged.append((tmp, full, rel, False))

    def commit(self) -> None:
        """Wait for every file written in threads, fsync the others, then rename each over its
        target, in staging order. On any failure or interrupt before a file is renamed, that
        file and every later one is discarded (one try around it all: a Ctrl-C between two
        steps is caught too)."""
        done = 0  # files renamed: the rest is discarded on any failure
        try:
            try:
                self._written()
                _fsync_all(
                    [t for t, _, _, regular in self.staged if regular and t not in self.writing]
                )
            except OSError as exc:
                raise self._write_failed(exc) from exc
            self._recheck()
            for full, rel, old in self.expected:
                _expect(full, rel, _lstat(full), old)
            if self.check is not None:
                self.check()
            for tmp, full, rel, _ in self.staged:
                if self.check_each is not None:
                    self.check_each(rel)
                _rename(tmp, full, rel)
                done += 1
        except BaseException:
            self.staged = self.staged[done:]
            self.discard()
            raise
        self.staged = []

    def _write_failed(self, exc: OSError) -> WriteFailed:
        """A failed write or fsync as the error naming its file (before the batch is discarded)."""
        count = len(self.staged)
        failed = next((r for t, _, r, _ in self.staged if t == getattr(exc, "filename", "")), "")
        reason = exc.strerror or exc
        where = f"'{failed}' (one of {count} file(s))" if failed else f"{count} file(s)"
        return WriteFailed(f"cannot write {where}: {reason}", file=failed or None)

    def _recheck(self) -> None:
        """The folders of every staged file checked again, uncached (one lstat per folder): the
        plan checked them long before, and one swapped for a symlink since then by another
        process would receive the files staged through it (`commit` discards everything)."""
        guard = Guard(self.root)
        for _, _, rel, _ in self.staged:
            guard.parents(rel)

    def _written(self) -> None:
        """Wait for the writes in threads; the first failure is raised (as an OSError naming its
        temporary file) once every write has ended."""
        first: BaseException | None = None
        for tmp, write in self.writing.items():
            exc = write.exception()
            if exc is not None and first is None:
                first = OSError(exc.errno, exc.strerror, tmp) if isinstance(exc, OSError) else exc
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None
        if first is not None:
            raise first

    def _stop_writing(self) -> BaseException | None:
        """Cancel the writes not begun and wait for the others to end, even through an interrupt
        (a Ctrl-C, a second one): returned once no thread can make a file any more."""
        pool, self.pool = self.pool, None
        interrupted: BaseException | None = None
        for _ in range(1000):  # bounded, though each retry only waits for threads already ending
            if pool is None:
                break
            try:
                pool.shutdown(wait=True, cancel_futures=True)
                break
            except BaseException as exc:
                interrupted = interrupted or exc
        return interrupted

    def discard(self) -> None:
        """Remove every staged temporary file once no thread writes any (an interrupt meanwhile
        is raised after that), then the folders the batch made that are left empty; no target
        is touched."""
        interrupted = self._stop_writing()
        staged, self.staged, self.writing = self.staged, [], {}
        made, self.made = self.made, []
        steps = [(os.unlink, t[0]) for t in staged] + [(os.rmdir, f) for f in reversed(made)]
        done = 0
        for _ in range(1000):  # bounded; a second Ctrl-C must not leave the rest behind
            try:
                while done < len(steps):
                    act, path = steps[done]
                    with contextlib.suppress(OSError):  # gone already, or a folder not empty
                        act(path)
                    done += 1
                break
            except BaseException as exc:
                interrupted = interrupted or exc
        if interrupted is not None:
            raise interrupted

    def __enter__(self) -> Batch:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def _fsync_all(paths: list[str]) -> None:
    if len(paths) < _POOL_FROM:
        for path in paths:
            _fsync(path)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(FSYNC_THREADS) as pool:
        list(pool.map(_fsync, paths))


def _fsync(path: str) -> None:
    fd = os.open(path, os.O_RDWR if os.name == "nt" else os.O_RDONLY)  # Windows needs write access
    try:
        os.fsync(fd)
    except OSError as exc:  # name the file: a full disk often shows only here
        raise OSError(exc.errno, exc.strerror, path) from exc
    finally:
        os.close(fd)


def read_only_fs(folder: Path | str) -> bool:
    """True when `folder` lies on a file system mounted read-only (what to tell the user when
    it cannot be written: not "permission denied"); False where that cannot be asked."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # AttributeError: no statvfs (Windows)
        return False


def remove_file(root: Path, path: Path | str, *, guard: Guard | None = None) -> bool:
    """Delete the file (or symlink, never its target) at `path`; False when it was not there."""
    rel = relative(root, path)
    if (guard or Guard(root)).parents(rel) != "ok":
        return False
    try:
        os.unlink(f"{root}/{rel}")  # noqa: PTH108
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise WriteFailed(f"cannot delete '{rel}': {exc.strerror or exc}", file=rel) from exc
    return True


def clean_stale(root: Path, folders: Iterable[Path | str]) -> list[str]:
    """Remove temporary files that killed runs left in `folders` (below `root`); return them."""
    removed = []
    for rel in stale_temps(root, folders):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{root}/{rel}")  # noqa: PTH108
            removed.append(rel)
    return removed


def stale_temps(
    root: Path,
    folders: Iterable[Path | str],
    *,
    guard: Guard | None = None,
    clean: set[str] | None = None,
) -> list[str]:
    """Temporary files that killed runs left in `folders` (relative paths, sorted); a temporary
    file of a live process is not stale until it is a day old. `guard` may be one the caller
    already asked about these folders (a folder it found missing is not looked at again).
    `clean`, when given, receives each folder listed that held no temporary file at all."""
    found: list[str] = []
    now = time.time()
    guard = guard or Guard(root)
    roots = (root, root.resolve())  # resolved once: a sync passes one folder per skill
    for folder in sorted({_folder(roots, f) for f in folders}):
        base = f"{root}/{folder}" if folder else str(root)
        try:  # only real folders inside the project: never through a symlink
            if folder and (guard.parents(f"{folder}/x") != "ok" or folder in guard.missing):
                continue
            if not folder and os.path.islink(base):  # noqa: PTH114
                continue
            with os.scandir(base) as entries:  # listed by path: the no-op record traces it
                names, held = _stale_names(entries, now)
        except (OSError, UnsafePathError):
            continue
        if clean is not None and not held:
            clean.add(folder)
        found += (f"{folder}/{name}" if folder else name for name in names)
    return sorted(found)


def holds_temporary(folder: str) -> bool:
    """True when `folder` holds a write's temporary file, stale or not (False when it cannot
    be listed)."""
    try:
        with os.scandir(folder) as entries:
            return _stale_names(entries, time.time())[1]
    except (OSError, ValueError):  # ValueError: a NUL in the path
        return False


def _stale_names(entries: Iterable[os.DirEntry[str]], now: float) -> tuple[list[str], bool]:
    """(the stale temporary files among `entries`, whether any name there is a temporary
    file's: what `holds_temporary` answers)."""
    names, held = [], False
    for entry in entries:
        match = TEMP_RE.match(entry.name) if entry.name.startswith(".") else None
        if match is None:
            continue
        held = True
        if entry.is_dir(follow_symlinks=False):
            continue
        if _stale(int(match.group("pid")), entry, now):
            names.append(entry.name)
    return names, held


def _folder(roots: tuple[Path, Path], folder: Path | str) -> str:
    """A folder below the root (`roots`: as given, resolved) as a relative path; "" for the
    root itself."""
    if isinstance(folder, str) and not folder.startswith("/"):  # the usual case: no PurePath
        return "" if folder in ("", ".") else relative(roots[0], folder)
    if str(folder) in ("", ".") or PurePath(folder) in roots:
        return ""
    return relative(roots[0], folder)


#: when this process began writing (about): a temporary file with its pid made before is not its
_STARTED = time.time()


def _stale(pid: int, entry: os.DirEntry[str], now: float) -> bool:
    try:
        age = now - entry.stat(follow_symlinks=False).st_mtime
    except OSError:
        return False
    if age > STALE_SECONDS:
        return True
    if pid == os.getpid():  # ours, unless made before this process began (a container's pid 1)
        return now - age < _STARTED - 1.0  # a tick's lag of file times is well inside the second
    if os.name == "nt":  # no safe liveness probe on Windows: age only
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def _mode(current: os.stat_result | None, mode: int | None, executable: bool | None = None) -> int:
    """`mode` if given, else the existing regular file's mode (a 0600 file holding a secret
    stays 0600), else 0o644. With `executable` (a rendered script, or a file that is not one)
    the execute bits follow it: added where the file is readable, or all removed; a new file
    is then 0o755 or 0o644."""
    if mode is not None:
        return mode
    if current is None or not stat.S_ISREG(current.st_mode):
        return 0o755 if executable else 0o644
    kept = stat.S_IMODE(current.st_mode)
    if executable is None:
        return kept
    return kept | 0o100 | (kept & 0o044) >> 2 if executable else kept & ~0o111


def _lstat(full: str) -> os.stat_result | None:
    try:
        return os.lstat(full)
    except FileNotFoundError:
        return None


def _expect(full: str, rel: str, current: os.stat_result | None, expected: bytes | None) -> None:
    special = current is not None and stat.S_IFMT(current.st_mode) not in (
        stat.S_IFREG,
        stat.S_IFLNK,
    )
    if special:
        raise ConflictError(
            f"'{rel}' is not a regular file (a FIFO, device, socket or folder); move it away",
            file=rel,
        )
    if current is None:
        same = expected is None
    elif expected is None or not stat.S_ISREG(current.st_mode):
        same = False
    else:
        with open(full, "rb") as handle:  # noqa: PTH123
            same = handle.read() == expected
    if not same:
        raise ChangedOnDisk(
            f"'{rel}' changed on disk since it was read; nothing was written, run the command again",
            file=rel,
        )


def _temp_name(full: str) -> str:
    folder, _, name = full.rpartition("/")
    return f"{folder}/.{name[:_NAME_ROOM]}.orkestra-{os.getpid()}-{next(_counter)}.tmp"


def _replace(
    full: str, rel: str, make: Callable[[str], None], root: Path, *, create: bool = False
) -> None:
    """Make the temporary file with `make(tmp)`, then rename it over `full`; clean up on failure.
    `create`: `full` must not exist, checked in the same step that puts the file there (`_link`).

    The folders are checked again, uncached, once the temporary file exists: one swapped for a
    symlink since `check_target` (by another process) would otherwise receive the file.
    """
    tmp = _stage(full, rel, make)
    try:
        Guard(root).parents(rel)
    except UnsafePathError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)  # noqa: PTH108 - it lies wherever the symlink points: remove it there
        raise
    if not create or not _link(tmp, full, rel):
        _rename(tmp, full, rel)


def _link(tmp: str, full: str, rel: str) -> bool:
    """Give the finished temporary file its name only if that name is free: a hard link fails
    when anything exists there, so of two processes creating one file only one succeeds and the
    other's data is never replaced behind its back (ChangedOnDisk). False (the caller renames
    instead, after one more check) where the file system has no hard links."""
    try:
        os.link(tmp, full)
    except FileExistsError:
        _failed(tmp, rel, _appeared(rel))
    except OSError as exc:
        if exc.errno not in _NO_LINKS:
            _failed(tmp, rel, exc)
        if os.path.lexists(full):
            _failed(tmp, rel, _appeared(rel))
        return False
    with contextlib.suppress(OSError):
        os.unlink(tmp)  # noqa: PTH108
    return True


#: errors of `os.link` on a file system without hard links (FAT, some network shares)
_NO_LINKS: Final = frozenset(
    getattr(errno, name)
    for name in ("EPERM", "ENOTSUP", "EOPNOTSUPP", "EXDEV", "EMLINK")
    if hasattr(errno, name)
)


def _appeared(rel: str) -> ChangedOnDisk:
    return ChangedOnDisk(
        f"'{rel}' appeared on disk while it was being created (another run?); nothing was "
        "written, run the command again",
        file=rel,
    )


def _stage(full: str, rel: str, make: Callable[[str], None]) -> str:
    """The temporary file for `full`, made by `make(tmp)` (creating missing folders)."""
    tmp = _temp_name(full)
    try:
        try:
            make(tmp)
        except FileNotFoundError:
            os.makedirs(full.rpartition("/")[0], exist_ok=True)  # noqa: PTH103 - only on a miss
            make(tmp)
    except BaseException as exc:
        _failed(tmp, rel, exc)
    return tmp


def _rename(tmp: str, full: str, rel: str) -> None:
    try:
        os.replace(tmp, full)  # noqa: PTH105
    except BaseException as exc:
        _failed(tmp, rel, exc)


def _failed(tmp: str, rel: str, exc: BaseException) -> NoReturn:
    """Remove the temporary file, then raise `exc` as an OrkestraError naming `rel`."""
    with contextlib.suppress(OSError):
        os.unlink(tmp)  # noqa: PTH108
    if isinstance(exc, IsADirectoryError):
        raise ConflictError(f"'{rel}' is a folder; move it away", file=rel) from None
    if isinstance(exc, OSError):
        raise WriteFailed(f"cannot write '{rel}': {exc.strerror or exc}", file=rel) from exc
    raise exc


def _fill(tmp: str, payload: bytes, mode: int, durable: bool) -> None:
    """Create `tmp` with exactly `mode` (whatever the umask) and write all of `payload`."""
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), mode)
    try:
        view = memoryview(payload)
        while view:  # os.write may write less than asked
            view = view[os.write(fd, view) :]
        if hasattr(os, "fchmod"):  # exactly `mode`, whatever the umask
            os.fchmod(fd, mode)
        else:  # pragma: no cover - Windows
            os.chmod(tmp, mode)  # noqa: PTH101
        if durable:
            os.fsync(fd)
    finally:
        os.close(fd)
