"""`orkestra notes check` (§8.2): every source resolved against the code; confidence lifecycle.

Outcome per source: confirmed (file exists, pattern found at path:line), contradicted (file or
pattern gone), ambiguous (cannot be decided here: unknown repo, missing checkout, path leaving the
repository). A note is contradicted when any source is, confirmed when all are, ambiguous otherwise
(including a note with no sources). Contradicted notes are reported, never deleted.
"""

# os.path on strings: thousands of sources are resolved per run, pathlib costs 3x more here
# ruff: noqa: PTH110, PTH112, PTH113, PTH114, PTH118, PTH120, PTH123

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import Any

from orkestra.core import atomic
from orkestra.knowledge import edit
from orkestra.knowledge.links import check_links
from orkestra.knowledge.notes import KnowledgeBase, Note, Source, load_notes
from orkestra.knowledge.settings import Settings


class _Files:
    """Reads each cited file once, and resolves each folder once, whatever the number of notes."""

    def __init__(self) -> None:
        self.cache: dict[str, str | None] = {}
        self.real: dict[str, str] = {}

    def text(self, path: str) -> str | None:
        if path not in self.cache:
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    self.cache[path] = handle.read()
            except OSError:
                self.cache[path] = None
        return self.cache[path]

    def realdir(self, folder: str) -> str:
        if folder not in self.real:
            self.real[folder] = os.path.realpath(folder)
        return self.real[folder]

    def inside(self, base: str, target: str) -> bool:
        """Whether `target` (after symlinks) stays inside `base`."""
        root = self.realdir(base)
        parent = self.realdir(os.path.dirname(target))
        if parent != root and not parent.startswith(root + os.sep):
            return False
        if os.path.islink(target):
            real = os.path.realpath(target)
            return real == root or real.startswith(root + os.sep)
        return True


def repo_root(settings: Settings, repo: str | None) -> Path | None:
    """The checkout a source's repo names (None: this project); None when not configured."""
    if repo is None or repo == settings.project or repo == "this":
        return settings.root
    rel = settings.repos.get(repo)
    return None if rel is None else (settings.root / rel).resolve()


def check_source(settings: Settings, src: Source, files: _Files) -> dict[str, Any]:
    """Resolve one source: status confirmed|contradicted|ambiguous, path:line, a reason."""
    out: dict[str, Any] = {"source": src.raw, "status": "ambiguous", "path": src.path, "line": None}
    base_path = repo_root(settings, src.repo)
    if base_path is None:
        return out | {"reason": f"repo '{src.repo}' is not listed under knowledge.repos"}
    base = str(base_path)
    if not files.realdir(base) or not os.path.isdir(base):
        return out | {"reason": f"checkout of '{src.repo}' not found at {base}"}
    if src.repo is not None and base_path != settings.root:
        out["path"] = f"{src.repo}: {src.path}"
    target = os.path.normpath(os.path.join(base, src.path))
    if not files.inside(base, target):
        return out | {"reason": "path leaves the repository"}
    if not os.path.exists(target):
        return out | {"status": "contradicted", "reason": "file not found (renamed or deleted?)"}
    if src.pattern is None:
        return out | {"status": "confirmed", "reason": "file exists"}
    text = files.text(target) if os.path.isfile(target) else None
    if text is None:
        return out | {"reason": "not a readable file; cannot look for the pattern"}
    at = text.find(src.pattern)
    if at < 0:
        return out | {"status": "contradicted", "reason": f"pattern {src.pattern!r} not found"}
    line = text.count("\n", 0, at) + 1
    return out | {"status": "confirmed", "line": line, "reason": "pattern found"}


def outcome(statuses: list[str]) -> str:
    """A note's outcome from its sources' statuses."""
    if "contradicted" in statuses:
        return "contradicted"
    if statuses and all(s == "confirmed" for s in statuses):
        return "confirmed"
    return "ambiguous"


def is_stale(note: Note, today: dt.date, max_age: int) -> bool:
    """A verified note whose verification is older than `max_age` days (or undated)."""
    if note.confidence != "verified":
        return False
    if not note.verified_at:
        return True
    return (today - dt.date.fromisoformat(note.verified_at)).days > max_age


def demote(root: Path, note: Note) -> None:
    """Write `confidence: observed` into a note (the verified date is kept as history)."""
    path = root / note.rel
    text = path.read_text(encoding="utf-8")
    atomic.write_text(path, edit.set_fields(text, {"confidence": "observed"}))


def check(
    settings: Settings,
    today: dt.date,
    *,
    apply: bool = True,
    sources: bool = True,
    kb: KnowledgeBase | None = None,
) -> dict[str, Any]:
    """Check every note: validation problems, link warnings, sources, and the 90-day demotion."""
    kb = kb or load_notes(settings.root, settings.path)
    problems = kb.problems + check_links(kb, settings.root, settings.path)
    files = _Files()
    results: list[dict[str, Any]] = []
    counts = {"confirmed": 0, "contradicted": 0, "ambiguous": 0}
    demoted: list[str] = []
    for note in kb.notes:
        entry: dict[str, Any] = {"name": note.name, "path": note.rel, "type": note.type}
        if sources:
            checks = [check_source(settings, s, files) for s in note.sources]
            entry["outcome"] = outcome([c["status"] for c in checks])
            entry["sources"] = checks
            counts[entry["outcome"]] += 1
        if is_stale(note, today, settings.verified_max_age_days):
            demoted.append(note.name)
            if apply:
                demote(settings.root, note)
            entry["demoted"] = True
        entry["confidence"] = "observed" if note.name in demoted else note.confidence
        results.append(entry)
    errors = sum(1 for p in problems if p.severity == "error")
    return {
        "checked": len(kb.notes),
        **(counts if sources else {}),
        "errors": errors,
        "warnings": len(problems) - errors,
        "demoted": demoted,
        "applied": apply,
        "contradicted_notes": [
            {
                "name": r["name"],
                "path": r["path"],
                "sources": [s for s in r["sources"] if s["status"] == "contradicted"],
            }
            for r in results
            if r.get("outcome") == "contradicted"
        ],
        "problems": [p.to_dict() for p in problems],
        "notes": results,
    }
