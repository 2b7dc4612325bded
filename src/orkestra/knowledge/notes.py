"""Atomic notes (§8.1): markdown files with frontmatter, one folder per type under knowledge/."""

from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from orkestra.core.errors import InputError
from orkestra.core.readfile import open_regular
from orkestra.registry.models.names import device_problem, is_device_name

if TYPE_CHECKING:
    from orkestra.knowledge.cache import CheckCache
from orkestra.knowledge import meta as meta_reader

#: note type -> its folder under knowledge/
TYPES: dict[str, str] = {
    "glossary": "glossary",
    "repo": "repos",
    "convention": "conventions",
    "decision": "decisions",
    "recipe": "recipes",
    "gotcha": "gotchas",
}
#: folder (or plural) spellings accepted wherever a type is given
_ALIASES = {folder: kind for kind, folder in TYPES.items()}
CONFIDENCE = ("observed", "verified")
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")
_LIST_FIELDS = ("aliases", "repos", "tags", "sources")


def normalise_type(value: str) -> str | None:
    """`gotchas` or `gotcha` -> `gotcha`; None for an unknown type."""
    value = value.strip().lower()
    if value in TYPES:
        return value
    return _ALIASES.get(value)


class Problem(NamedTuple):
    """A finding about one note: severity error|warning, a stable code, file:line."""

    severity: str
    code: str
    message: str
    file: str
    line: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "file": self.file,
            "line": self.line,
        }


class Source(NamedTuple):
    """`[repo: ]path[#pattern]`: a file (in this repo or a named one) and an optional pattern."""

    raw: str
    repo: str | None
    path: str
    pattern: str | None
    line: int | None = None


class Note(NamedTuple):
    """One parsed note. `name` is its file stem; `rel` is its path relative to the project root."""

    name: str
    rel: str
    folder: str
    type: str
    title: str
    aliases: tuple[str, ...] = ()
    repos: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    confidence: str = "observed"
    verified_at: str = ""
    sources: tuple[Source, ...] = ()
    created: str = ""
    updated: str = ""
    body: str = ""
    body_line: int = 1
    key_lines: dict[str, int] = {}  # noqa: RUF012 (never mutated)

    def to_dict(self) -> dict[str, Any]:
        """The note's frontmatter as JSON (without the body)."""
        return {
            "name": self.name,
            "type": self.type,
            "title": self.title,
            "path": self.rel,
            "aliases": list(self.aliases),
            "repos": list(self.repos),
            "tags": list(self.tags),
            "confidence": self.confidence,
            "verified_at": self.verified_at,
            "sources": [s.raw for s in self.sources],
            "created": self.created,
            "updated": self.updated,
        }


def parse_source(raw: str, line: int | None = None) -> Source:
    """Split `backend: app/models/task.rb#class Task` into repo, path and pattern."""
    text = raw.strip()
    repo: str | None = None
    head = text.split("#", 1)[0]
    match = re.match(r"^([A-Za-z0-9_.-]+):\s+(.*)$", head)
    if match:
        repo, text = match.group(1), text[len(match.group(1)) + 1 :].strip()
    path, _, pattern = text.partition("#")
    return Source(raw, repo, path.strip(), pattern.strip() or None, line)


def source_problem(src: Source) -> str | None:
    """Why a note's source cannot be checked (it must name a file inside its repository)."""
    form = "use [repo: ]relative/path[#pattern]"
    if not src.path:
        return f"source {src.raw!r} names no file; {form}"
    if src.path.startswith("/"):
        return f"source {src.raw!r} is an absolute path; give it relative to the repository: {form}"
    if ".." in src.path.split("/"):
        return (
            f"source {src.raw!r} climbs out of its folder with '..'; give it relative to the "
            f"repository: {form}"
        )
    return None


