"""The two append-only JSONL ledgers (§6.6): reading that tolerates torn lines, locked appends.

Readers never depend on line order (a `merge=union` merge interleaves both branches' lines): an
entry replaces another only when it names it in `supersedes`. Standard library only, so the fast
read paths (`mine status`, `mine candidates`) do not pay for pydantic.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CLASSIFICATIONS = Path("registries") / "changelog" / "commits_processed.jsonl"
RELEASE_NOTES = Path("registries") / "changelog" / "release_notes.jsonl"
Entry = dict[str, Any]


@dataclass(frozen=True)
class Line:
    """One physical line of a ledger: its 1-based number, parsed object or the parse error."""

    number: int
    text: str
    data: Entry | None
    error: str | None
    torn: bool = False


def read_lines(path: Path) -> list[Line]:
    """Every non-blank line with its parse result; an unterminated last line is marked torn."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    text = raw.decode("utf-8", "replace")
    parts = text.split("\n")
    torn_last = not text.endswith("\n") and bool(text)
    lines: list[Line] = []
    for number, part in enumerate(parts, start=1):
        if not part.strip():
            continue
        torn = torn_last and number == len(parts)
        try:
            data = json.loads(part)
        except json.JSONDecodeError as exc:
            lines.append(Line(number, part, None, f"not valid JSON ({exc.msg})", torn))
            continue
        if not isinstance(data, dict):
            lines.append(Line(number, part, None, "not a JSON object", torn))
        else:
            lines.append(Line(number, part, data, None, torn))
    return lines


def entries(path: Path) -> list[Entry]:
    """The readable entries of a ledger (a torn last line and broken lines are skipped)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        return [line.data for line in read_lines(path) if line.data is not None and not line.torn]
    whole = text[: text.rfind("\n") + 1]  # without a torn last line
    try:  # one C-level parse of the whole file: the common, healthy case
        data = json.loads("[" + ",".join(x for x in whole.split("\n") if x.strip()) + "]")
        if all(isinstance(item, dict) for item in data):
            return data  # type: ignore[no-any-return]
    except json.JSONDecodeError:
        pass
    return [line.data for line in read_lines(path) if line.data is not None and not line.torn]


def current(items: Iterable[Entry]) -> list[Entry]:
    """Entries that no other entry supersedes."""
    items = list(items)
    superseded = {e.get("supersedes") for e in items if e.get("supersedes")}
    return [e for e in items if e.get("id") not in superseded]


def by_sha(items: Iterable[Entry], domain: str) -> dict[str, list[Entry]]:
    """Current entries of one domain keyed by sha."""
    return by_domain(items).get(domain, {})


def by_domain(items: Iterable[Entry]) -> dict[str, dict[str, list[Entry]]]:
    """Current entries keyed by domain, then sha (one pass)."""
    out: dict[str, dict[str, list[Entry]]] = {}
    for entry in current(items):
        sha = entry.get("sha")
        if isinstance(sha, str):
            out.setdefault(str(entry.get("domain")), {}).setdefault(sha, []).append(entry)
    return out


def new_id(prefix: str) -> str:
    """A fresh entry id, unique across branches (random, not a counter)."""
    return f"{prefix}-{secrets.token_hex(8)}"


def now() -> str:
    """The timestamp written on new entries (UTC, seconds)."""
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def dump(entry: Entry) -> str:
    """One ledger line (no newline), keys in the order given, None values dropped."""
    clean = {k: v for k, v in entry.items() if v is not None}
    return json.dumps(clean, ensure_ascii=False, separators=(",", ":"))


def append(root: Path, classifications: list[Entry], notes: list[Entry]) -> None:
    """Append both batches, each with one locked write.

    Notes go first: a crash between the writes leaves a note whose classification is missing
    (render ignores it, validate reports it), never a release recorded without its note.
    """
    from orkestra.core.atomic import append_lines

    if notes:
        append_lines(root / RELEASE_NOTES, [dump(n) for n in notes])
    if classifications:
        append_lines(root / CLASSIFICATIONS, [dump(c) for c in classifications])
