"""The writes a sync is about to make, kept until the lock records them.

A sync killed while it writes (SIGKILL, a power cut: nothing runs to clean up or to write a
partial lock) leaves temporary files, perhaps in a folder no later plan names (a skill removed
since), and, killed during the renames, files holding the new bytes that the lock still lists
with the old hash, which the next sync would take for files edited by hand. Before its first
temporary file, a sync `record`s (durably) `.orkestra/pending-writes.json`: the lock's sha256 as
the plan read it, and each file it is about to write, an owned one with its target and the
sha256 of its new bytes. The next sync looks for stale temporary files in their `folders`, and
`adopt`s such an owned file as Orkestra's when the lock is still the one read then and the file
holds exactly those new bytes. A later killed sync's record keeps what this one adopted (the lock
does not list it yet) and the folders still holding a temporary file; `clear`, once the lock
(whole or partial) is written, keeps only those folders (a temporary file whose pid is alive is
not stale yet) or removes the record. An entry outside its target's output roots is never adopted
(`render_lock.entry_problem`), the same rule as for the lock: this record, in the project's own
derived folder, can claim no more than the lock can.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from orkestra.core import jsonio, safewrite
from orkestra.core.errors import InputError, OrkestraError
from orkestra.registry.render_lock import protected_part
from orkestra.render.manifest import LOCK_PATH, Entry, disk_digest, load

PATH = ".orkestra/pending-writes.json"
VERSION = 1


def record(
    root: Path, lock: str | None, owned: Mapping[str, Entry], files: Mapping[str, Entry | None]
) -> None:
    """Before the first temporary file: `lock` is the sha256 of the lock the plan read (None:
    there was none), `owned` what the plan took as Orkestra's (the lock's entries and those
    `adopt`ed: these, which the lock does not list yet and this sync may not rewrite, are kept),
    `files` the files about to be written, each owned one with its new entry. The previous
    record's paths whose folders still hold a temporary file are kept too, as `waiting` (one
    not stale yet, its pid alive: it is looked at again later). Best effort: when it cannot be
    written, a killed sync leaves what it did."""
    found = _read(root)
    waiting = _holding(root, [] if found is None else found.paths)
    try:
        listed = load(root)
    except InputError:  # unreadable: the plan could not have read it, nothing was adopted
        listed = {}
    adopted = {p: e for p, e in owned.items() if listed.get(p) != e}
    _write(root, lock or "", {**dict.fromkeys(waiting), **adopted, **files}, waiting)


def clear(root: Path) -> None:
    """Once the lock records what the renames did: nothing is left to adopt. The record stays
    only for the `waiting` folders that still hold a temporary file not stale yet, so a later
    sync looks there again."""
    found = _read(root)
    waiting = _holding(root, [] if found is None else found.waiting)
    if waiting:
        _write(root, "", dict.fromkeys(waiting), waiting)  # no lock of its own: adopts nothing
        return
    try:
        safewrite.remove_file(root, PATH)
    except (OSError, OrkestraError):
        return


def _write(root: Path, lock: str, files: Mapping[str, Entry | None], waiting: list[str]) -> None:
    body = {
        "version": VERSION,
        "lock": lock,
        "files": {
            p: [e.target, e.sha256] if e is not None and e.sha256 else None
            for p, e in sorted(files.items())
        },
        "waiting": sorted(waiting),
    }
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    try:
        safewrite.write_file(root, PATH, text)
    except (OSError, OrkestraError):
        return


def _holding(root: Path, paths: list[str]) -> list[str]:
    """Those of a record's `paths` whose folder, inside the project and outside `.git/`, still
    holds a temporary file."""
    holding: dict[str, bool] = {}
    kept: list[str] = []
    for rel in paths:
        folder = _folder(rel)
        if folder is None:
            continue
        if folder not in holding:
            holding[folder] = safewrite.holds_temporary(f"{root}/{folder}" if folder else str(root))
        if holding[folder]:
            kept.append(rel)
    return kept


def exists(root: Path) -> bool:
    """Whether the record is there (written by a killed sync, or by hand: whatever it holds, a
    full sync reads it), without reading it."""
    return os.path.lexists(f"{root}{os.sep}{PATH}")


def folders(root: Path) -> set[str]:
    """The folders of the files a killed sync was writing (none when there is no record)."""
    found = _read(root)
    out = (_folder(rel) for rel in ([] if found is None else found.paths))
    return {folder for folder in out if folder is not None}


def _folder(rel: str) -> str | None:
    """The folder of a recorded path; None for one outside the project or in `.git/` (a damaged
    record names nothing there)."""
    try:
        safewrite.check_relative(rel)
    except OrkestraError:
        return None
    return rel.rpartition("/")[0] if protected_part(rel) is None else None


def adopt(
    root: Path, owned: dict[str, Entry], allowed: Callable[[str, Entry], bool]
) -> dict[str, Entry]:
    """`owned` plus each file a killed sync renamed into place: listed in the record, holding
    the bytes it recorded, while the lock is still the one that sync read; `allowed` says which
    entries lie inside their target's output roots."""
    found = _read(root)
    if found is None:
        return owned
    lock, files = found.lock, found.owned
    if (disk_digest(root, LOCK_PATH) or "") != lock:
        return owned  # the lock changed since (a later sync, a checkout): it says who owns what
    adopted = dict(owned)
    for rel, (target, sha) in files.items():
        entry = Entry(target, sha)
        if owned.get(rel) != entry and allowed(rel, entry) and disk_digest(root, rel) == sha:
            adopted[rel] = entry
    return adopted


@dataclass(frozen=True)
class _Record:
    lock: str  #: the lock's sha256 as read ("" when none)
    owned: dict[str, tuple[str, str]]  #: owned path -> (target, sha256 of its new bytes)
    paths: list[str]  #: every path recorded
    waiting: list[str]  #: paths kept from an earlier record: their folders held a temporary file


def _read(root: Path) -> _Record | None:
    """The record as written; None when there is none or it is not one (a damaged record adopts
    nothing)."""
    path = root / PATH
    try:
        data = jsonio.loads_derived(jsonio.read_text(path, follow=False), source=str(path))
    except (OSError, InputError):
        return None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return None
    lock, files, waiting = data.get("lock"), data.get("files"), data.get("waiting", [])
    if not isinstance(lock, str) or not isinstance(files, dict) or not isinstance(waiting, list):
        return None
    owned: dict[str, tuple[str, str]] = {}
    for rel, item in files.items():
        if (
            isinstance(item, list)
            and len(item) == 2
            and all(isinstance(x, str) for x in item)
            and len(item[1]) == 64
        ):
            owned[rel] = (item[0], item[1])
    paths = [str(rel) for rel in files]
    return _Record(lock, owned, paths, [w for w in waiting if isinstance(w, str) and w in files])


__all__ = ["PATH", "adopt", "clear", "folders", "record"]