def parse_note(text: str, rel: str, folder: str) -> tuple[Note | None, list[Problem]]:
    """Parse and validate one note; a note with errors is still returned when it has a type."""
    problems: list[Problem] = []
    try:
        doc = meta_reader.parse(text, rel)
    except InputError as exc:
        return None, [Problem("error", "KN001", exc.message, rel, exc.line)]
    meta = doc.values
    lines = doc.key_lines

    def bad(code: str, key: str, message: str, severity: str = "error") -> None:
        problems.append(Problem(severity, code, message, rel, lines.get(key, doc.line)))

    kind = meta.get("type")
    norm = normalise_type(kind) if isinstance(kind, str) else None
    if norm is None:
        bad("KN002", "type", f"type must be one of {', '.join(TYPES)} (got {kind!r})")
        norm = _ALIASES.get(folder, "")
    elif TYPES[norm] != folder:
        bad("KN003", "type", f"a '{norm}' note belongs in {TYPES[norm]}/, not {folder}/")
    title = meta.get("title")
    if not isinstance(title, str) or not title.strip():
        bad("KN004", "title", "title is required (a non-empty string)")
        title = rel.rsplit("/", 1)[-1].removesuffix(".md")
    values: dict[str, tuple[str, ...]] = {}
    for key in _LIST_FIELDS:
        value = meta.get(key, [])
        if value is None:
            value = []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            bad("KN005", key, f"{key} must be a list of strings, e.g. {key}: [a, b]")
            value = []
        values[key] = tuple(value)
    confidence = meta.get("confidence", "observed")
    if confidence not in CONFIDENCE:
        bad("KN006", "confidence", "confidence must be observed or verified")
        confidence = "observed"
    dates: dict[str, str] = {}
    for key in ("verified_at", "created", "updated"):
        value = meta.get(key, "")
        if value is None:
            value = ""
        if not isinstance(value, str) or (value and not _valid_date(value)):
            bad("KN007", key, f'{key} must be a quoted date "YYYY-MM-DD" (or "")')
            value = ""
        dates[key] = value
    if confidence == "verified" and not dates["verified_at"]:
        bad(
            "KN008",
            "verified_at",
            "a verified note needs verified_at (run `orkestra notes verify`)",
        )
    name = rel.rsplit("/", 1)[-1].removesuffix(".md")
    problem = note_name_problem(name)
    if problem is not None:
        problems.append(Problem("error", "KN011", problem, rel, 1))
    sources = _sources(doc, values["sources"])
    for src in sources:
        if (why := source_problem(src)) is not None:
            problems.append(Problem("error", "KN009", why, rel, src.line))
    note = Note(
        name=name,
        rel=rel,
        folder=folder,
        type=norm,
        title=title.strip(),
        aliases=values["aliases"],
        repos=values["repos"],
        tags=values["tags"],
        confidence=str(confidence),
        verified_at=dates["verified_at"],
        sources=sources,
        created=dates["created"],
        updated=dates["updated"],
        body=doc.body,
        body_line=doc.body_line,
        key_lines=dict(lines),
    )
    return note, problems


def note_name_problem(name: str) -> str | None:
    """Why a note cannot be named `name` (its file stem), or None: the one name rule's device
    check (a note's file name is free text otherwise, as Obsidian allows)."""
    return f"note name {device_problem(name)}" if is_device_name(name) else None


def _sources(doc: meta_reader.Meta, raw: tuple[str, ...]) -> tuple[Source, ...]:
    item_lines = doc.item_lines.get("sources", [])
    default = doc.key_lines.get("sources")
    return tuple(
        parse_source(s, item_lines[i] if i < len(item_lines) else default)
        for i, s in enumerate(raw)
    )


def _valid_date(value: str) -> bool:
    if not _DATE.match(value):
        return False
    try:
        dt.date.fromisoformat(value)
    except ValueError:  # the answer: the caller reports an invalid date
        return False
    return True


class KnowledgeBase:
    """Every note under the knowledge folder, plus the problems found reading them."""

    __slots__ = ("notes", "problems")

    def __init__(self) -> None:
        self.notes: list[Note] = []
        self.problems: list[Problem] = []

    def by_name(self) -> dict[str, Note]:
        return {n.name: n for n in self.notes}

    def unloaded(self) -> list[Problem]:
        """The errors of the note files that failed to load (their notes are left out)."""
        loaded = {n.rel for n in self.notes}
        return [p for p in self.problems if p.severity == "error" and p.file not in loaded]


def note_files(folder: Path) -> list[tuple[str, str]]:
    """(type folder, path relative to `folder`) for every `*.md` in the six type folders, sorted."""
    out: list[tuple[str, str]] = []
    base = str(folder)
    for sub in sorted(set(TYPES.values())):
        top = os.path.join(base, sub)  # noqa: PTH118
        if not os.path.isdir(top):  # noqa: PTH112
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            rel_dir = dirpath[len(base) + 1 :].replace(os.sep, "/")
            for name in sorted(filenames):
                if name.endswith(".md") and not name.startswith("."):
                    out.append((sub, f"{rel_dir}/{name}"))
    return out


def load_notes(root: Path, knowledge: str, cache: CheckCache | None = None) -> KnowledgeBase:
    """Read every note of the knowledge folder `knowledge` (relative to `root`).

    With a `cache`, a note whose (mtime, size) did not change is taken from it unread.
    """
    kb = KnowledgeBase()
    folder = root / knowledge
    seen: set[str] = set()
    leaving = _Leaving(root, knowledge)
    for sub, inner in note_files(folder):
        rel = f"{knowledge}/{inner}"
        full = f"{folder}/{inner}"
        refused = leaving.check(sub, inner)
        if refused is not None:
            if refused not in leaving.reported:
                leaving.reported.add(refused)
                why = "is a symlink to a file outside the project; notes are only read inside it"
                kb.problems.append(Problem("error", "KN012", f"{why} (copy it in)", refused, None))
            continue
        key = None
        if cache is not None:
            from orkestra.knowledge.cache import stat_key

            try:
                key = stat_key(os.stat(full))  # noqa: PTH116
            except OSError:  # no cache key: the note is read below, which reports any error
                key = None
            hit = cache.note(rel, key) if key is not None else None
            if hit is not None:
                seen.add(rel)
                kb.notes.append(hit[0])
                kb.problems.extend(hit[1])
                continue
        try:
            text = read_note(full, rel)
        except InputError as exc:
            kb.problems.append(Problem("error", "KN001", exc.message, rel, exc.line))
            continue
        note, problems = parse_note(text, rel, sub)
        kb.problems.extend(problems)
        if note is not None:
            kb.notes.append(note)
            if cache is not None and key is not None:
                seen.add(rel)
                cache.put_note(rel, key, note, problems)
    if cache is not None:
        cache.prune(seen)
    kb.problems.extend(stray_notes(folder, knowledge))
    _duplicates(kb)
    return kb


