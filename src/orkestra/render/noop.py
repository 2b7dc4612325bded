"""The whole-run no-op check of `sync` and `validate`: a stat of every input and output.

After a full `validate`, or a full `sync` that changed nothing (or wrote cleanly: `_after_write`,
with its written files checked by content until they settle, and the folders it wrote into,
the user's files may lie in too, by their names), the stat identity (size, mtime_ns, ctime_ns,
inode, device) of every file the run read is recorded in `.orkestra/noop-<run>.json` (derived)
with the run's result: each file under `registries/`, the vendor roots and the template
folders (project and bundled), the rendered outputs and every client's MCP config, and every
folder on the way to them (mode, owner, inode: swapped for a symlink, it is unfit), under a key of
Orkestra's version, its own files, the Python version, the site-packages folders, today's date
(the stale-date gates), the project's path, the interpreter, the user and `HOME`. The next run
re-lists the same folders and stats the same files; when everything matches, the recorded result
is the answer and nothing is loaded. So it is when the only files whose identity changed are
registry files holding the same bytes as the parse cache's vouched entry for the recorded
identity says (a save with no change, `touch`, a checkout writing the same bytes back: the
records then take the new identities). Else, and whenever a recorded file changed within `RACY_NS` of the recording
(a change within one timestamp tick keeps the identity; 0.1 s on file systems with sub-second
times, 2 s on those with whole seconds), the full run decides.

Beyond those folders, the full run is traced (`Trace`, a Python audit hook): every file it opened
for reading and every folder it listed is recorded too (a folder by its own stat, which changes
when an entry is added, removed or renamed), so an input nobody listed here still counts.
A run is not recorded when it read what these stats cannot see: a symlink in a walked folder,
truth evidence outside plain paths of the project, a subprocess other than `git ls-files` (whose
answer, for ORK048, is recorded as the stat of the `.git` it finds, its index, git's configuration
files and the owner of the folder holding it) or a helper forked by `core.forking.fork_helper`
(which reads registry files and templates, stat'ed here, and writes nothing), a folder listed by
descriptor, a write outside `.orkestra/`, a write's temporary file in a listed folder, or a file
name that is not UTF-8.
Truth evidence files are recorded like outputs. A sync records `validate`'s answer too: it
validated the same load.
Standard library only at import time.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import stat
import sys
import time
from collections.abc import Callable, Collection, Container, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orkestra.core import forking, gcpause, jsonio
from orkestra.core.clock import Reading
from orkestra.core.errors import InputError, OrkestraError
from orkestra.core.stamp import settles_from
from orkestra.registry.cache import FINE_RACY_NS, RACY_NS, Keep, identity, named_by, same_bytes

if TYPE_CHECKING:
    from orkestra.registry.findings import Report
    from orkestra.registry.registry import Registry
    from orkestra.render.plan import Output, RenderPlan
    from orkestra.render.sync import Mode

#: bump when the record's layout or meaning changes
SCHEMA = 4
FOLDER = ".orkestra"


class Unfit(Exception):
    """A walked folder holds what a stat cannot vouch for (a symlink)."""


class Changed(Exception):
    """A path's identity is not the recorded one (raised at the first: the rest is not looked at)."""


_ABSENT = object()  # not in the record at all (a recorded absent file is None)
#: a record checking more written files than this by content is rewritten as plain stats once
#: they settle; a few (an agent's file, the lock, their folder) cost less to hash on each run
#: than the record costs to rewrite
SETTLE_AT = 16


_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_SPAWN = frozenset({"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.fork"})


def _absolute(path: Any) -> str:
    """An absolute path as text: the audit hook runs on every event, so no `Path` objects."""
    return os.path.abspath(os.fsdecode(path))  # noqa: PTH100


class Trace:
    """What the process read while active: files opened for reading and folders listed, as
    absolute paths; `unfit` when it did something a stat cannot vouch for."""

    def __init__(self, root: Path) -> None:
        self.root = f"{root}{os.sep}"
        self.state = f"{root}{os.sep}{FOLDER}{os.sep}"
        self.files: set[str] = set()
        self.folders: set[str] = set()
        self.unfit = False
        #: the run asked git which files it tracks (`git ls-files`: ORK048)
        self.git_listed = False

    def event(self, name: str, args: tuple[Any, ...]) -> None:
        if name == "open":
            self._open(*args[:3])
        elif name in ("os.scandir", "os.listdir"):
            where = args[0] if args else None
            if isinstance(where, int):
                self.unfit = True  # listed by descriptor: which folder is unknown
            else:
                self.folders.add(_absolute(where or "."))
        elif name == "subprocess.Popen" and _lists_tracked_files(args):
            self.git_listed = True  # its answer is the index's: recorded by `_git_paths`
        elif name == "os.fork" and forking.forking_helper():
            pass  # a helper reads registry files and templates (stat'ed here), writes nothing
        elif name in _SPAWN:
            self.unfit = True

    def _open(self, path: Any, mode: Any = None, flags: Any = None) -> None:
        if path is None or isinstance(path, int):
            return  # an open descriptor: its file was opened (and traced) before
        full = _absolute(path)
        if isinstance(mode, str):
            writes = any(c in mode for c in "wax+")
        else:
            writes = isinstance(flags, int) and bool(flags & _WRITE_FLAGS)
        if not writes:
            self.files.add(full)
        elif not full.startswith(self.state) and full != os.devnull:
            self.unfit = True  # the run changed a file: a record would vouch for nothing

    def merge(self, other: Trace) -> None:
        """Add what `other` (a later stretch of the same run) read."""
        self.files |= other.files
        self.folders |= other.folders
        self.unfit = self.unfit or other.unfit
        self.git_listed = self.git_listed or other.git_listed

    def paths(self) -> tuple[list[str], list[str]]:
        """(files, folders) worth a stat: inside the project relative, elsewhere absolute;
        Python's own files, Orkestra's (the key covers them) and `.orkestra/` left out."""
        import orkestra

        homes = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(orkestra.__file__).parent)}
        skip = (*(f"{os.path.realpath(h)}{os.sep}" for h in homes), self.state)

        def keep(items: set[str]) -> list[str]:
            out = []
            for full in sorted(items):
                outside = not full.startswith(self.root)
                if f"{full}{os.sep}".startswith(skip) or (
                    outside and os.path.realpath(full).startswith(skip)
                ):
                    continue
                rel = full[len(self.root) :] if full.startswith(self.root) else full
                if rel and not rel.endswith((".py", ".pyc")):
                    out.append(rel)
            return out

        return keep(self.files), keep(self.folders)


def _lists_tracked_files(args: tuple[Any, ...]) -> bool:
    """`core.git`'s `git ls-files -z` (and nothing else git may run)."""
    argv = args[1] if len(args) > 1 else None
    if not isinstance(argv, (list, tuple)) or not argv:
        return False
    from orkestra.core import git

    words = [os.fsdecode(a) if isinstance(a, (str, bytes)) else None for a in argv]
    return words == git.command(["ls-files", "-z"])


