"""The writes a sync is about to rename into place, kept until the lock records them.

The lock is written after every rename (`writer._carry_out`), so a sync killed during the renames
(SIGKILL, a power cut: nothing runs to write a partial lock) leaves files holding the new bytes
that the lock still lists with the old hash, and the next sync would take them for files edited
by hand. Just before the first rename, `record` writes (durably) `.orkestra/pending-writes.json`:
the lock's sha256 as the plan read it, and each owned file about to be renamed with its target
and the sha256 of its new bytes. The next sync's `adopt` counts such a file as Orkestra's when the
lock is still the one read then and the file holds exactly those new bytes; `clear` removes the
record once the lock (whole or partial) is written. An entry outside its target's output roots
is never adopted (`render_lock.entry_problem`), the same rule as for the lock: this record, in
the project's own derived folder, can claim no more than the lock can.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path

from orkestra.core import jsonio, safewrite
from orkestra.core.errors import InputError, OrkestraError
from orkestra.render.manifest import LOCK_PATH, Entry, disk_digest

PATH = ".orkestra/pending-writes.json"
VERSION = 1


def record(root: Path, lock: str | None, files: Mapping[str, Entry]) -> None:
    """Before the renames: `lock` is the sha256 of the lock the plan read (None: there was
    none), `files` the owned files about to be renamed, each with its new sha256. Best effort:
    when it cannot be written, a sync killed during the renames leaves conflicts, as before."""
    body = {
        "version": VERSION,
        "lock": lock or "",
        "files": {p: [e.target, e.sha256] for p, e in sorted(files.items()) if e.sha256},
    }
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    try:
        safewrite.write_file(root, PATH, text)
    except (OSError, OrkestraError):
        return


def clear(root: Path) -> None:
    """Once the lock records what the renames did: the record is of no use any more."""
    try:
        safewrite.remove_file(root, PATH)
    except (OSError, OrkestraError):
        return


def adopt(
    root: Path, owned: dict[str, Entry], allowed: Callable[[str, Entry], bool]
) -> dict[str, Entry]:
    """`owned` plus each file a killed sync renamed into place: listed in the record, holding
    the bytes it recorded, while the lock is still the one that sync read; `allowed` says which
    entries lie inside their target's output roots."""
    found = _read(root)
    if found is None:
        return owned
    lock, files = found
    if (disk_digest(root, LOCK_PATH) or "") != lock:
        return owned  # the lock changed since (a later sync, a checkout): it says who owns what
    adopted = dict(owned)
    for rel, (target, sha) in files.items():
        entry = Entry(target, sha)
        if owned.get(rel) != entry and allowed(rel, entry) and disk_digest(root, rel) == sha:
            adopted[rel] = entry
    return adopted


def _read(root: Path) -> tuple[str, dict[str, tuple[str, str]]] | None:
    """(the lock's sha256, path -> (target, sha256)) as recorded; None when there is no record
    or it is not one (a damaged record adopts nothing)."""
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
    return lock, out


__all__ = ["PATH", "adopt", "clear", "record"]
