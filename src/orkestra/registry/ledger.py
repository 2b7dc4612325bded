"""The two append-only JSONL ledgers (§6.6): reading that tolerates torn lines, locked appends.

Readers never depend on line order (a `merge=union` merge interleaves both branches' lines): an
entry replaces another only when it names it in `supersedes`. Standard library only, so the fast
read paths (`mine status`, `mine candidates`) do not pay for pydantic.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from orkestra.core import jsonio

CLASSIFICATIONS = Path("registries") / "changelog" / "commits_processed.jsonl"
RELEASE_NOTES = Path("registries") / "changelog" / "release_notes.jsonl"
Entry = dict[str, Any]


#: one physical line of a ledger: 1-based number, text, parsed object or error, torn flag
Line = jsonio.JsonLine


def read_lines(path: Path) -> list[Line]:
    """Every non-blank line with its parse result; an unterminated last line is marked torn.

    A line that parses to something other than a JSON object carries an error, like a broken one.
    """
    lines = []
    for line in jsonio.iter_jsonl(path):
        if line.error is None and not isinstance(line.data, dict):
            line = Line(line.number, line.text, None, "not a JSON object", line.torn)
        lines.append(line)
    return lines


def entries(path: Path) -> list[Entry]:
    """The readable entries of a ledger: a torn last line, broken lines and, in either ledger,
    a line whose field has the wrong type (`"package": ["a"]`, a hand edit or a bad merge
    resolution) are skipped, as `mine validate` reports them (ORK050)."""
    items = jsonio.records(path)
    shape = SHAPES.get(path.name)
    return items if shape is None else [e for e in items if _fits(e, shape)]


#: a field's JSON type in a ledger line: a string, a string or null/absent, `supersedes`
REQUIRED, OPTIONAL, IDS = "required", "optional", "ids"
#: each ledger's fields and their JSON types, as the line models of `models/ledger.py` declare
#: them (pydantic stays out of the fast read paths; a test keeps the two in step)
SHAPES: dict[str, dict[str, str]] = {
    CLASSIFICATIONS.name: {
        **dict.fromkeys(("id", "ts", "sha", "domain", "action"), REQUIRED),
        **dict.fromkeys(("category", "summary", "package", "decision_id", "reason"), OPTIONAL),
        "supersedes": IDS,
    },
    RELEASE_NOTES.name: {
        **dict.fromkeys(("id", "ts", "sha", "package", "category", "summary"), REQUIRED),
        **dict.fromkeys(("date", "classification"), OPTIONAL),
        "supersedes": IDS,
    },
}


def _fits(entry: Entry, shape: dict[str, str]) -> bool:
    """Whether every field of `shape` has its type in `entry` (no NUL in a string: §13)."""
    for key, kind in shape.items():
        value = entry.get(key)
        if value is None:
            if kind == REQUIRED:
                return False
        elif isinstance(value, str):
            if "\x00" in value:
                return False
        elif not (kind == IDS and isinstance(value, list) and all(_text(v) for v in value)):
            return False
    return True


def _text(value: object) -> bool:
    return isinstance(value, str) and "\x00" not in value


def current(items: Iterable[Entry]) -> list[Entry]:
    """Entries that no other entry supersedes."""
    items = list(items)
    superseded = {target for e in items for target in supersedes(e)}
    # an entry whose id is not a string (a hand-edited line; `mine validate` reports it) is never
    # current: readers key entries by id, and an object or list there is unhashable
    return [e for e in items if _plain_id(e.get("id")) and e.get("id") not in superseded]


def _plain_id(value: object) -> bool:
    return value is None or isinstance(value, str)


def supersedes(entry: Entry) -> list[str]:
    """The ids an entry supersedes: `supersedes` is one id or, to merge several, a list of ids."""
    value = entry.get("supersedes")
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str) and v]
    return []


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
    import secrets  # imported here: the read paths (`mine sync`, `mine status`) never need it

    return f"{prefix}-{secrets.token_hex(8)}"


def now() -> str:
    """The timestamp written on new entries (UTC, seconds)."""
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def dump(entry: Entry) -> str:
    """One ledger line (no newline), keys in the order given, None values dropped."""
    return _ENCODE({k: v for k, v in entry.items() if v is not None})


#: `json.dumps` with these options builds an encoder per call; a batch of a whole history
#: writes tens of thousands of lines
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def append(root: Path, classifications: list[Entry], notes: list[Entry]) -> None:
    """Append both batches, all or nothing: if either write fails, neither ledger changes.

    The release notes are written before the classifications they link to (both files are
    locked, in that order, for the whole append). A process killed between the two writes, which
    no truncation can undo, leaves notes whose classification is missing: `linked` keeps them
    out of every reader (they take no effect and supersede nothing), `mine validate` reports
    them, and the commit is still unclassified, so the retry writes the pair again (its notes
    superseding the orphans). The other order would leave a classification without its note:
    the commit processed, its release note lost, the retry seeing nothing to do.
    """
    from orkestra.core.atomic import append_all

    append_all(
        [
            (root / RELEASE_NOTES, _lines(notes, RELEASE_NOTES)),
            (root / CLASSIFICATIONS, _lines(classifications, CLASSIFICATIONS)),
        ]
    )


def _lines(entries: list[Entry], rel: Path) -> list[str]:
    """The lines to append; one over the reader's limit (which every reader would skip) is an
    error naming its commit, raised before anything is written."""
    from orkestra.core.errors import InputError

    lines = [dump(e) for e in entries]
    for entry, line in zip(entries, lines, strict=True):
        size = len(line.encode("utf-8", "surrogatepass"))
        if size > jsonio.MAX_LINE_BYTES:
            sha = str(entry.get("sha", ""))[:12]
            raise InputError(
                f"the line for commit {sha} would be {size} bytes, over the "
                f"ledger reader's limit of {jsonio.MAX_LINE_BYTES}; nothing was written",
                file=rel.as_posix(),
            )
    return lines


def linked(notes: Iterable[Entry], classifications: Iterable[Entry]) -> list[Entry]:
    """The release notes that take effect: hand-written ones (no `classification`) and those
    whose classification is in the ledger, for the commit the note names. An orphan (a write
    interrupted between the two ledgers, or a note whose sha a hand edit changed) neither
    counts nor supersedes anything."""
    ids = _ids(classifications)
    return [n for n in notes if n.get("classification") is None or _links(n, ids)]


def orphans(notes: Iterable[Entry], classifications: Iterable[Entry]) -> list[Entry]:
    """The release notes that name a classification which is not in the ledger."""
    ids = _ids(classifications)
    return [n for n in notes if n.get("classification") is not None and not _links(n, ids)]


def _ids(items: Iterable[Entry]) -> dict[str, set[Any]]:
    """Classification id -> the commits it classifies (one, unless a hand edit reused an id)."""
    ids: dict[str, set[Any]] = {}
    for entry in items:
        if isinstance(entry.get("id"), str):
            ids.setdefault(entry["id"], set()).add(entry.get("sha"))
    return ids


def _links(note: Entry, ids: dict[str, set[Any]]) -> bool:
    """The note's classification is in the ledger and classifies the commit the note names."""
    link = note.get("classification")
    return isinstance(link, str) and note.get("sha") in ids.get(link, ())


def linked_ids(notes: Iterable[Entry], classifications: Iterable[Entry]) -> set[str]:
    """The ids of the classifications some release note links (for the same commit)."""
    ids = _ids(classifications)
    return {n["classification"] for n in notes if _links(n, ids)}


#: the lock held while a command reads the ledgers, decides and appends (derived folder, ignored)
LOCK = Path(".orkestra") / "ledger.lock"


@contextlib.contextmanager
def transaction(root: Path) -> Iterator[None]:
    """Hold the project's ledger lock: read, plan and append inside it, so two processes never
    both supersede the same entry (which would leave two current classifications)."""
    from orkestra.core.lock import locked

    with locked(root / LOCK, root=root):
        yield