def _git_paths(root: Path) -> list[str] | None:
    """What `git ls-files` run in `root` answers from: every `.git` it may find walking up
    (absent ones too: creating one changes the answer), and the index of the first one found
    (a linked worktree's `.git` file names its own folder), and the folder holding it (git
    refuses a repository another user owns; the project's own folder is always recorded).
    None when that cannot be read."""
    out: list[str] = []
    for folder in (root, *root.parents):
        dot = folder / ".git"
        out.append(str(dot))
        if folder != root and (dot.is_dir() or dot.is_file()):
            out.append(f"{str(folder).rstrip(os.sep)}{os.sep}")
        if dot.is_dir():
            return [*out, *_git_config(dot), str(dot / "index")]
        if dot.is_file():
            try:
                text = dot.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError):
                return None
            if not text.startswith("gitdir:"):
                return None
            gitdir = (folder / text[len("gitdir:") :].strip()).resolve()
            try:  # a linked worktree's settings live in the main repository's folder
                common = gitdir / (gitdir / "commondir").read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError):
                common = gitdir
            extra = [str(gitdir / "commondir"), str(gitdir / "config.worktree")]
            return [*out, *_git_config(common.resolve()), *extra, str(gitdir / "index")]
    return out


#: anywhere, not only at a line's start: git also reads `[core][include]`, a `\r` line end, a BOM
_INCLUDE = re.compile(rb"\[\s*include", re.IGNORECASE)
_CONFIG_NAMES = frozenset({"config", ".gitconfig", "gitconfig", "config.worktree"})


def _includes(paths: list[str]) -> bool:
    """True when one of git's configuration files includes another (`[include]`, `[includeIf]`):
    git reads that one too, and its settings (`safe.directory`) change what it answers, but no
    stat recorded here covers it."""
    for path in paths:
        if os.path.basename(path) not in _CONFIG_NAMES:  # noqa: PTH119
            continue
        try:
            with open(path, "rb") as handle:  # noqa: PTH123
                data = handle.read(1 << 20)
        except OSError:
            continue
        if _INCLUDE.search(data):
            return True
    return False


def _git_config(gitdir: Path) -> list[str]:
    """The configuration files git reads (the repository's, the user's and the system's): a
    setting there (`safe.directory`, `core.bare`, `core.worktree`) changes what it answers."""
    home = Path(os.environ.get("HOME") or Path.home())
    xdg = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    found = [home / ".gitconfig", xdg / "git" / "config", Path("/etc/gitconfig")]
    return [str(p) for p in (gitdir / "config", *found)]


_active: list[Trace] = []
_hooked: list[bool] = []


def _hook(name: str, args: tuple[Any, ...]) -> None:
    if _active:
        _active[-1].event(name, args)


@contextmanager
def tracing(root: Path) -> Iterator[Trace]:
    """Trace the reads of the enclosed code (one audit hook per process, idle outside)."""
    if not _hooked:
        sys.addaudithook(_hook)
        _hooked.append(True)
    trace = Trace(root)
    _active.append(trace)
    try:
        yield trace
    finally:
        _active.remove(trace)


def record_path(run: str) -> str:
    return f"{FOLDER}/noop-{run}.json"


def key(root: Path) -> str:
    """Orkestra's version and own files, Python's version, the libraries' folders (`pip` adds
    and removes an entry there) and today's date; the project's path and the interpreter (with
    its `orkestra` script, if any), which the MCP server entries name; the user and `HOME` (git's
    ownership check and configuration, with `SUDO_UID`, which git trusts as the owner when run
    as root); which `git` runs, and where its helpers are."""
    import shutil

    import orkestra
    from orkestra.core.clock import today
    from orkestra.core.stamp import file_marks, library_marks

    script = (Path(sys.executable).parent / "orkestra").is_file()
    parts = [orkestra.__version__, str(SCHEMA), sys.version, today().isoformat(), str(root)]
    parts.append(str(os.geteuid()) if hasattr(os, "geteuid") else "")  # git's ownership check
    parts.append(os.environ.get("SUDO_UID", ""))  # which git reads for it when run as root
    parts += [os.environ.get("HOME", ""), os.environ.get("XDG_CONFIG_HOME", "")]  # git's config
    parts += [shutil.which("git") or "", os.environ.get("GIT_EXEC_PATH", "")]  # which git runs
    parts += library_marks()  # installing, upgrading or removing a library (Jinja, PyYAML, …)
    parts += [sys.executable, str(script)]
    for dirpath, dirnames, filenames in os.walk(Path(orkestra.__file__).parent):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        parts += file_marks(f"{dirpath}/{name}" for name in sorted(filenames))
    return "|".join(parts)


def _identity(path: str, links: bool = False) -> list[int] | None:
    """(size, mtime_ns, ctime_ns, inode, device) of `path`, None when it is absent. A symlink is
    unfit unless `links`; then its own identity is followed by its target's (a rendered link,
    or a file read through one), or by -1 when the target is missing."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):  # ValueError: a NUL in the path (a damaged lock), never there
        return None
    ident = identity(st)
    if not stat.S_ISLNK(st.st_mode):
        return ident
    if not links:
        raise Unfit(path)
    try:
        to = os.stat(path)  # noqa: PTH116 - text paths, as lstat above
    except OSError:
        return [*ident, -1]
    return [*ident, *identity(to)]


def _walk(root: Path, rel: str, out: dict[str, Any], check: _Check | None = None) -> None:
    """Every file and folder under `rel` (folders as `rel/` with their mode, owner and inode).
    With `check`, raises Changed at the first file whose identity is not the recorded one."""
    full = root / rel
    try:
        entries = sorted(os.scandir(full), key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError, ValueError):
        out[rel] = _identity(str(full))
        return
    except OSError as exc:  # unreadable: a full run reports it, and nothing vouches for it
        raise Unfit(rel) from exc
    out[f"{rel}/"] = _folder(str(full))
    for entry in entries:
        child = f"{rel}/{entry.name}"
        if entry.is_symlink():
            raise Unfit(child)
        if entry.is_dir():
            _walk(root, child, out, check)
            continue
        ident = out[child] = _identity(entry.path)
        if check is not None and check.recorded.get(child, _ABSENT) != ident:  # the usual: equal
            check(child, ident)


class _Check:
    """Raises Changed at the first file under the walked folders (the inputs: an edit is
    usually there) whose identity is not the recorded one; `skip`: the paths checked by content
    instead. The rest is compared once the snapshot is whole."""

    __slots__ = ("recorded", "skip")

    def __init__(self, recorded: dict[str, Any], skip: Container[str]) -> None:
        self.recorded = recorded
        self.skip = skip

    def __call__(self, rel: str, ident: Any) -> None:
        if self.recorded.get(rel, _ABSENT) != ident and rel not in self.skip:
            raise Changed(rel)


def snapshot(
    root: Path, folders: list[str], files: list[str], check: _Check | None = None
) -> dict[str, Any]:
    """The identities of every file under `folders` and of `files` (each relative to the project,
    or absolute). With `check`, raises Changed at the first file under `folders` that differs
    from a record."""
    out: dict[str, Any] = {}
    for folder in folders:
        _walk(root, folder, out, check)
    prefix = f"{root}{os.sep}"
    for rel in files:  # string joins: this runs once per rendered file
        if rel in out:  # a file the walk just stat'ed (read by the run, inside a walked folder)
            continue
        out[rel] = _single(prefix, rel)
    out["./"] = _folder(str(root))  # its owner and mode: git's and the writer's checks
    for rel in (*folders, *files):  # a folder on the way swapped for a symlink keeps the stats
        if rel.startswith(os.sep):
            continue
        cut = rel.rstrip("/").rfind("/")
        while cut > 0:  # up to the first folder recorded already (its own way is, or will be)
            way = rel[: cut + 1]
            if way in out or rel[:cut] in out:
                break
            out[way] = _folder(prefix + rel[:cut])
            cut = rel.rfind("/", 0, cut)
    return out


def _single(prefix: str, rel: str) -> list[int] | None:
    """The identity of `rel` (relative to the project, whose path `prefix` ends with a
    separator, or absolute): a folder's (`rel/`) as `_folder` (a symlink there is unfit, as on
    the way to a file), a file's as `_identity`, links followed."""
    full = rel if rel.startswith(os.sep) else prefix + rel
    return _folder(full.rstrip("/")) if rel.endswith("/") else _identity(full, links=True)


