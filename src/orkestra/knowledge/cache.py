"""A derived cache for `notes check` under `.orkestra/cache/` (gitignored, safe to delete).

It keeps each note's parsed frontmatter and each cited file's pattern lines, keyed by the file's
last change (the later of its mtime and ctime: a same-size file copied in with the old mtime
still moves the ctime) and size, so an unchanged knowledge base is checked with one `stat` per
file instead of reading and parsing everything again. Like git's index it does not trust entries
whose last change is within `FRESH_SECONDS` of the run's start, by the clock that stamps the files
(`core.clock.files_behind`): a same-size rewrite in the same clock tick would go unseen. The
file carries the CRC-32 of its bytes (`jsonio.sealed`): damage that leaves valid JSON (another
line number) empties it instead of being answered.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from orkestra.core import jsonio, safewrite
from orkestra.core.clock import Reading
from orkestra.core.errors import OrkestraError
from orkestra.core.stamp import changed_at
from orkestra.knowledge.notes import Note, Problem, Source

CACHE = ".orkestra/cache/notes-check.json"
VERSION = 4  # 3: a pattern is found as a whole word (`core.lines.find_whole`); 4: `path:symbol`
FRESH_SECONDS = 2.0

Stat = tuple[int, int]


def stat_key(st: os.stat_result) -> Stat:
    return (changed_at(st), st.st_size)


def _note_to(note: Note) -> dict[str, Any]:
    return {
        "name": note.name, "rel": note.rel, "folder": note.folder, "type": note.type,
        "title": note.title, "aliases": list(note.aliases), "repos": list(note.repos),
        "tags": list(note.tags), "confidence": note.confidence, "verified_at": note.verified_at,
        "sources": [[s.raw, s.repo, s.path, s.pattern, s.line] for s in note.sources],
        "created": note.created, "updated": note.updated, "body": note.body,
        "body_line": note.body_line, "key_lines": note.key_lines,
    }  # fmt: skip


def _note_from(data: dict[str, Any]) -> Note:
    values = dict(data)
    for key in ("aliases", "repos", "tags"):
        values[key] = tuple(values[key])
    values["sources"] = tuple(Source(*s) for s in values["sources"])
    return Note(**values)


class CheckCache:
    """Notes and pattern lookups from the last run; `save()` writes back what changed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.path = root / CACHE
        #: when this run began, and by the file clock (read by the first entry kept)
        self.reading = Reading(root)
        self.dirty = False
        data: Any = {}
        try:  # never through a symlink, at the file or on its way (§13): as if absent
            safewrite.check_target(root, CACHE)
            data = jsonio.read_sealed(self.path, follow=False)
        except (OSError, OrkestraError):  # missing, damaged (its checksum), not JSON, linked
            data = {}
        ok = isinstance(data, dict) and data.get("version") == VERSION
        self.notes: dict[str, Any] = data.get("notes", {}) if ok else {}
        self.files: dict[str, Any] = data.get("files", {}) if ok else {}

    def _trusted(self, key: Stat) -> bool:
        return key[0] < self.reading.seen() - int(FRESH_SECONDS * 1e9)

    def note(self, rel: str, key: Stat) -> tuple[Note, list[Problem]] | None:
        entry = self.notes.get(rel)
        if entry is None or tuple(entry["stat"]) != key:
            return None
        try:
            return _note_from(entry["note"]), [Problem(**p) for p in entry["problems"]]
        except (TypeError, KeyError):  # an entry of another shape: a miss, the note is re-read
            return None

    def put_note(self, rel: str, key: Stat, note: Note, problems: list[Problem]) -> None:
        if self._trusted(key):
            entry = {
                "stat": list(key),
                "note": _note_to(note),
                "problems": [p.to_dict() for p in problems],
            }
            self.notes[rel] = entry
            self.dirty = True

    def pattern(self, path: str, key: Stat, pattern: str) -> int | bool | None:
        """The cached line (0 = not found); False when there is nothing trustworthy cached."""
        entry = self.files.get(path)
        if entry is None or tuple(entry["stat"]) != key or pattern not in entry["patterns"]:
            return False
        line = entry["patterns"][pattern]
        return int(line) if line else None

    def put_pattern(self, path: str, key: Stat, pattern: str, line: int | None) -> None:
        if not self._trusted(key):
            return
        entry = self.files.get(path)
        if entry is None or tuple(entry["stat"]) != key:
            entry = self.files[path] = {"stat": list(key), "patterns": {}}
        entry["patterns"][pattern] = line or 0
        self.dirty = True

    def prune(self, notes: set[str]) -> None:
        """Forget notes that no longer exist."""
        for rel in set(self.notes) - notes:
            del self.notes[rel]
            self.dirty = True

    def save(self) -> None:
        """Write the cache when it changed; a failure only costs speed next time."""
        if not self.dirty:
            return
        data = {"version": VERSION, "notes": self.notes, "files": self.files}
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        # a refused or failed write only costs speed next time
        with contextlib.suppress(OrkestraError):
            safewrite.write_file(self.root, CACHE, jsonio.sealed(text), durable=False)
