"""Claim files `knowledge/claims/YYYY-MM-DD-<topic>.json` = `{"insights": [...]}`."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from orkestra.core import jsonio, safewrite
from orkestra.core.errors import InputError

CLAIMS_DIR = "claims"
CATEGORIES = ("technical", "solution", "pattern", "tool", "warning")
LEVELS = ("low", "medium", "high")
_FILE = re.compile(r"^\d{4}-\d{2}-\d{2}-[a-z0-9]+(-[a-z0-9]+)*\.json$")


def confidence(seen_count: int) -> str:
    """Repetition is confidence: 1 → low, 2–3 → medium, 4+ → high."""
    if seen_count >= 4:
        return "high"
    return "medium" if seen_count >= 2 else "low"


def normalised(statement: str) -> str:
    """A statement's words, lower-cased: what two claims saying the same thing share."""
    return " ".join(re.findall(r"[\w']+", statement.lower()))


def claim_id(statement: str) -> str:
    """A stable id from the normalised statement: `CL-` and 8 hex digits."""
    norm = normalised(statement)
    import hashlib  # only when a claim is made: `notes check` counts claims without it

    return "CL-" + hashlib.sha1(norm.encode("utf-8")).hexdigest()[:8]


def slug(text: str) -> str:
    """A file-name topic: lower-case words joined by dashes (at most 6 words, 80 characters)."""
    words = re.findall(r"[a-z0-9]+", text.lower())[:6]
    return "-".join(words)[:80].strip("-") or "general"


#: a claim's text fields (strings, or lists of strings)
TEXT_FIELDS = ("statement", "context", "topic", "tags", "sources")


def nul_field(claim: dict[str, Any]) -> str | None:
    """The first text field of `claim` holding a NUL character (§13), or None."""
    for key in TEXT_FIELDS:
        value = claim.get(key)
        texts = value if isinstance(value, list) else [value]
        if any(isinstance(t, str) and "\x00" in t for t in texts):
            return key
    return None