def _folder(path: str) -> list[int] | None:
    """A folder's mode, owner, inode and device (None when absent): replacing it by another
    folder or a file, `chmod` and `chown` change them (git refuses a folder another user owns);
    a symlink is unfit (what it leads to may lie outside the project)."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):  # ValueError: a NUL in the path (a damaged lock), never there
        return None
    if stat.S_ISLNK(st.st_mode):
        raise Unfit(path)
    return [st.st_mode, st.st_uid, st.st_ino, st.st_dev]


def _usable(root: Path, run: str) -> bool:
    """`.orkestra/` a real folder and the record a regular file (or absent)."""
    from orkestra.core.readfile import absent_or_kind

    return absent_or_kind(root, ((FOLDER, stat.S_ISDIR), (record_path(run), stat.S_ISREG)))


def recorded(root: Path, run: str) -> Any:
    """The recorded result of `run` when nothing it read changed since, else None."""
    return _answer(root, run, _record(root, run))


def _record(root: Path, run: str) -> dict[str, Any] | None:
    """`run`'s record as written (well formed), or None."""
    if not _usable(root, run):
        return None
    path = root / record_path(run)
    try:
        data = jsonio.read_sealed(path)
    except (OSError, InputError):
        return None
    return data if _well_formed(data) else None


def proven(root: Path, data: dict[str, Any] | None) -> dict[str, tuple[list[int], str]]:
    """The identities a sync's record proves the bytes of: each file it checked by content
    (a sync reads every output it leaves unchanged) and stat'ed after, outside the racy window
    (else it left no record), except those it wrote (checked by content on the next run). A
    file with the same identity now holds the same bytes: those whose sha256 the lock then
    recorded, when the lock itself is unchanged since ({} otherwise). Each identity comes with
    that sha256, read here from the lock proven unchanged (the plan reads the lock again: one
    changed in between lends its hashes to nothing). The plan then skips reading it."""
    from orkestra.registry.render_lock import LOCK_PATH, digest, entries_of

    if data is None:
        return {}
    files: dict[str, Any] = data["files"]
    expected: dict[str, Any] = data["expected"]
    lock = files.get(LOCK_PATH)
    full = f"{root}{os.sep}{LOCK_PATH}"
    try:  # the bytes read between two equal stats are the bytes proven
        now = _identity(full)
        if lock is None or now is None:
            return {}
        text = jsonio.read_text(full, follow=False)
        if _identity(full) != now:
            return {}
        if LOCK_PATH in expected:  # the recording run wrote it (no byte-order mark): those bytes?
            want = expected[LOCK_PATH]
            if not (isinstance(want, list) and want[:2] == ["file", digest(text.encode())]):
                return {}
        elif now != lock:
            return {}
    except (Unfit, OSError, InputError):  # a symlink now, or unreadable
        return {}
    entries = entries_of(text) or {}
    out: dict[str, tuple[list[int], str]] = {}
    for rel, ident in files.items():
        entry = entries.get(rel)
        if (
            entry is not None
            and entry.sha256 is not None
            and rel not in expected
            and isinstance(ident, list)
            and len(ident) == 5
            and all(type(i) is int for i in ident)
        ):
            out[rel] = (ident, entry.sha256)
    return out


def _answer(
    root: Path, run: str, data: dict[str, Any] | None, first: list[str] | None = None
) -> Any:
    """The recorded result in `data` when nothing the recording run read changed since (else
    None; the first changed file the walk of the recorded folders meets, if that is how the
    change was found, is added to `first`). A sync is never answered while a killed sync's
    record of pending writes is there: the full run looks in the folders it names."""
    if data is None or data["key"] != key(root):
        return None
    from orkestra.render import pending

    if run == "sync" and pending.exists(root):
        return None
    taken = time.time_ns()
    try:  # a changed input is found at its own stat: the rest is not looked at
        now = snapshot(
            root, data["folders"], data["singles"], _Check(data["files"], data["expected"])
        )
    except Changed as exc:
        if first is not None:
            first.append(exc.args[0])
        return _same_bytes(root, run, data, exc.args[0])
    except Unfit:
        return None
    changed = _compare(data, now)
    if changed is None or changed or not _held(root, data):
        return None
    expected: dict[str, Any] = data["expected"]
    if len(expected) > SETTLE_AT and _settled_by(root, [now[rel] for rel in expected], taken):
        _settle(root, run, data, now)  # settled: plain stats from now on
    return data["result"]


def _settled_by(root: Path, idents: list[Any], taken: int) -> bool:
    """True when none of `idents` changed within the racy window before `taken` (this
    process's clock), by this process's clock and then by the file system's: a lagging file
    clock is read (a write) only when the record is about to be written anyway."""
    if any(_racy(ident, taken) for ident in idents):
        return False
    from orkestra.core.clock import files_behind

    taken -= files_behind(root)
    return not any(_racy(ident, taken) for ident in idents)


