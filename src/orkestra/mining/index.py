"""The commit index under `.orkestra/mining/` (derived: delete it and `mine sync` rebuilds it).

Files:
- `index.json`  a small header: HEAD sha, commit count, digests of the config it was built with,
  the size of `commits.idx`; enough for a no-op sync to decide without reading the records;
- `commits.idx` one commit a line, `sha<TAB>json`, oldest batch first (newest commits at the end),
  so a reader can look at the sha of each line without parsing the JSON;
- `stats.json`  insertions/deletions computed on demand (`--numstat` is slow) and cached.

Standard library only: the no-op path (`orkestra.mining.noop`) imports this module.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from orkestra.core import jsonio, project
from orkestra.core.errors import InputError, OrkestraError

#: bumped when the records of a commit change (an index of another version is rebuilt)
VERSION = 4
FOLDER = Path(".orkestra") / "mining"
CONFIG = Path(project.CONFIG)

Record = dict[str, Any]


def folder(root: Path) -> Path:
    return root / FOLDER


def _safe(root: Path, name: str) -> Path:
    """The index file `name` of the project at `root`; UnsafePathError when a symlink stands
    there or on its way (`safewrite.check_target`): what it leads to is neither read nor
    written (PRODUCT.md §13), the message names it. A file where the index's folder belongs
    (`.orkestra` made a file) is a ConflictError saying what the folder is and what to do."""
    from orkestra.core import safewrite
    from orkestra.core.errors import ConflictError

    try:
        return root / safewrite.check_target(root, f"{FOLDER.as_posix()}/{name}")
    except ConflictError as exc:
        raise ConflictError(
            f"'{exc.file}' is a file where Orkestra's cache folder belongs (the commit index is "
            f"kept in {FOLDER.as_posix()}/); move it away or delete it: the folder holds only "
            "derived data, rebuilt from git by `orkestra mine sync`",
            file=exc.file,
        ) from None


def unusable(root: Path) -> OrkestraError | None:
    """Why the commit index of `root` can be neither read nor written (a file or a symlink where
    its folder belongs: the error naming it), or None. A command that can answer without the
    index answers and warns with it; one that cannot raises it."""
    from orkestra.core.errors import ConflictError, UnsafePathError

    try:
        _safe(root, "index.json")
    except (ConflictError, UnsafePathError) as exc:
        return exc
    return None


def config_digest(root: Path) -> str:
    """Digest of `orkestra.yaml` as bytes (a change may alter packages or domains)."""
    try:
        data = (root / CONFIG).read_bytes()
    except OSError:  # no readable orkestra.yaml: the empty digest; the config loader reports why
        return ""
    return f"{zlib.crc32(data):08x}-{len(data)}"  # change detection only; zlib imports fast


class Header:
    """The index header (a plain class: `dataclasses` costs the no-op path an `inspect` import)."""

    FIELDS = ("head", "count", "config", "mining", "size", "shallow")

    def __init__(
        self, head: str, count: int, config: str, mining: str, size: int, shallow: list[str]
    ) -> None:
        self.head = head
        self.count = count
        self.config = config  # digest of orkestra.yaml bytes
        self.mining = mining  # digest of the effective mining configuration
        self.size = size  # bytes of commits.idx when the header was written
        self.shallow = shallow

    def to_dict(self) -> dict[str, Any]:
        return {"version": VERSION, **{k: getattr(self, k) for k in self.FIELDS}}


def read_header(root: Path) -> Header | None:
    """The header, or None when the index is missing, unreadable or of another version."""
    try:
        data = jsonio.read_json(_safe(root, "index.json"))
        if data.pop("version") != VERSION:
            return None
        header = Header(**data)
        if _safe(root, "commits.idx").lstat().st_size != header.size:
            return None  # records changed behind our back: rebuild
        return header
    except (OSError, InputError, AttributeError, TypeError, KeyError):  # missing or damaged:
        return None  # the index is rebuilt from git


def _write(path: Path, data: bytes) -> None:
    """Atomic replace without fsync (the index is a derived cache, rebuilt if ever lost), through
    the safe writer; `path` is a file of the index folder of a project."""
    from orkestra.core import safewrite

    safewrite.write_file(path.parents[len(FOLDER.parts)], path, data, durable=False)


def write_json(path: Path, data: Any) -> None:
    """A derived JSON file in the index folder (atomic replace, no fsync)."""
    _write(path, json.dumps(data, separators=(",", ":")).encode())


def write_header(root: Path, header: Header) -> None:
    _write(folder(root) / "index.json", json.dumps(header.to_dict()).encode())


_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def encode(record: Record) -> str:
    return f"{record['sha']}\t{_ENCODE(record)}\n"


def write_records(root: Path, records: Iterable[Record]) -> int:
    """Replace the record file; return its size in bytes."""
    return write_lines(root, [encode(r) for r in records])


def write_lines(root: Path, lines: list[str]) -> int:
    """Replace the record file with encoded lines; return its size in bytes."""
    data = "".join(lines).encode("utf-8")
    _write(folder(root) / "commits.idx", data)
    return len(data)


def append_records(root: Path, records: list[Record]) -> int:
    """Append records (oldest first); return the new size of the record file."""
    path = _safe(root, "commits.idx")
    path.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    with os.fdopen(os.open(path, flags, 0o644), "ab") as handle:
        handle.write("".join(encode(r) for r in records).encode("utf-8"))
    return path.lstat().st_size


def raw_lines(root: Path) -> list[str]:
    """Every record line, oldest first (unparsed)."""
    from orkestra.core.readfile import open_regular

    try:
        with open_regular(_safe(root, "commits.idx"), follow=False) as handle:
            text = handle.read().decode("utf-8")
    except FileNotFoundError:  # not mined yet
        return []
    # "\n" only: a record may hold U+2028, U+0085 or other characters `splitlines` breaks at
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


def shas(root: Path) -> list[str]:
    """Every indexed sha, oldest first."""
    return [line[:40] for line in raw_lines(root)]


def records(root: Path) -> list[Record]:
    """Every record, oldest first (`IndexDamaged` on a damaged line)."""
    lines = raw_lines(root)
    try:
        data = jsonio.loads_many([line[41:] for line in lines], source=_SOURCE)
    except InputError:
        data = []  # the careful pass below names the damaged line
    if len(data) == len(lines) and all(
        isinstance(r, dict) and r.get("sha") == line[:40]
        for r, line in zip(data, lines, strict=True)
    ):
        return data
    return [decode(line, number, root=root) for number, line in enumerate(lines, start=1)]


def newest_first(root: Path, block: int = 1 << 18) -> Iterator[tuple[str, str]]:
    """(sha, line) pairs from the newest commit back, reading the file backwards in blocks
    (a caller that stops early never reads the whole index); parse a line with `decode`."""
    from orkestra.core.readfile import open_regular

    try:
        handle = open_regular(_safe(root, "commits.idx"), follow=False)
    except FileNotFoundError:  # not mined yet
        return
    with handle:
        end = handle.seek(0, os.SEEK_END)
        tail = b""
        while end > 0:
            start = max(0, end - block)
            handle.seek(start)
            data = handle.read(end - start) + tail
            end = start
            lines = data.split(b"\n")
            tail = lines.pop(0) if start > 0 else b""
            for raw in reversed(lines):
                if raw:
                    line = raw.decode("utf-8")
                    yield line[:40], line


class LazyRecords(Mapping[str, Record]):
    """sha -> record over the raw lines, each decoded on first use (a changelog needs the
    records of its released commits only); parents, and whether a commit may be a revert, are
    read from the line itself, as `encode` wrote it, without decoding the rest."""

    #: how `encode` (through `reader.make_record`) starts a record, and ends one that reverts
    #: nothing (`signals.reverts` is its last key)
    _HEAD = '{"sha":"'
    _NO_REVERT = '"reverts":null}}'

    def __init__(self, root: Path) -> None:
        self._root = root
        self._lines = {line[:40]: line for line in raw_lines(root)}
        self._done: dict[str, Record] = {}

    def __getitem__(self, sha: str) -> Record:
        record = self._done.get(sha)
        if record is None:
            record = self._done[sha] = decode(self._lines[sha], root=self._root)
        return record

    def __iter__(self) -> Iterator[str]:
        return iter(self._lines)

    def __len__(self) -> int:
        return len(self._lines)

    def __contains__(self, sha: object) -> bool:
        return sha in self._lines

    def parents(self, sha: str) -> list[str]:
        line = self._lines[sha]
        start = 41 + len(self._HEAD) + 40 + len('","parents":[')
        if line.startswith(f'{self._HEAD}{sha}","parents":[', 41):
            end = line.find("]", start)
            return [p.strip('"') for p in line[start:end].split(",")] if end > start else []
        return list(self[sha]["parents"])

    def maybe_reverts(self) -> Iterator[str]:
        """Shas of the commits whose record may name a reverted commit."""
        return (sha for sha, line in self._lines.items() if not line.endswith(self._NO_REVERT))


class IndexDamaged(InputError):
    """A record line of commits.idx is not what `encode` wrote; the index must be rebuilt."""


def decode(line: str, number: int | None = None, *, root: Path | None = None) -> Record:
    """The record of one commits.idx line (through the limited JSON reader).

    A damaged line raises `IndexDamaged` naming the file (and the line when `number` is known);
    with `root` the damaged index is removed first, so the next `mine sync` rebuilds it from git.
    """
    try:
        record = jsonio.loads(line[41:], source=_SOURCE, line=number or 1)
        why = None if isinstance(record, dict) and record.get("sha") == line[:40] else "no record"
    except InputError as exc:
        why = exc.message
    if why is None:
        return record  # type: ignore[no-any-return]
    fix = f"remove {FOLDER.as_posix()}/, then run"
    if root is not None:
        if number is None:  # read backwards (newest_first): find the line for the message
            lines = raw_lines(root)
            number = lines.index(line) + 1 if line in lines else None
        remove(root)
        fix = "it was removed: run"
    raise IndexDamaged(_DAMAGED.format(why, fix), file=_SOURCE, line=number)


_SOURCE = f"{FOLDER.as_posix()}/commits.idx"
_DAMAGED = "the commit index is damaged ({}); {} `orkestra mine sync` to rebuild it"


def read_stats(root: Path) -> dict[str, list[int]]:
    try:
        data = jsonio.read_json(_safe(root, "stats.json"))
    except (OSError, InputError):  # derived statistics, absent or damaged: recomputed
        return {}
    return data if isinstance(data, dict) else {}


def write_stats(root: Path, stats: dict[str, list[int]]) -> None:
    _write(folder(root) / "stats.json", json.dumps(stats, sort_keys=True).encode())


def remove(root: Path) -> None:
    """Delete the index files (a rebuild follows)."""
    for name in ("index.json", "commits.idx", "stats.json", "classified.json"):
        (folder(root) / name).unlink(missing_ok=True)