#: folders of the knowledge base that hold no notes by design (claims are JSON, `claims/`)
_NOT_NOTES = frozenset(("claims",))


def stray_notes(folder: Path, knowledge: str) -> list[Problem]:
    """A warning for each `*.md` in a folder of the knowledge base that is no type folder
    (`gotcha/` for `gotchas/`, a folder of one's own): no command reads it as a note, so it is
    said, never skipped silently. Files at the top (README.md, INDEX.md) and hidden folders (an
    editor's `.obsidian/`) are not notes by design."""
    out: list[Problem] = []
    try:
        tops = sorted(os.listdir(folder))  # noqa: PTH208
    except OSError:
        return out
    folders = set(TYPES.values())
    for top in tops:
        full = os.path.join(folder, top)  # noqa: PTH118
        if top in folders or top in _NOT_NOTES or top.startswith("."):
            continue
        if os.path.islink(full) or not os.path.isdir(full):  # noqa: PTH112, PTH114
            continue
        kind = normalise_type(top)
        if kind is not None:
            fix = f"move it to {knowledge}/{TYPES[kind]}/"
        else:
            shown = ", ".join(f"{f}/" for f in TYPES.values())
            fix = f"notes live in the six type folders ({shown}): move it to its type's folder"
        for dirpath, dirnames, filenames in os.walk(full):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            rel_dir = dirpath[len(str(folder)) + 1 :].replace(os.sep, "/")
            for name in sorted(filenames):
                if name.endswith(".md") and not name.startswith("."):
                    message = f"not read as a note: {top}/ is no type folder; {fix}"
                    out.append(
                        Problem("warning", "KN013", message, f"{knowledge}/{rel_dir}/{name}", 1)
                    )
    return out


class _Leaving:
    """Which note paths a symlink takes outside the project (§13: such files are refused).

    One lstat per note; a folder is resolved once, and only when it is a symlink itself (the walk
    does not follow symlinked folders below a type folder)."""

    def __init__(self, root: Path, knowledge: str) -> None:
        self.root = os.path.realpath(root)
        self.base = f"{root}/{knowledge}"
        self.knowledge = knowledge
        self.folders: dict[str, bool] = {}
        self.reported: set[str] = set()
        self.away = not self._inside(self.base)  # the knowledge folder itself (or a parent)

    def check(self, sub: str, inner: str) -> str | None:
        """The path to report (the note, its type folder or the knowledge folder) when it leaves
        the project."""
        if self.away:
            return self.knowledge
        if sub not in self.folders:
            top = f"{self.base}/{sub}"
            self.folders[sub] = os.path.islink(top) and not self._inside(top)  # noqa: PTH114
        if self.folders[sub]:
            return f"{self.knowledge}/{sub}"
        full = f"{self.base}/{inner}"
        if os.path.islink(full) and not self._inside(full):  # noqa: PTH114
            return f"{self.knowledge}/{inner}"
        return None

    def _inside(self, path: str) -> bool:
        real = os.path.realpath(path)
        return real == self.root or real.startswith(self.root + os.sep)


def read_note(path: str, rel: str, max_bytes: int = 1_000_000) -> str:
    """A note's text: UTF-8, not binary, not oversized (InputError otherwise)."""
    try:  # a regular file only: a FIFO named like a note must not block every command
        with open_regular(path) as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as exc:
        raise InputError(f"cannot read note: {exc.strerror or exc}", file=rel) from exc
    if len(raw) > max_bytes:
        raise InputError(f"note is {len(raw)} bytes, over {max_bytes}; split it", file=rel)
    if b"\x00" in raw:
        raise InputError("binary file (contains NUL bytes); a note is UTF-8 markdown", file=rel)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        from orkestra.core.lines import line_at  # LF, CRLF or a lone CR ends a line

        line = line_at(raw, exc.start)
        message = f"invalid UTF-8 at byte {exc.start}; save the file as UTF-8"
        raise InputError(message, file=rel, line=line) from exc


def _duplicates(kb: KnowledgeBase) -> None:
    seen: dict[str, str] = {}
    for note in kb.notes:
        key = note.name.lower()
        if key in seen:
            kb.problems.append(
                Problem(
                    "error",
                    "KN010",
                    f"note name '{note.name}' is also used by {seen[key]}; wikilinks are ambiguous",
                    note.rel,
                    1,
                )
            )
        else:
            seen[key] = note.rel