def _same_bytes(root: Path, run: str, data: dict[str, Any], first: str) -> Any:
    """The recorded result in `data` when every recorded path whose identity changed (`first`
    the first the walk met) is a registry file that holds the bytes it held then
    (`cache.same_bytes`: saved with no change, touched, written back by a checkout) or a walked
    folder listing the same names (a save by rename); else None. Each record made with `data`
    (the same start: a sync's and its `validate`'s) then takes the identities now, unless one
    of those files changed within the racy window."""
    was = data["files"].get(first)
    try:  # the first one alone, before the whole snapshot: an edit is turned away cheaply
        now_first = _identity(_full(root, first))
    except Unfit:
        return None
    if same_bytes(root, {first: (was, now_first)}, keep=False) is None:
        return None
    found = changes(root, data)
    if found is None:
        return None
    changed, now = found
    moved = {rel: (data["files"][rel], now[rel])
             for rel in changed if not walked_folder(data, rel)}  # fmt: skip
    settled = same_bytes(root, moved, keep=True)
    if settled is None:
        return None
    if settled:
        _restat(root, run, data, {rel: now[rel] for rel in changed})
    return data["result"]


def _restat(root: Path, run: str, data: dict[str, Any], moved: dict[str, Any]) -> None:
    """Rewrite `run`'s record (`data`), and the other run's record when it holds the same
    recorded identities for the paths in `moved`, with the identities they have now (their
    bytes proven the same). Each keeps its start and result. A `validate` may rewrite the sync
    record outside the sync lock: a sync that records meanwhile is overwritten by a record
    vouching for less (its outputs' old stats), so the next run is a full one."""
    records = {run: data}
    other = "validate" if run == "sync" else "sync"
    found = _record(root, other)
    if found is not None:
        records[other] = found
    for name, record in records.items():
        if any(record["files"].get(rel) != data["files"][rel] for rel in moved):
            continue  # that record vouches for another version of them
        _rewrite(root, name, record, files={**record["files"], **moved})


def _full(root: Path, rel: str) -> str:
    """A recorded path as a path: relative to the project, or absolute (the project folder
    itself, a bundled template folder outside it)."""
    return rel if rel.startswith(os.sep) else f"{root}{os.sep}{rel}"


def _as_written(root: Path, rel: str, want: Any) -> bool:
    """True when `rel` still holds what the recording run left there: for a file, the same
    kind, bytes (or link target) and executable bit (all a later sync compares); for a folder it
    wrote into (the project folder too, by its absolute path), the same names."""
    from orkestra.registry.render_lock import disk_digest

    if not isinstance(want, list) or not want:
        return False
    if rel.startswith(os.sep) and not (rel == str(root) and want[0] == "listing"):
        return False
    try:
        st = os.lstat(_full(root, rel))
    except (OSError, ValueError):
        return False
    if want[0] == "listing" and len(want) == 2 and isinstance(want[1], list):
        return stat.S_ISDIR(st.st_mode) and _names(_full(root, rel)) == want[1]
    if len(want) != 3 or not isinstance(want[1], str):
        return False
    if want[0] == "link":  # a link's digest is a file's holding `symlink:<target>`: kinds differ
        return stat.S_ISLNK(st.st_mode) and disk_digest(root, rel) == want[1]
    if want[0] != "file" or not stat.S_ISREG(st.st_mode):
        return False
    return bool(st.st_mode & 0o100) == bool(want[2]) and disk_digest(root, rel) == want[1]


def _settle(root: Path, run: str, data: dict[str, Any], now: dict[str, Any]) -> None:
    """Rewrite a record whose written files were checked by content as plain stats, once their
    times are outside the racy window (taken before `now` was): the next no-op only stats."""
    _rewrite(root, run, data, files=now, expected={})


def _rewrite(root: Path, run: str, record: dict[str, Any], **fields: Any) -> None:
    """Write `run`'s record (`record`) again with `fields` in place of its own, its result
    kept."""
    payload = {k: v for k, v in record.items() if k != "result"}
    _write(root, {**payload, **fields}, {run: record["result"]})


def _well_formed(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and data.get("schema") == SCHEMA
        and isinstance(data.get("key"), str)
        and type(data.get("start")) is int
        and isinstance(data.get("folders"), list)
        and all(isinstance(f, str) for f in data["folders"])
        and isinstance(data.get("singles"), list)
        and all(isinstance(f, str) for f in data["singles"])
        and isinstance(data.get("files"), dict)
        and isinstance(data.get("expected"), dict)
        and set(data["expected"]) <= set(data["files"])
        and "result" in data
    )


def _racy(ident: Any, start: int) -> bool:
    """True when a file changed so close to the recording that a later edit may keep its stat:
    within `FINE_RACY_NS` where the file system keeps sub-second times (the kernel's clock lags
    by up to a tick), within `RACY_NS` where it keeps whole seconds (the later time is whole)."""
    if (  # the usual file, outside either window: nothing more to look at (this runs per file)
        type(ident) is list
        and len(ident) == 5
        and type(ident[0]) is type(ident[1]) is type(ident[2]) is type(ident[3]) is int
        and type(ident[4]) is int
        and max(ident[1], ident[2]) + max(RACY_NS, FINE_RACY_NS) < start
    ):
        return False
    if isinstance(ident, list) and len(ident) == 4 and all(type(i) is int for i in ident):
        return False  # a folder's mode, owner and inode: no timestamp to race
    if isinstance(ident, list) and len(ident) in (5, 6, 10) and all(type(i) is int for i in ident):
        for times in (ident[1:3], ident[6:8]):  # the file's, then a link's target's
            # its granularity decides (FAT: a 2 s mtime); one dated after the run: its ctime
            latest = settles_from(times[0], times[1], start) if times else 0
            coarse = latest % 1_000_000_000 == 0
            if times and latest + (RACY_NS if coarse else FINE_RACY_NS) >= start:
                return True
        return False
    return ident not in (None, 0)  # a malformed entry never vouches for anything


