"""The parse cache: what loading each registry file produced, reused while the file is unchanged.

Derived data under `.orkestra/registry-cache/`: the registry files are spread over `SHARDS` JSON
files by a hash of their path, so a change rewrites one shard, not the whole cache. A shard is
rebuilt whenever it is missing, unreadable, malformed or from another version of Orkestra. An entry
is keyed by the file's identity (size, mtime_ns, ctime_ns, inode, device); when the file's last change
falls within `RACY_NS` (`FINE_RACY_NS` where times have sub-second precision) of the moment the
entry was recorded (a change in the same timestamp tick would keep the identity), the content's
sha256 confirms it. An entry holds the file's plain parsed
data and its *ops*: the findings it raised and the entries it placed, replayed in the same order as
a cold load so the result is identical; duplicates and every cross-reference check are recomputed
by the caller. Two processes may load at once: each writes the shards it changed, each atomically,
under a lock.
Standard library only at import time.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import time
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeGuard

from orkestra.core import jsonio
from orkestra.core.clock import Reading
from orkestra.core.errors import InputError, OrkestraError
from orkestra.core.stamp import changed_at
from orkestra.registry import lazy

#: the cache's folder, relative to the project root (one JSON file per shard)
CACHE = ".orkestra/registry-cache"
LOCK = ".orkestra/registry-cache.lock"
#: the one-file cache of earlier versions: removed when the shards are written
OLD_CACHE = ".orkestra/registry-cache.json"
#: how many shard files the entries are spread over (a one-file change rewrites a sixteenth)
SHARDS = 16
#: bump when the entry layout or the meaning of ops changes
SCHEMA = 2
#: a file modified this close to when its entry was recorded is confirmed by content hash (on
#: a file system that keeps whole seconds, or for a file whose times are whole)
RACY_NS = 2_000_000_000
#: the racy window where timestamps have sub-second precision: well above a kernel tick
FINE_RACY_NS = 100_000_000

#: at most this many replaced entries (`ParseCache.entry_for`) are kept: enough for the edits
#: between two syncs, never a second copy of the cache
MAX_REPLACED = 64
#: which replaced entries a cache keeps: all (True), none, or those a test of (path, identity)
#: accepts
Keep = bool | Callable[[str, list[int]], bool]


def named_by(files: Mapping[str, Any]) -> Keep:
    """Keep the replaced entries whose identity `files` (path -> identity: a run's record)
    names: those a later run compares with what that record read."""
    return lambda rel, ident: files.get(rel) == ident


#: where a replayed op may put things on the Registry (a hostile cache cannot reach elsewhere)
PLACE_TARGETS = frozenset(
    {"identities", "mindsets", "styles", "agents", "commands", "skills", "decisions", "truths"}
)
SET_ATTRS = frozenset({"config", "tools", "values", "decisions_registry"})
DICT_ATTRS = frozenset({"scopes", "truth_files"})
SKILL_FIELDS = frozenset(
    {"name", "description", "layer", "type", "source", "tags", "allowed_tools", "scopes",
     "folder", "tier", "provider", "imported"}
)  # fmt: skip


def shard_of(rel: str) -> int:
    """The shard holding the entry of registry file `rel` (the same in every process)."""
    return zlib.crc32(rel.encode("utf-8", "surrogatepass")) % SHARDS


def shard_path(shard: int) -> str:
    """A shard's file, relative to the project root."""
    return f"{CACHE}/{shard:02x}.json"


def identity(st: os.stat_result) -> list[int]:
    """What makes a file 'unchanged' without reading it."""
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


def _window(st: os.stat_result) -> int:
    return _window_at(changed_at(st))


def _window_at(changed: int) -> int:
    """How close to a change (at `changed`, ns) a recording is racy: `FINE_RACY_NS` where the
    file system keeps sub-second times, `RACY_NS` where the time of the last change is whole
    seconds (a FAT mtime moves in 2 s steps beside a fine creation time; an mtime set back to a
    whole second is followed by a fine ctime)."""
    return RACY_NS if changed % 1_000_000_000 == 0 else FINE_RACY_NS


def vouched(entry: list[Any]) -> bool:
    """True when `entry` was recorded after its file's last change by more than the racy
    window: its identity then stands for the content it holds (else only a hash check would)."""
    changed = max(entry[1], entry[2])
    return bool(changed + _window_at(changed) < entry[5])


def digest(text: str) -> str:
    import hashlib  # not on the warm path: only a changed or just-written file is hashed

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


#: the sources whose edits change what loading produces (beside every model module)
_SOURCES = ("registry/loader.py", "registry/lazy.py", "registry/cache.py", "core/yamlio.py")


def stamp() -> str:
    """The version key: Orkestra's version, the cache schema and the loader's own sources (an
    edited model or loader in a development checkout must not reuse old results), Python's
    version and the libraries' folders (another PyYAML parses, another pydantic validates and
    words its errors otherwise: `core.stamp.library_marks`)."""
    from orkestra import __version__
    from orkestra.core.stamp import file_marks, library_marks

    package = Path(__file__).parent.parent
    paths = [package / rel for rel in _SOURCES]
    with os.scandir(package / "registry" / "models") as entries:
        paths += sorted(Path(e.path) for e in entries if e.name.endswith(".py"))
    versions = [__version__, str(SCHEMA), sys.version, *library_marks()]
    return "|".join([*versions, *file_marks(paths)])


class Hit:
    """A cached file's plain data and ops, ready to replay."""

    __slots__ = ("ops", "raw")

    def __init__(self, raw: Any, ops: list[Any]) -> None:
        self.raw = raw
        self.ops = ops


class ParseCache:
    """The parse cache of one project, read once per load and written back if anything changed."""

    def __init__(
        self, root: Path, shards: set[int] | None = None, *, keep_replaced: Keep = True
    ) -> None:
        self.root = root
        self.version = stamp()
        #: the shards to write back: an entry in them was added, changed or dropped
        self.dirty: set[int] = set()
        self.used: set[str] = set()
        self.usable = _inside(root)
        #: the shards read (None: all of them, a whole load: entries not used are dropped)
        self.shards = shards
        #: each file's entry before the one that replaced it, when that one was vouched: a run's
        #: record names the identity it read, which another command's load may have moved on
        #: from (`entry_for`); `keep_replaced` says which to keep (those read and those replaced
        #: now): all, or those a test of (path, identity) accepts (a sync: those its record names)
        self.replaced: dict[str, Any] = {}
        self.keep_replaced = keep_replaced
        self.files: dict[str, Any] = self._read() if self.usable else {}
        self.reading = Reading(root)

    def behind(self) -> int:
        """How far the project's file clock lags this process's (`core.clock.Reading`), read
        once, by the first entry recorded: a recorded time has it taken off."""
        return self.reading.lag() if self.usable else 0

    def _read(self) -> dict[str, Any]:
        files: dict[str, Any] = {}
        for shard in range(SHARDS) if self.shards is None else sorted(self.shards):
            found = self._shard(shard)
            if found is None:  # missing, unreadable, corrupt or another version's: rebuilt
                self.dirty.add(shard)
                continue
            entries, replaced = found
            for rel, entry in entries.items():
                if shard_of(rel) == shard:
                    files[rel] = entry
                else:  # not where this version puts it: the shard is written again
                    self.dirty.add(shard)
            for rel, entry in replaced.items():
                if shard_of(rel) == shard and rel in files and self._keeps(entry, rel):
                    self.replaced[rel] = entry
                else:
                    self.dirty.add(shard)
        return files

    def _shard(self, shard: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """One shard's entries and replaced entries, None when it cannot be used (or does not
        exist yet)."""
        path = self.root / shard_path(shard)
        try:  # a symlink planted at a shard is never read through
            data = jsonio.read_sealed(path, follow=False)
        except (OSError, InputError):
            return None
        if (
            not isinstance(data, dict)
            or data.get("version") != self.version
            or not isinstance(data.get("files"), dict)
            or not isinstance(data.get("replaced", {}), dict)
        ):
            return None
        return data["files"], data.get("replaced", {})

    def entry_for(self, rel: str, ident: Any) -> list[Any] | None:
        """`rel`'s entry for identity `ident`: the current one, or the one it replaced."""
        for entry in (self.files.get(rel), self.replaced.get(rel)):
            if _entry_ok(entry) and entry[:5] == ident:
                return entry
        return None

    def _retire(self, rel: str, ident: list[int]) -> None:
        """Keep `rel`'s entry as the replaced one when a new entry of another identity takes
        its place and it was vouched (its identity stands for its content)."""
        old = self.files.get(rel)
        if rel not in self.replaced and len(self.replaced) >= MAX_REPLACED:
            return  # a checkout or a mass edit: the cache stays its size (a full run follows)
        if self._keeps(old, rel) and old[:5] != ident and vouched(old):
            self.replaced[rel] = old

    def _keeps(self, entry: Any, rel: str) -> TypeGuard[list[Any]]:
        """Whether `entry` is one to keep as `rel`'s replaced entry (well formed, and wanted)."""
        if not _entry_ok(entry):
            return False
        keep = self.keep_replaced
        return keep if isinstance(keep, bool) else keep(rel, entry[:5])

    def lookup(
        self, rel: str, path: Path, known: os.stat_result | None = None, seen: int | None = None
    ) -> tuple[Hit | None, os.stat_result | None, int]:
        """(the cached result if `path` is unchanged, its stat, when it was taken). `known`: its
        stat taken at `seen` by the caller (a plain file's lstat), else it is taken here."""
        if known is None or seen is None:
            seen = time.time_ns()
            try:
                known = path.stat()
            except OSError:
                return None, None, seen
        st = known
        self.used.add(rel)
        entry: list[Any] = self.files.get(rel)  # type: ignore[assignment]  # shape checked next
        if not _entry_ok(entry) or entry[:5] != identity(st):
            return None, st, seen
        if changed_at(st) + _window(st) >= entry[5] and not self._confirm(entry, path, rel, st):
            return None, st, seen
        return Hit(entry[7], entry[8]), st, seen

    def _confirm(self, entry: list[Any], path: Path, rel: str, st: os.stat_result) -> bool:
        """Content check of an entry recorded within a timestamp tick of the file's change."""
        # the text yamlio.read_text gave when the entry was stored (no YAML import here), read
        # under the identity looked up (a symlink inside the project: what it links to)
        text = _text_at(path, identity(st), follow=True)
        if text is None or digest(text) != entry[6]:
            return False
        now = time.time_ns()
        if changed_at(st) + _window(st) < now:  # settled now: later runs skip the hash
            now -= self.behind()  # (by the file system's clock)
            if changed_at(st) + _window(st) < now:
                entry[5] = now
                self.dirty.add(shard_of(rel))
        return True

    def store(
        self, rel: str, st: os.stat_result, seen: int, text: str, raw: Any, ops: list[Any]
    ) -> None:
        """Record what loading `rel` produced (ops already in their JSON form); `seen`: when
        its identity was taken, by this process's clock."""
        self._retire(rel, identity(st))
        self.files[rel] = [*identity(st), seen - self.behind(), digest(text), raw, ops]
        self.dirty.add(shard_of(rel))

    def offer(self, rel: str, entry: Any) -> None:
        """An entry another process made for `rel` this run (`registry.prefetch`), looked up
        like any other: used only while the file keeps the identity it was made at."""
        if _entry_ok(entry):
            self._retire(rel, entry[:5])
            self.files[rel] = entry
            self.dirty.add(shard_of(rel))

    def forget(self, rel: str) -> None:
        self.replaced.pop(rel, None)
        if self.files.pop(rel, None) is not None:
            self.dirty.add(shard_of(rel))

    def save(self) -> None:
        """Write back the shards that changed; entries of files no longer loaded are dropped.

        The cache is an optimisation: when `.orkestra/` cannot be written (a read-only
        checkout), loading still succeeded and the next run simply parses again.
        """
        for rel in set(self.files) - self.used if self.shards is None else ():
            del self.files[rel]
            self.replaced.pop(rel, None)
            self.dirty.add(shard_of(rel))
        if not (self.dirty and self.usable):
            return
        from orkestra.core import lock, safewrite

        shards: dict[int, dict[str, Any]] = {shard: {} for shard in self.dirty}
        replaced: dict[int, dict[str, Any]] = {shard: {} for shard in self.dirty}
        for rel, entry in self.files.items():
            found = shards.get(shard_of(rel))
            if found is not None:
                found[rel] = entry
        for rel, entry in self.replaced.items():
            found = replaced.get(shard_of(rel))
            if found is not None:
                found[rel] = entry
        try:
            with lock.locked(self.root / LOCK, root=self.root):
                for shard, files in sorted(shards.items()):
                    # trees: YAML anchors and aliases are refused (`yamlio`), ops are built
                    # fresh, entries read back are JSON: no cycle to look for (a fifth faster)
                    kept = {"replaced": replaced[shard]} if replaced[shard] else {}
                    payload = json.dumps(
                        {"version": self.version, "files": files, **kept},
                        ensure_ascii=False,
                        separators=(",", ":"),
                        check_circular=False,
                    )
                    try:  # one shard that cannot be written (a folder there) spoils no other
                        safewrite.write_file(
                            self.root, shard_path(shard), jsonio.sealed(payload), durable=False
                        )
                    except OrkestraError:
                        continue
                    self.dirty.discard(shard)
                safewrite.remove_file(self.root, OLD_CACHE)
        except (OSError, OrkestraError):  # read-only project: nothing to cache into
            return


def same_bytes(root: Path, moved: dict[str, tuple[Any, Any]], keep: bool = True) -> bool | None:
    """Whether registry files whose identity changed since a run recorded them still hold the
    bytes they held then: a save with no change, `touch`, a checkout writing the same bytes.
    `moved` maps each path to (its identity then, its identity now). Each must have a vouched
    entry for the identity then (stored once its change had settled, so the entry's sha256 is
    of the bytes that identity stands for) and hold now, read under the identity now, bytes of
    the same size and sha256; what loading it gives depends on nothing else. None when any
    cannot be shown to: a changed or unreadable file, no entry, an entry of another version.
    True when all hold the same bytes and each changed outside the racy window before it was
    read: with `keep`, their entries then take the identities now (written back), so that
    those identities vouch for the same entries. False when all hold the same bytes but one
    changed within that window (an edit in the same tick may keep the identity now): nothing
    is kept."""
    if not moved or not all(_identity_ok(was) and _identity_ok(now) for was, now in moved.values()):
        return None
    if any(now[0] != was[0] for was, now in moved.values()):  # an edit that changed the size
        return None  # (the same size too: the same text and the same byte order mark)
    cache = ParseCache(root, shards={shard_of(rel) for rel in moved})  # none: nothing usable
    settled = True
    for rel, (was, now) in moved.items():
        entry = cache.entry_for(rel, was)  # another command's load may have replaced it
        if entry is None or not vouched(entry):
            return None
        seen = time.time_ns() - cache.behind()
        text = _text_at(root / rel, now)
        if text is None or digest(text) != entry[6]:
            return None
        renewed = [*now, seen, *entry[6:]]
        if vouched(renewed):
            cache.files[rel] = renewed
            cache.dirty.add(shard_of(rel))
        else:
            settled = False
    if settled and keep:
        cache.save()
    return settled


def _identity_ok(ident: Any) -> bool:
    """A file's identity as `identity` gives it: five ints."""
    return type(ident) is list and len(ident) == 5 and all(type(i) is int for i in ident)


def _text_at(path: Path, ident: list[int], follow: bool = False) -> str | None:
    """The text of the regular file at `path` (decoded as `yamlio.read_text` decodes it), when
    it has identity `ident` before and after the read (`core.readfile`: never blocking on a
    FIFO; never through a symlink unless `follow`)."""
    from orkestra.core.readfile import open_regular

    try:
        with open_regular(path, follow=follow) as handle:
            if identity(os.fstat(handle.fileno())) != ident:
                return None
            data = handle.read()
            if identity(os.fstat(handle.fileno())) != ident:
                return None
        return data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None


def _inside(root: Path) -> bool:
    """True when the cache and its lock would be real inside the project: `.orkestra/` and the
    cache's folder real folders (or absent), the lock a real file (or absent), no symlink. Else
    there is no cache, read or written (`core.safewrite` refuses the write too; this keeps the
    read path free of it). A shard is read without following a symlink at its own path."""
    from orkestra.core.readfile import absent_or_kind

    return absent_or_kind(
        root, ((".orkestra", stat.S_ISDIR), (CACHE, stat.S_ISDIR), (LOCK, stat.S_ISREG))
    )


def _entry_ok(entry: Any) -> TypeGuard[list[Any]]:
    return (
        isinstance(entry, list)
        and len(entry) == 9
        and all(type(x) is int for x in entry[:6])
        and isinstance(entry[6], str)
        and isinstance(entry[8], list)
    )


def ops_ok(ops: list[Any]) -> bool:
    """Shape check of a cached entry's ops; a malformed entry is parsed again, never trusted."""
    return all(_op_ok(op) for op in ops)


def _op_ok(op: Any) -> bool:
    if type(op) is not list or not op:
        return False
    kind, n = op[0], len(op)
    if kind == "F":
        return n == 5 and _strs(op, 1, 4) and (op[4] is None or type(op[4]) is int)
    if kind == "L":
        return n == 5 and _strs(op, 1, 4) and type(op[4]) is int
    if kind == "P":
        return (
            n == 8
            and _strs(op, 1, 4)
            and type(op[4]) is int
            and op[5] in PLACE_TARGETS
            and type(op[6]) is str
            and obj_ok(op[7])
        )
    if kind == "S":
        return n == 3 and op[1] in SET_ATTRS and obj_ok(op[2])
    if kind == "D":
        return n == 4 and op[1] in DICT_ATTRS and type(op[2]) is str and obj_ok(op[3])
    return False


def obj_ok(obj: Any) -> bool:
    """A cached object: a model spec, a list of them, or a core skill entry."""
    if not isinstance(obj, dict):
        return False
    if "list" in obj:
        return isinstance(obj["list"], list) and all(lazy.valid_spec(s) for s in obj["list"])
    if "skill" in obj:
        fields = obj["skill"]
        return (
            isinstance(fields, dict)
            and set(fields) == SKILL_FIELDS
            and (obj.get("core") is None or lazy.valid_spec(obj["core"]))
        )
    return lazy.valid_spec(obj)


def _strs(op: list[Any], start: int, stop: int) -> bool:
    return all(type(op[i]) is str for i in range(start, stop))
