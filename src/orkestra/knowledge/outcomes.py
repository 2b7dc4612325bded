"""The last outcome of `notes check` per note, kept so search can mark and demote (§8.2).

A derived file under `.orkestra/` (gitignored, rebuilt by the next `notes check`): `{"version": 1,
"notes": {name: "confirmed" | "contradicted" | "ambiguous"}}`. Search reads it when it indexes the
knowledge base, and watches its stat so a new check re-ranks notes.
"""

from __future__ import annotations

import json
from pathlib import Path

from orkestra.core import jsonio, safewrite
from orkestra.core.errors import InputError

PATH = ".orkestra/notes-outcomes.json"
VERSION = 1


def read(root: Path) -> dict[str, str]:
    """Outcome per note name; empty when no check was recorded (or the file is unusable, as
    one a symlink takes out of the project: never read, §13)."""
    from orkestra.core.readfile import leaving

    if leaving(root, PATH) is not None:
        return {}
    try:
        data = jsonio.read_json(root / PATH)
    except (OSError, InputError):  # derived: absent or damaged means "never checked"
        return {}
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return {}
    notes = data.get("notes")
    if not isinstance(notes, dict):
        return {}
    return {str(k): v for k, v in notes.items() if isinstance(v, str)}


def save(root: Path, outcomes: dict[str, str]) -> bool:
    """Record the outcomes (through the one safe writer) when they differ; True when written.
    What stands there is read only when the writer could replace it (no symlink on the way:
    `check_target`) and only when it is a regular file: a FIFO would block the read, a link to
    `/dev/zero` never end it; the writer then refuses such a file, naming it."""
    from orkestra.core.readfile import open_regular

    text = json.dumps({"version": VERSION, "notes": dict(sorted(outcomes.items()))}, indent=1)
    path = root / safewrite.check_target(root, root / PATH)
    raw: bytes | None
    try:
        with open_regular(path, follow=False) as handle:
            raw = handle.read()
    except FileNotFoundError:
        raw = None
    except OSError:  # a FIFO, a device or a folder: `write_file` refuses it, naming it
        raw = b""
    if raw is not None and raw.decode("utf-8", errors="replace") == text + "\n":
        return False
    safewrite.write_file(root, path, text + "\n", expected_old=raw, durable=False)
    return True