def save(
    root: Path,
    results: dict[str, Any],
    start: int,
    reg: Registry,
    singles: list[str],
    trace: Trace,
    stamp: str,
    written: Mapping[str, Output] | None = None,
    marks: dict[str, Any] | None = None,
    listings: dict[str, list[str]] | None = None,
    extra: dict[str, Any] | None = None,
    begun: dict[str, Any] | None = None,
    clean: Collection[str] = (),
) -> None:
    """Record each command's result (`results`: run name -> what it answers; a sync also
    answers for `validate`, whose findings it computed from the same load) with what the run
    read (`start`: when it began; `trace`: what it opened and listed; `stamp`: the key when it
    began), unless it read something a stat cannot vouch for or the key changed meanwhile
    (midnight: the result is the old day's). Best effort: an unwritable `.orkestra/` records
    nothing.

    `written` holds the rendered outputs of a writing run (kept as ["file" or "link", digest,
    executable]): those it wrote changed during the run, so their stats vouch for nothing yet;
    the next run checks their content instead, until their times settle (`_settle`). `marks` holds
    the identity of each output and folder on their way right after the write: one that changed
    since, even back to the same bytes, may have shown the validation after it something else.
    `listings` holds the names a folder the write went into (the user's files may lie there
    too) must hold: what it held before the write plus what the write added there. `extra`
    goes into the record as it is (`render.delta`'s kept contexts). `begun`: the folder the
    lock is written into, as the write left it (`_lock_folder`; empty when it changed just
    before the run's start or between that and the write, is not the same folder after the
    write, or is missing or a symlink): a writing run records only if it is still that very
    folder. `clean`: the folders the run's plan found holding no temporary file
    (`RenderPlan.clean`), not listed again here: one given a temporary file since then changed
    during the run, which `_expected` refuses. The folders listed are recorded as such
    (`listed`): the next full sync does not list again one whose identity is still the
    recorded one (`vouched`)."""
    folders, evidence = _folders(reg), _evidence(reg)
    if folders is None or evidence is None or trace.unfit:
        return
    runs = [run for run in results if _usable(root, run)]
    if not runs:
        return
    if key(root) != stamp:
        return
    read, listed = trace.paths()
    tracked = _git_paths(root) if trace.git_listed else []
    if tracked is None or _includes(tracked) or _temporaries(root, listed, clean):
        return
    inside = f"{root}{os.sep}"
    tracked = [p[len(inside) :] if p.startswith(inside) else p for p in tracked]
    singles = sorted({*singles, *evidence, *read, *listed, *tracked})
    try:
        files = snapshot(root, folders, singles)
    except Unfit:
        return
    if not _folders_settled(root, files, folders, start, ways(written or {}), begun or {}):
        return
    expected = _expected(root, files, start, written or {}, marks or {}, listings or {})
    if expected is None:
        return  # changed too close to the run to vouch for: the next full run records
    payload = {"schema": SCHEMA, "key": stamp, "start": start, "folders": folders,
               "singles": singles, "files": files, "expected": expected,
               "listed": [rel for rel in listed if not rel.startswith(os.sep)],
               **(extra or {})}  # fmt: skip
    _write(root, payload, {run: results[run] for run in runs})


def _folders_settled(
    root: Path,
    files: dict[str, Any],
    folders: list[str],
    start: int,
    ways: set[str],
    begun: dict[str, Any],
) -> bool:
    """True when no folder in or below the walked ones (the inputs) changed during the run or
    just before it. A folder is recorded by its mode, owner and inode alone, and one renamed
    into place (a whole tree swapped while the run read the old one) keeps its files' settled
    stats: only its own ctime shows the rename. `ways`: the folders this run wrote into, whose
    times it changed itself: each must still be as the write left it (`begun`: the lock's
    folder, by `_lock_folder`), which the run made sure was the folder it began with."""
    inside = tuple(f"{f.rstrip('/')}/" for f in folders)
    for rel, recorded in files.items():
        if not (rel.endswith("/") and rel.startswith(inside)) or recorded is None:
            continue  # a folder recorded absent (git keeps no empty one): its arrival is a change
        if rel[:-1] in ways:
            if rel[:-1] not in begun or begun[rel[:-1]] != _folder_times(_full(root, rel[:-1])):
                return False
            continue
        try:
            st = os.lstat(_full(root, rel[:-1]))
        except (OSError, ValueError):
            return False
        if _racy(identity(st), start):
            return False
    return True


def _lock_folder(root: Path) -> dict[str, Any]:
    """The folder the lock is written into, by mode, owner, inode and times (`_folder_times`):
    a writing run takes it as it begins and just before it writes (a tree swapped out and
    back in between changes its ctime), then right after the write, for `_folders_settled`."""
    from orkestra.registry.render_lock import LOCK_PATH

    folder = LOCK_PATH.rpartition("/")[0]
    return {folder: _folder_times(_full(root, folder))}


def _settled_before(folders: dict[str, Any], start: int) -> bool:
    """True when each of `folders` (`_lock_folder`) last changed outside the racy window before
    `start`: where times are coarse, a swap out and back in the same tick as an earlier change
    would keep every time it has."""
    return all(times is not None and not _racy(times[:5], start) for times in folders.values())


def _same_folders(now: dict[str, Any], then: dict[str, Any]) -> bool:
    """True when `now` and `then` (`_lock_folder`) name the same folders, each by the same
    mode, owner, inode and device, whatever their times; a folder missing (None) in either is
    never the same."""
    return now.keys() == then.keys() and all(
        now[k] is not None and then[k] is not None and now[k][3:] == then[k][3:] for k in now
    )


def _folder_times(path: str) -> list[int] | None:
    """A folder's identity (size, mtime, ctime, inode, device: `identity`), then its mode and
    owner (None when it cannot be looked at, or is not a folder)."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISDIR(st.st_mode):
        return None
    return [*identity(st), st.st_mode, st.st_uid]


def _write(root: Path, payload: dict[str, Any], results: dict[str, Any]) -> None:
    """Write each run's record: the stats once, then its result (`{…,"result":…}`)."""
    from orkestra.core import safewrite

    try:
        # made of JSON read back and of plain lists: no cycle to look for (a fifth of the time)
        common = json.dumps(payload, ensure_ascii=False, separators=(",", ":"),
                            check_circular=False)[:-1]  # fmt: skip
        for run, result in results.items():
            answer = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
            text = f'{common},"result":{answer}}}'
            safewrite.write_file(root, record_path(run), jsonio.sealed(text), durable=False)
    except (OSError, OrkestraError, UnicodeEncodeError):  # a file name that is not UTF-8
        return


def changes(root: Path, data: dict[str, Any]) -> tuple[list[str], dict[str, Any]] | None:
    """The paths of a record (`data`, well formed) whose identity is not the recorded one, with
    every identity now; None when a walked folder holds a symlink now, a path appeared or went
    away, or a file or folder the recording run wrote no longer holds what it left there."""
    try:
        now = snapshot(root, data["folders"], data["singles"])
    except Unfit:
        return None
    changed = _compare(data, now)
    if changed is None or not _held(root, data):
        return None
    return changed, now


def _compare(data: dict[str, Any], now: dict[str, Any]) -> list[str] | None:
    """The recorded paths whose identity `now` is not the recorded one (those the recording run
    wrote are checked by content instead: `_held`); None when a path appeared or went away."""
    files: dict[str, Any] = data["files"]
    if now == files:
        return []
    if now.keys() != files.keys():
        return None
    expected: dict[str, Any] = data["expected"]
    return [rel for rel, ident in files.items() if rel not in expected and now[rel] != ident]


def _held(root: Path, data: dict[str, Any]) -> bool:
    """Every file and folder the recording run wrote still holds what it left there."""
    return all(_as_written(root, rel, want) for rel, want in data["expected"].items())


def walked_folder(data: dict[str, Any], rel: str) -> bool:
    """True when `rel` is a folder below a folder the record walks: each name in it is a path
    of the record, so an equal set of paths proves it lists the same names."""
    inside = any(rel == f or rel.startswith(f"{f}/") for f in data["folders"])
    return inside and f"{rel}/" in data["files"]