def stored_problem(claim: dict[str, Any]) -> tuple[str, str] | None:
    """(field, what is wrong) for a stored claim that reinforcing or promoting cannot use as it
    stands (a claims file edited by hand), or None."""
    count = claim.get("seen_count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        return "seen_count", "seen_count must be a whole number of sightings (1 or more)"
    for key in ("sources", "tags"):
        value = claim.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return key, f"{key} must be a list of strings"
    if not isinstance(claim.get("context", ""), str):
        return "context", "context must be a string"
    return None


def check_stored(
    folder: Path, rel: str, index: int, claim: dict[str, Any], raw: bytes | None, command: str
) -> None:
    """InputError at the bad field's line in the claims file `rel` (its bytes `raw`, read again
    when None) when `stored_problem` finds one; `command` is what to run again once fixed."""
    problem = stored_problem(claim)
    if problem is None:
        return
    from orkestra.knowledge.claims.propose import line_in

    key, message = problem
    if raw is None:
        raw = read_file_bytes(folder, rel)[1] or b""
    raise InputError(
        f"claim {claim.get('id')}: {message}; fix it in the claims file, then run "
        f"`orkestra {command}` again (nothing was written)",
        file=f"{shown(folder)}/{rel}",
        line=line_in(raw.decode("utf-8", errors="replace"), "insights", index, key),
    )


@dataclass
class Stored:
    """A claim as found on disk: its data, its file (relative to knowledge/) and position."""

    claim: dict[str, Any]
    file: str
    index: int


def _read(path: Path, display: str) -> list[dict[str, Any]]:
    return _read_bytes(path, display)[0]


def _read_bytes(path: Path, display: str) -> tuple[list[dict[str, Any]], bytes]:
    """The file's insights and the bytes they were read from."""
    from orkestra.core.readfile import read_regular

    try:
        raw, size = read_regular(path, max_bytes=jsonio.MAX_BYTES)
        if size > jsonio.MAX_BYTES:
            raise InputError(f"larger than the {jsonio.MAX_BYTES}-byte limit for JSON input")
        text = jsonio.decode(raw.removeprefix(b"\xef\xbb\xbf"), source=display)
        data = jsonio.loads(text, source=display)
    except OSError as exc:  # FileNotFoundError: removed since listed
        raise InputError(f"cannot read claims file: {exc.strerror}", file=display) from exc
    except InputError as exc:  # too large, not UTF-8, not JSON or nested too deep: named here
        raise InputError(exc.message, file=display, line=exc.line) from None
    insights = data.get("insights") if isinstance(data, dict) else None
    if not isinstance(insights, list) or not all(isinstance(i, dict) for i in insights):
        raise InputError('a claims file is {"insights": [ {...}, ... ]}', file=display, line=1)
    return insights, raw


def shown(folder: Path) -> str:
    """The knowledge folder as files are named in errors and output: its path from the project
    root (the nearest folder above it holding registries/: `docs/kb` for `knowledge.path:
    docs/kb`), else its name alone."""
    for parent in folder.parents:
        if (parent / "registries").is_dir():
            return folder.relative_to(parent).as_posix()
    return folder.name


def claim_files(folder: Path) -> list[Path]:
    """Every `*.json` claims file under knowledge/claims, sorted. A claims folder or file that a
    symlink takes out of the knowledge folder raises InputError naming it (§13: never read)."""
    base = folder / CLAIMS_DIR
    if not base.is_dir():
        return []
    home = os.path.realpath(folder)
    for path, inner in (
        (base, CLAIMS_DIR),
        *((p, f"{CLAIMS_DIR}/{p.name}") for p in base.iterdir()),
    ):
        real = os.path.realpath(path)
        if path.is_symlink() and not real.startswith(home + os.sep):
            raise InputError(
                "is a symlink leading out of the knowledge folder; claims are only read inside "
                "it (copy the file in)",
                file=f"{shown(folder)}/{inner}",
            )
    return sorted(p for p in base.iterdir() if p.suffix == ".json" and p.is_file())


def load_all(folder: Path) -> list[Stored]:
    """Every claim of the knowledge base; a malformed file raises InputError naming it."""
    out: list[Stored] = []
    where = shown(folder)
    for path in claim_files(folder):
        rel = f"{CLAIMS_DIR}/{path.name}"
        for index, claim in enumerate(_read(path, f"{where}/{rel}")):
            if isinstance(claim.get("statement"), str) and isinstance(claim.get("id"), str):
                out.append(Stored(claim, rel, index))
    return out


def read_file(folder: Path, rel: str) -> list[dict[str, Any]]:
    """The insights of one claims file (empty when it does not exist yet)."""
    return read_file_bytes(folder, rel)[0]


def read_file_bytes(folder: Path, rel: str) -> tuple[list[dict[str, Any]], bytes | None]:
    """The insights of one claims file and its bytes (empty and None when it does not exist
    yet): what `write_files` checks the file still holds before replacing it."""
    path = folder / rel
    return _read_bytes(path, f"{shown(folder)}/{rel}") if path.is_file() else ([], None)


def write_files(
    folder: Path,
    files: dict[str, list[dict[str, Any]]],
    *,
    root: Path | None = None,
    read: dict[str, bytes | None] | None = None,
) -> None:
    """Write several claims files all or nothing: every one is staged and synced before the
    first is renamed (a full disk at the last leaves the others untouched). `read` holds the
    bytes each file had when it was read (None: it did not exist): one that changed since
    (another session's apply) makes it write nothing (ChangedOnDisk), never lose that change.
    A file read keeps its other top-level keys (a `$schema`, a note), in their order, and its
    layout: indentation, line endings, a byte-order mark (`jsonio.dumps_like`)."""
    with safewrite.Batch(root or folder) as batch:
        for rel, insights in sorted(files.items()):
            old = (read or {}).get(rel, safewrite.UNSET)
            text = _dumps(
                insights, old if isinstance(old, bytes) else None, f"{shown(folder)}/{rel}"
            )
            batch.file(folder / rel, text, expected_old=old)


def _dumps(insights: list[dict[str, Any]], old: bytes | None = None, display: str = "") -> str:
    """A claims file: a new one in the stable layout; one read from the bytes `old` with its
    `insights` replaced and everything else it holds kept."""
    if old is None:
        return json.dumps({"insights": insights}, indent=2, ensure_ascii=False) + "\n"
    text = old.decode("utf-8")  # read as strict UTF-8 already (`_read_bytes`)
    data = jsonio.loads(text.removeprefix("\ufeff"), source=display)
    return jsonio.dumps_like({**data, "insights": insights}, text)


def file_for(day: str, topic: str) -> str:
    """`claims/YYYY-MM-DD-<topic>.json`."""
    return f"{CLAIMS_DIR}/{day}-{slug(topic)}.json"


def valid_name(name: str) -> bool:
    """Whether a claims file name follows `YYYY-MM-DD-<topic>.json`."""
    return bool(_FILE.match(name))


def lines_of(folder: Path, stored: list[Stored]) -> dict[tuple[str, str], int]:
    """(file, claim id) -> the 1-based line of the claim's `"id": "<id>"` in its file (1 when
    not found: a file written on one line), each file read once: a claim's `path:line`."""
    texts: dict[str, list[str]] = {}
    out: dict[tuple[str, str], int] = {}
    for entry in stored:
        ident = str(entry.claim.get("id"))
        if entry.file not in texts:
            try:
                text = (folder / entry.file).read_text(encoding="utf-8", errors="replace")
            except OSError:  # gone since it was read: its line is unknown
                text = ""
            texts[entry.file] = text.splitlines()
        needle = f'"id": "{ident}"'
        found = (n for n, t in enumerate(texts[entry.file], 1) if needle in t)
        out[(entry.file, ident)] = next(found, 1)
    return out


def filters(
    level: str | Iterable[str] | None, category: str | Iterable[str] | None
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The confidences and categories a claim list keeps (any of them; `core.choices`), checked
    (the CLI checks them before it looks for the project: a usage error wherever it is run)."""
    from orkestra.core.choices import choices

    return choices("--confidence", level, LEVELS), choices("--category", category, CATEGORIES)


def listing(
    folder: Path, level: str | Iterable[str] | None, category: str | Iterable[str] | None
) -> list[dict[str, Any]]:
    """Claims (with their file named from the project root, as `shown` names the folder),
    optionally filtered by confidence and category (a filter keeps the claims with any of its
    values, whatever their case: `core.choices`)."""
    levels, categories = filters(level, category)
    keys = ("id", "statement", "category", "confidence", "seen_count", "last_seen")
    where = shown(folder)
    return [
        {k: s.claim.get(k) for k in keys} | {"file": f"{where}/{s.file}"}
        for s in load_all(folder)
        if (not levels or s.claim.get("confidence") in levels)
        and (not categories or s.claim.get("category") in categories)
    ]
