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
from pathlib import Path
from typing import Any

from orkestra.core import jsonio, safewrite
from orkestra.core.errors import InputError, OrkestraError
from orkestra.registry.render_lock import protected_part
from orkestra.render.manifest import LOCK_PATH, Entry, disk_digest

PATH = ".orkestra/pending-writes.json"
VERSION = 1


def record(root: Path, lock: str | None, files: Mapping[str, Entry | None]) -> None:
    """Before the first temporary file: `lock` is the sha256 of the lock the plan read (None:
    there was none), `files` the files about to be written (and those adopted from an earlier
    killed sync, which this one may not rewrite), each owned one with its entry. The previous
    record's paths whose folders still hold a temporary file are kept too (one not stale yet,
    its pid alive: it is looked at again later). Best effort: when it cannot be written, a
    killed sync leaves what it did."""
    entries: dict[str, Entry | None] = dict.fromkeys(_waiting(root))
    entries.update(files)
    body = {
        "version": VERSION,
        "lock": lock or "",
        "files": {
            p: [e.target, e.sha256] if e is not None and e.sha256 else None
            for p, e in sorted(entries.items())
        },
    }
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    try:
        safewrite.write_file(root, PATH, text)
    except (OSError, OrkestraError):
        return


def _waiting(root: Path) -> list[str]:
    """The previous record's paths (within `folders`) whose folder still holds a temporary file."""
    from orkestra.core.safewrite import TEMP_RE

    found = _read(root)
    if found is None:
        return []
    safe = folders(root)
    holding: dict[str, bool] = {}
    kept: list[str] = []
    for rel in found[2]:
        folder = rel.rpartition("/")[0]
        if folder not in holding:
            holding[folder] = folder in safe and _holds_temporary(root, folder, TEMP_RE)
        if holding[folder]:
            kept.append(rel)
    return kept


def _holds_temporary(root: Path, folder: str, pattern: Any) -> bool:
    try:
        with os.scandir(f"{root}/{folder}" if folder else root) as entries:
            return any(pattern.match(e.name) for e in entries)
    except OSError:
        return False


def clear(root: Path) -> None:
    """Once the lock records what the renames did: nothing is left to adopt. The record stays
    only for the folders that still hold a temporary file not stale yet (its pid alive), so a
    later sync looks there again."""
    if _waiting(root):
        record(root, None, {})  # no lock of its own: adopts nothing
        return
    try:
        safewrite.remove_file(root, PATH)
    except (OSError, OrkestraError):
        return


def folders(root: Path) -> set[str]:
    """The folders of the files a killed sync was writing (none when there is no record)."""
    found = _read(root)
    out: set[str] = set()
    for rel in [] if found is None else found[2]:
        try:  # a damaged record names nothing outside the project, nothing in `.git/`
            safewrite.check_relative(rel)
        except OrkestraError:
            continue
        if protected_part(rel) is None:
            out.add(rel.rpartition("/")[0])
    return out


def adopt(
    root: Path, owned: dict[str, Entry], allowed: Callable[[str, Entry], bool]
) -> dict[str, Entry]:
    """`owned` plus each file a killed sync renamed into place: listed in the record, holding
    the bytes it recorded, while the lock is still the one that sync read; `allowed` says which
    entries lie inside their target's output roots."""
    found = _read(root)
    if found is None:
        return owned
    lock, files, _ = found
    if (disk_digest(root, LOCK_PATH) or "") != lock:
        return owned  # the lock changed since (a later sync, a checkout): it says who owns what
    adopted = dict(owned)
    for rel, (target, sha) in files.items():
        entry = Entry(target, sha)
        if owned.get(rel) != entry and allowed(rel, entry) and disk_digest(root, rel) == sha:
            adopted[rel] = entry
    return adopted


def _read(root: Path) -> tuple[str, dict[str, tuple[str, str]], list[str]] | None:
    """(the lock's sha256, owned path -> (target, sha256), every path) as recorded; None when
    there is no record or it is not one (a damaged record adopts nothing)."""
    path = root / PATH
    try:
        data = jsonio.loads_derived(jsonio.read_text(path, follow=False), source=str(path))
    except (OSError, InputError):
        return None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return None
    lock, files = data.get("lock"), data.get("files")
    if not isinstance(lock, str) or not isinstance(files, dict):
        return None
    out: dict[str, tuple[str, str]] = {}
    for rel, item in files.items():
        if (
            isinstance(item, list)
            and len(item) == 2
            and all(isinstance(x, str) for x in item)
            and len(item[1]) == 64
        ):
            out[rel] = (item[0], item[1])
    return lock, out, [str(rel) for rel in files]


__all__ = ["PATH", "adopt", "clear", "folders", "record"]