def recorded_findings(
    root: Path, data: dict[str, Any], now: dict[str, Any] | None = None
) -> list[dict[str, Any]] | None:
    """`validate`'s recorded findings when that record was written with the sync record `data`
    (same key and start), or, given the identities of `data`'s paths `now`, when it is its own
    answer still: a `validate` run since, whose record's files all have those identities now
    (what `validate` would answer from it); else None."""
    other = _record(root, "validate")
    if other is None or other["key"] != data["key"]:
        return None
    if other["start"] != data["start"] and not (
        now is not None and _still(root, other["files"], now)
    ):
        return None
    found = other["result"]
    return found if isinstance(found, list) and all(_finding_ok(f) for f in found) else None


def _still(root: Path, files: dict[str, Any], now: dict[str, Any]) -> bool:
    """Every path of `files` has its identity there now: as in `now` (a snapshot of another
    record's paths), or, for one it lacks (a folder on the way, named otherwise there), as
    stat'ed here."""
    prefix = f"{root}{os.sep}"
    for rel, ident in files.items():
        have = now.get(rel, _ABSENT)
        if have is _ABSENT:
            try:
                have = _single(prefix, rel)
            except Unfit:
                return False
        if have != ident:
            return False
    return True


def save_delta(
    root: Path,
    data: dict[str, Any],
    start: int,
    now: dict[str, Any],
    written: Mapping[str, Output],
    rendered: set[str],
    findings: list[Any],
    stamp: dict[str, Any],
    listings: dict[str, list[str]] | None = None,
) -> None:
    """Record a `render.delta` sync as `save` records a full one: the record it started from
    (`data`) with the identities `now` (taken as it began), those of the files it wrote (and the
    folders on their way) as the write left them, checked by content until they settle; its
    answer is the recorded one (nothing to change), `findings` `validate`'s (those recorded
    with it, or by a `validate` run since, with the outputs' sizes now), and the kept contexts
    those named by `stamp`. `listings`: the names of folders it wrote into before the write
    (`listings_before`): each must hold them still.
    Nothing is recorded when the key changed meanwhile or a file changed too close to the
    run."""
    if not all(_usable(root, run) for run in ("sync", "validate")) or key(root) != data["key"]:
        return
    listings = listings or {}
    marks = {rel: _identity(f"{root}{os.sep}{rel}", links=True)
             for rel in (*written, *ways(written))}  # fmt: skip
    marks.update((folder, _identity(_full(root, folder), links=True)) for folder in listings)
    files = {rel: marks.get(rel, ident) for rel, ident in now.items()}
    expected = _expected(root, files, start, written, marks, listings, {*rendered, *written})
    if expected is None:
        return
    payload = {k: v for k, v in data.items() if k != "result"}
    payload.update(start=start, files=files, expected=expected, delta=stamp)
    _write(root, payload, {"sync": data["result"], "validate": findings})


def listings_before(
    root: Path, folders: Iterable[str], now: dict[str, Any], start: int
) -> dict[str, list[str]] | None:
    """The names of each of `folders` (relative to the project; "" the project folder, recorded
    by its own path) that a run's stats `now` (taken from `start` on) hold a listed folder's
    identity of, for `save_delta` after a write there: each listed while its identity is the
    one `now` holds (what the stats vouched for). A folder the user's files lie in too (the
    project folder, `.github/` beside its workflows) then needs no more than that its names are
    these still. One that changed just before `start` is left out: a name added within the
    same tick as the stats may keep its identity (its names are checked as any folder written
    into). None when one changed since, or cannot be listed."""
    found: dict[str, list[str]] = {}
    for rel in folders:
        key = str(root) if rel == "" else rel
        want = now.get(key)
        if type(want) is not list or len(want) != 5 or _racy(want, start):
            continue  # not a listed folder's identity, or not one to vouch for its names
        full = _full(root, key)
        names = _names(full)
        if names is None or _identity(full, links=True) != want:
            return None
        found[key] = names
    return found


def ways(paths: Any) -> set[str]:
    """Every folder on the way to `paths` (relative, without the project itself)."""
    return {rel[:cut] for rel in paths for cut in range(len(rel)) if rel[cut] == "/"}


def _expected(
    root: Path,
    files: dict[str, Any],
    start: int,
    written: Mapping[str, Output],
    marks: dict[str, Any],
    listings: dict[str, list[str]],
    rendered: Collection[str] | None = None,
) -> dict[str, list[Any]] | None:
    """What the next run checks by content instead of by stat: each file this run wrote, and
    each folder it wrote into (when that folder holds only what the run wrote there, or, for
    a folder in `listings`, exactly the names listed: what it held as the run began and what
    the write added). None when anything else changed during the run or just before it, or one
    of those changed after the write (its identity is not its `marks` one: the validation after
    the write may have read something else, even if it is back to the same bytes or names
    now). A folder written into may hold the `rendered` outputs (default: `written`), and
    folders on the way to them (a skill's resources beside the SKILL.md a run rewrote)."""
    from orkestra.registry.render_lock import digest

    on_way = ways(written)
    rendered = written if rendered is None else rendered
    expected: dict[str, list[Any]] = {}
    for rel, ident in files.items():
        if not _racy(ident, start):
            continue
        if (rel in written or rel in on_way or rel in listings) and (
            rel not in marks or marks[rel] != ident
        ):
            return None
        if rel in listings:  # beside the user's files: only what was there and what we added
            if not written or _names(_full(root, rel)) != listings[rel]:
                return None
            expected[rel] = ["listing", listings[rel]]
            continue
        if rel in written:
            out = written[rel]
            kind = "file" if out.link is None else "link"
            expected[rel] = [kind, digest(out.data, link=out.link), out.executable]
            continue
        if not written or rel.startswith(os.sep) or rel not in on_way:
            return None
        names = _names(_full(root, rel))
        if names is None:
            return None
        unknown = [n for n in names if f"{rel}/{n}" not in rendered and f"{rel}/{n}" not in on_way]
        if not all(_leads_to(f"{rel}/{n}/", rendered) for n in unknown):
            return None  # something else lies there: its listing vouches for nothing
        expected[rel] = ["listing", names]
    return expected


def _leads_to(folder: str, rendered: Iterable[str]) -> bool:
    """True when an output in `rendered` lies below `folder` (`a/b/`): a folder of a skill's
    resources beside the SKILL.md a run rewrote."""
    return any(path.startswith(folder) for path in rendered)


def _temporaries(root: Path, listed: list[str], clean: Collection[str] = ()) -> bool:
    """True when a listed folder holds a write's temporary file: sync deletes it once its writer
    is gone or it is a day old, which no stat of it vouches for. A folder in `clean` held none
    when this run's plan looked (listed, or vouched for by the last record) and is not listed
    again."""
    from orkestra.core.safewrite import holds_temporary

    return any(holds_temporary(rel if rel.startswith(os.sep) else f"{root}{os.sep}{rel}")
               for rel in listed if rel not in clean)  # fmt: skip


def vouched(data: dict[str, Any] | None) -> dict[str, list[int]]:
    """The folders a record (`data`, well formed) found holding no temporary file, each with
    the identity it recorded (size, times, inode, device: a name added or removed there changes
    it): those it listed and vouches for by stat (not the ones its run wrote into, which the
    next run checks by content). {} for a record without them."""
    if data is None:
        return {}
    listed, files, expected = data.get("listed"), data["files"], data["expected"]
    if not isinstance(listed, list):
        return {}
    out: dict[str, list[int]] = {}
    for rel in listed:
        ident = files.get(rel) if isinstance(rel, str) else None
        if (
            type(ident) is list
            and len(ident) == 5
            and all(type(i) is int for i in ident)
            and rel not in expected
        ):
            out[rel] = ident
    return out


def _evidence(reg: Registry) -> list[str] | None:
    """The paths truth evidence makes validation look at (both readings of `path:symbol`), or
    None when one is not a plain path inside the project (a symlink, `..`, absolute, NUL)."""
    from orkestra.registry.evidence import split

    paths: set[str] = set()
    for truth in reg.truths.values():
        for item in truth.evidence:
            paths.update((item, split(item, reg.root)[0]))
    real = str(reg.root.resolve())
    for rel in paths:
        parts = Path(rel).parts
        if not parts or Path(rel).is_absolute() or ".." in parts or "\0" in rel:
            return None
        full = os.path.join(real, rel)  # noqa: PTH118  # compared as text with realpath
        if os.path.realpath(full) != os.path.normpath(full):
            return None
    return sorted(paths)


def _folders(reg: Registry) -> list[str] | None:
    """The folders the run read, or None when it read what a stat cannot vouch for. A vendor
    root as written may hold `./` or `//` (`./.agents/skills`): normalised, as the outputs'
    paths are, so that `_after_write` knows a write into it."""
    from orkestra.render.template_paths import template_folders

    vendor = (posixpath.normpath(v.path) for v in reg.config.vendor_roots)
    roots = ["registries", *vendor, "templates"]
    for folder in template_folders(reg.root):  # the project's (when present) and the bundled
        inside = folder.is_relative_to(reg.root)
        roots.append(folder.relative_to(reg.root).as_posix() if inside else str(folder))
    return list(dict.fromkeys(roots))


def _outputs(root: Path, reg: Registry, lock: Any = None) -> list[str]:
    """The files validation reads beyond the registry: the lock's entries and managed files
    (`lock`: the paths a sync just found or wrote in the lock, instead of reading it again)."""
    from orkestra.registry.render_lock import BLOCK_FILES, CLAUDE_MD
    from orkestra.render import manifest

    if lock is not None:
        paths = {*lock}
    else:
        try:
            paths = {*manifest.load(root), *manifest.load_servers(root)}
        except InputError:  # unreadable: validation reports it, and the lock itself is recorded
            paths = {manifest.LOCK_PATH}
    paths.update({reg.config.render.claude_md_path, CLAUDE_MD, *BLOCK_FILES.values()})
    return sorted(paths)


@gcpause.paused()
def validate_report(root: Path) -> Report:
    """`validate`'s report: the recorded one when nothing changed, else a full run (recorded)."""
    from orkestra.registry.findings import Finding, Report

    root = root.resolve()
    hit = recorded(root, "validate")
    if isinstance(hit, list) and all(_finding_ok(f) for f in hit):
        return Report(tuple(Finding(**f) for f in hit))
    from orkestra.registry.loader import load
    from orkestra.registry.validate import validate

    stamp, start = key(root), Reading(root).seen()
    with tracing(root) as trace:
        # the parse cache keeps the entries sync's record names (the sync shortcut after this)
        reg = load(root, keep_replaced=_named_by(_record(root, "sync")))
        report = validate(reg)
    save(root, {"validate": finding_records(report.findings)}, start, reg, _outputs(root, reg), trace,
         stamp)  # fmt: skip
    return report


def _finding_ok(f: Any) -> bool:
    return (
        isinstance(f, dict)
        and set(f) == {"file", "line", "code", "severity", "message"}
        and type(f["line"]) is int
        and all(type(f[k]) is str for k in ("file", "code", "severity", "message"))
    )


def sync_result(
    root: Path, mode: Mode, waiting: Callable[[], None] | None = None
) -> dict[str, Any]:
    """Plain `sync` / `sync --check` as a JSON dict: the recorded no-op result when nothing
    changed, else a full sync. It is recorded when it found nothing to change, and after a
    write that left every output as rendered (the next run is then answered by a stat of the
    inputs and a content check of the files just written). A writing sync holds the project's
    sync lock from before it reads the record to after it writes one (`render.exclusive`;
    `waiting` is called when it waits for another sync first)."""
    root = root.resolve()
    if mode != "write":
        return _sync_result(root, mode)
    from orkestra.render import exclusive

    with exclusive.held(root, waiting):
        return _sync_result(root, mode)


@gcpause.paused()
def _sync_result(root: Path, mode: Mode) -> dict[str, Any]:
    record = _record(root, "sync")
    first: list[str] = []
    hit = _answer(root, "sync", record, first)
    if isinstance(hit, dict) and hit.get("ok") is True:
        return {**hit, "mode": mode}
    from orkestra.render import delta

    # an edit to agents' or skills' own text (such a file is the first change the stats
    # found): only those files are rendered again
    if mode == "write" and record is not None and first and delta.own_file(first[0]):
        done = delta.sync(root, record, first[0])
        if done is not None:
            return done
    from orkestra.registry.loader import load
    from orkestra.render import writer
    from orkestra.render.sync import sync

    stamp, start = key(root), Reading(root).seen()
    names = _names(str(root))  # the project folder as the run begins (a write may add to it)
    # and the lock's folder, which a write changes (a tree swapped out and back meanwhile)
    begun = _lock_folder(root) if mode == "write" else {}
    kept: dict[str, Any] = {}
    beside: dict[str, list[str]] = {}  # the names of the folders a write goes into, before it
    with tracing(root) as trace:
        reg = load(root, keep_replaced=_named_by(record))
        known = proven(root, record)  # outputs the plan need not read again
        report = sync(root, mode="dry-run" if mode == "write" else mode, registry=reg,
                      proven=known, kept=kept, vouched=vouched(record))  # fmt: skip
    # the folders the plan did not list, the last record vouching for them: listed still
    trace.folders.update(f"{root}{os.sep}{rel}" for rel in report.plan.vouched)
    if mode == "write":  # applied outside the trace: its writes are what `_after_write` vouches
        report.mode = "write"
        if _lock_folder(root) != begun or not _settled_before(begun, start):
            begun = {}  # swapped, or changed, while the run read it (or too close to its start)
        beside = _listed_before_write(root, [*report.plan.created, *report.plan.updated])
        report.written = writer.apply(root, report.plan)
        left = _lock_folder(root)  # as the write left it (`save` wants it still so), and
        begun = left if _same_folders(left, begun) else {}  # the same folder, its times moved
    data = report.to_dict()
    if not report.ok:
        return data
    if not report.plan.has_changes() and report.written == 0:
        results: dict[str, Any] = {"sync": data, "validate": finding_records(report.findings)}
        extra = delta.keep(root, reg, report, kept)
        save(root, results, start, reg, _singles(root, reg, data, report.plan), trace, stamp,
             extra=extra, clean=report.plan.clean)  # fmt: skip
    elif mode == "write":
        after = _after_write(root, reg, report, trace, names, beside)
        if after is not None:
            results, written, marks, listings = after
            singles = _singles(root, reg, results["sync"], report.plan)
            extra = delta.keep(root, reg, report, kept)
            save(root, results, start, reg, singles, trace, stamp, written, marks, listings, extra,
                 begun, report.plan.clean)  # fmt: skip
    return data


def _named_by(record: dict[str, Any] | None) -> Keep:
    """The replaced parse cache entries a full run keeps: those sync's `record` names (None: no
    record). That record stays when a sync records nothing, and the shortcut and the same-bytes
    check compare with what it names; any other is of no use."""
    return named_by({} if record is None else record["files"])


def _singles(root: Path, reg: Registry, data: dict[str, Any], plan: RenderPlan) -> list[str]:
    """The files a sync's record stats besides the walked folders: what validation reads, the
    outputs, and every client's MCP config (an absent one is only checked to exist: a new one
    holding the `orkestra` entry sync would withdraw is a change). The lock's paths are the
    plan's: the lock it left unchanged or wrote (the record checks the lock itself). And the
    folders the plan looks for a killed run's temporary file in (`RenderPlan.scanned`): one
    the write made was not there for it to list, yet a name added there is a change too."""
    from orkestra.render.targets.mcp_config import FILES

    servers = (spec.path for spec in FILES.values())
    lock = [*plan.lock_after, *plan.lock_servers, *plan.servers_before]
    folders = plan.scanned - {""}  # the project folder: recorded by its own path
    return sorted({*_outputs(root, reg, lock), *data["unchanged"], *servers, *folders})


def _after_write(
    root: Path,
    reg: Registry,
    report: Any,
    trace: Trace,
    names: list[str] | None,
    beside: dict[str, list[str]],
) -> tuple[dict[str, Any], dict[str, Output], dict[str, Any], dict[str, list[str]]] | None:
    """What the next full sync and `validate` will answer after this write, what each output
    now holds, the identities right after the write, and the names each folder written into
    must hold, as it held them before plus what the write added there: the project folder
    (`names`, as the run began) and each other one the user's files may lie in too (`beside`,
    listed just before the write: `_listed_before_write`); None when that is not certain: the
    write deleted something (a pruned output, a stale temporary file, a shared file emptied),
    took Orkestra's part out of the file of a target no longer configured (the next render has
    no output there, or another one when a second block was left), wrote into a folder the load
    or the render reads (a vendor root at `.agents/skills/`: the next load reads what it
    wrote), or validation fails now."""
    from orkestra.registry.render_lock import LOCK_PATH
    from orkestra.render import sync as sync_module
    from orkestra.render.plan import RenderPlan
    from orkestra.render.sync import SyncReport

    plan = report.plan
    if plan.deleted or plan.conflicts or any(o.remove for o in plan.outputs.values()):
        return None
    changed = [*plan.created, *plan.updated]
    configured = {*report.targets, *report.skipped_targets}
    if any(plan.outputs[rel].shared and (plan.outputs[rel].target not in configured
           or plan.outputs[rel].withdrawn) for rel in changed if rel in plan.outputs):  # fmt: skip
        return None  # a block taken out, a server withdrawn: the next render has no such output
    inputs = tuple(f"{f.rstrip('/')}/" for f in _folders(reg) or () if not f.startswith(os.sep))
    if any(f"{rel}/".startswith(inputs) for rel in changed if rel != LOCK_PATH):
        return None  # the lock is the one output the load never reads
    # what the write changed, as it left it (`_expected` refuses any that changed after this;
    # an output the write did not touch that changed during the run is refused too)
    made = [*changed, *ways(changed)]
    marks = {rel: _identity(f"{root}{os.sep}{rel}", links=True) for rel in made}
    marks[str(root)] = _identity(str(root), links=True)
    # validation reads the lock and the managed files as written: those rules run again
    with tracing(root) as again:
        try:
            found = sync_module.checked(reg, report.known)
        except OrkestraError:
            return None
    trace.merge(again)
    settled = RenderPlan(unchanged=sorted(plan.outputs))
    result = SyncReport("write", report.targets, settled, written=0, warnings=len(found),
                        skipped_targets=report.skipped_targets).to_dict()  # fmt: skip
    listings = _added_to(beside, made)
    if names is not None:  # and the state folder, which the caches may have just created
        top = {p for p in (*plan.outputs, *ways(plan.outputs)) if "/" not in p}
        listings[str(root)] = sorted({*names, *top, FOLDER})
    return {"sync": result, "validate": finding_records(found)}, plan.outputs, marks, listings


def _listed_before_write(root: Path, changed: list[str]) -> dict[str, list[str]]:
    """The names of each folder (relative to the project) a write is about to go into
    (`changed`: the outputs it creates or updates; the lock lies among the inputs, walked as
    such) that is there already: the user's workflows beside Copilot's instructions, their own
    agents in `.claude/agents/`. Listed top down just before the write: a folder its parent
    does not list is made by the write (nothing to list). A folder holding a write's temporary
    file is left out: another writer is at work there, or sync deletes it in time, which no
    listing vouches for (`_expected` then finds a name that is no output)."""
    from orkestra.core.safewrite import TEMP_RE
    from orkestra.registry.render_lock import LOCK_PATH

    found: dict[str, list[str]] = {}
    there: dict[str, set[str]] = {}
    for folder in sorted(ways(p for p in changed if p != LOCK_PATH), key=lambda f: f.count("/")):
        parent, _, name = folder.rpartition("/")
        if parent and name not in there.get(parent, ()):
            continue  # made by the write, or below a folder that is
        listed = _names(_full(root, folder))
        if listed is None:
            continue
        there[folder] = set(listed)
        if not any(n.startswith(".") and TEMP_RE.match(n) for n in listed):
            found[folder] = listed
    return found


def _added_to(before: dict[str, list[str]], made: Iterable[str]) -> dict[str, list[str]]:
    """Each folder of `before` (its names before a write) with the names the write put there
    (`made`: every file it wrote and every folder on their way)."""
    added: dict[str, set[str]] = {folder: set(names) for folder, names in before.items()}
    for rel in made:
        folder, _, name = rel.rpartition("/")
        names = added.get(folder)
        if names is not None:
            names.add(name)
    return {folder: sorted(names) for folder, names in added.items()}


def _names(folder: str) -> list[str] | None:
    """The sorted names in `folder`, None when it cannot be listed."""
    try:
        return sorted(os.listdir(folder))  # noqa: PTH208
    except OSError:
        return None


def finding_records(findings: Any) -> list[dict[str, Any]]:
    """Findings as a `validate` record holds them."""
    return [{"file": f.file, "line": f.line, "code": f.code, "severity": f.severity,
             "message": f.message} for f in findings]  # fmt: skip
