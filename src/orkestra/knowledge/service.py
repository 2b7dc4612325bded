"""The notes commands' core: new, list, info, verify (each a plain function, no printing)."""

from __future__ import annotations

import datetime as dt
import json
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from orkestra.core import safewrite
from orkestra.core.errors import ConflictError, NotFound, UsageError
from orkestra.knowledge import edit, index, usage
from orkestra.knowledge.links import parse_links
from orkestra.knowledge.notes import (
    CONFIDENCE,
    TYPES,
    KnowledgeBase,
    Note,
    Problem,
    load_notes,
    normalise_type,
    note_name_problem,
    parse_source,
    source_problem,
)
from orkestra.knowledge.settings import Settings


def slug(title: str) -> str:
    """A note file name from its title: lower-case ASCII words joined by dashes (accents are
    dropped: `Café` names `cafe`). A title must be one line without control characters."""
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in title):
        raise UsageError(
            f"title {title!r} holds a line break or an invisible control character; "
            "write the title on one line"
        )
    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    if not words:
        raise UsageError(
            f"title {title!r} has no ASCII letters or digits to name the note's file with; "
            "add a word in ASCII to the title (for example 'nihongo 日本語')"
        )
    name = "-".join(words)[:80].strip("-")
    problem = note_name_problem(name)
    if problem is not None:
        raise UsageError(f"title {title!r}: {problem}")
    return name


def note_type(kind: str) -> str:
    """A note type as typed (`gotchas`, `Gotcha`) as its canonical name, else a usage error (the
    CLI checks it before it looks for the project: a usage error wherever it is run)."""
    norm = normalise_type(kind)
    if norm is None:
        raise UsageError(f"unknown note type '{kind}'; use one of {', '.join(TYPES)}")
    return norm


def note_filters(
    kind: str | Iterable[str] | None, confidence: str | Iterable[str] | None
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The types and confidences a note list keeps (any of them; `core.choices`), checked."""
    from orkestra.core.choices import choices, values

    kinds = tuple(dict.fromkeys(note_type(value) for value in values(kind)))
    return kinds, choices("--confidence", confidence, CONFIDENCE)


def new_note(
    settings: Settings,
    kind: str,
    title: str,
    today: dt.date,
    *,
    aliases: list[str],
    sources: list[str],
    tags: list[str],
) -> dict[str, Any]:
    """Create `knowledge/<folder>/<slug>.md` (observed) and refresh INDEX.md."""
    norm = note_type(kind)
    for what, values in (("title", [title]), ("--alias", aliases), ("--tag", tags),
                         ("--source", sources)):  # fmt: skip
        for value in values:
            _utf8(what, value)
    for raw in sources:
        if (why := source_problem(parse_source(raw))) is not None:
            raise UsageError(f"--source: {why}")
    name = slug(title)
    index.ready(settings)  # a hand-written INDEX.md, a broken claims file: before the note
    rel = f"{settings.path}/{TYPES[norm]}/{name}.md"
    path = settings.root / rel
    existing = {n.name for n in load_notes(settings.root, settings.path).notes}
    if path.exists() or name in existing:
        raise ConflictError(f"a note named '{name}' already exists; pick another title", file=rel)
    day = today.isoformat()
    meta = {
        "type": norm, "title": title, "aliases": aliases, "repos": [], "tags": tags,
        "confidence": "observed", "verified_at": "", "sources": sources, "created": day, "updated": day,
    }  # fmt: skip
    head = "".join(f"{k}: {json.dumps(v, ensure_ascii=False)}\n" for k, v in meta.items())
    text = f"---\n{head}---\n\n# {title}\n\n{_TEMPLATES[norm]}"
    safewrite.write_file(settings.root, path, text, expected_old=None)
    index.write(settings, today)
    return {"name": name, "type": norm, "path": rel}


def _utf8(what: str, value: str) -> None:
    """A command-line value typed in another encoding arrives as lone surrogates: refused."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError(
            f"{what} {value!r} holds bytes that are not UTF-8 (a terminal set to another "
            "encoding?); type it again in UTF-8"
        ) from None


_TEMPLATES = {
    "glossary": "User word → code symbol → translations.\n",
    "repo": "Purpose, entry point, status (active|deprecated).\n",
    "convention": "How we do it here, and why.\n",
    "decision": "Pointer to the decision record ([[DEC-XX-NNN]]) or the decision itself.\n",
    "recipe": "1. First step\n2. Next step\n",
    "gotcha": "Symptom → cause → fix.\n",
}


def find(settings: Settings, name: str, unloaded: list[Problem] | None = None) -> Note:
    """A note by file name (or path, title, alias; case-insensitive). Not found while a note
    file failed to load, the error points at that file: the note may be in it."""
    from orkestra.knowledge.links import Resolver

    kb = load_notes(settings.root, settings.path)
    failed = _unloaded(kb, unloaded)
    resolver = Resolver(kb, settings.root, settings.path)
    note = resolver.note(name)
    if note is None:  # the `path` every answer shows: knowledge/<type>/x.md (or ./knowledge/...)
        inside = _inside(settings, name.strip())
        note = resolver.note(inside) if inside is not None and inside != name.strip() else None
    if note is None and failed:
        suspect = _suspect(failed, name)
        raise NotFound.maybe_in(f"no note named '{name}'", suspect, "orkestra notes check")
    if note is None:
        raise NotFound(f"no note named '{name}'; `orkestra notes list` shows them")
    return note


def _suspect(failed: list[Problem], name: str) -> Problem:
    """The failed note file that `name` names (its file name, or a path ending in it, any case),
    else the first: a title or alias may be written in any note."""
    import posixpath

    want = posixpath.basename(name.strip()).lower().removesuffix(".md")
    named = [p for p in failed if posixpath.basename(p.file).lower().removesuffix(".md") == want]
    return named[0] if named else failed[0]


def _inside(settings: Settings, name: str) -> str | None:
    """`name` read as a path to a note, from the knowledge folder: `knowledge/gotchas/x.md`,
    `./knowledge//gotchas/x.md`, or an absolute path inside the project (as given or under a
    symlinked spelling of it, as an agent names files); None for a path outside it."""
    import posixpath

    from orkestra.core.project import within

    if "/" not in name:
        return name
    rel = within(settings.root, name)
    return None if rel is None else rel.removeprefix(posixpath.normpath(settings.path) + "/")


def _unloaded(kb: KnowledgeBase, into: list[Problem] | None) -> list[Problem]:
    """The errors of the note files that failed to load (their notes are left out), also
    appended to `into` when given (for the CLI to warn about)."""
    failed = kb.unloaded()
    if into is not None:
        into.extend(failed)
    return failed


def list_notes(
    settings: Settings,
    kind: str | Iterable[str] | None,
    confidence: str | Iterable[str] | None,
    unloaded: list[Problem] | None = None,
) -> list[dict[str, Any]]:
    """Notes (frontmatter only), optionally of some types and/or confidences (a filter keeps
    the notes with any of its values, whatever their case: `core.choices`); the errors of note
    files that failed to load are appended to `unloaded` when given."""
    kinds, levels = note_filters(kind, confidence)
    kb = load_notes(settings.root, settings.path)
    _unloaded(kb, unloaded)
    return [
        {k: n.to_dict()[k] for k in ("name", "type", "title", "confidence", "verified_at", "path")}
        for n in kb.notes
        if (not kinds or n.type in kinds) and (not levels or n.confidence in levels)
    ]


def info(settings: Settings, name: str, unloaded: list[Problem] | None = None) -> dict[str, Any]:
    """One note: frontmatter, links, reads and body (`unloaded`: as `list_notes`)."""
    note = find(settings, name, unloaded)
    entries = usage.read(settings.folder)
    reads = [e for e in entries if usage.note_name(e["path"]) == note.name]
    links = [
        {"target": ln.target, "heading": ln.heading, "label": ln.label, "line": ln.line}
        for ln in parse_links(note.body, note.body_line)
    ]
    last = max((e.get("ts", "") for e in reads), default="")
    return note.to_dict() | {
        "links": links,
        "reads": len(reads),
        "last_read": last[:10],
        "body": note.body,
    }


def verify(settings: Settings, name: str, today: dt.date) -> dict[str, Any]:
    """A human vouches for a note: confidence verified, verified_at (and updated) today."""
    note = find(settings, name)
    index.ready(settings)  # a hand-written INDEX.md, a broken claims file: before any change
    path = settings.root / note.rel
    day = today.isoformat()
    raw = path.read_bytes()
    fields = {"confidence": "verified", "verified_at": day, "updated": day}
    new = edit.set_fields(raw.decode("utf-8"), fields)
    safewrite.write_file(settings.root, path, new, expected_old=raw)
    index.write(settings, today)
    return {
        "name": note.name,
        "path": note.rel,
        "confidence": "verified",
        "verified_at": day,
        "was": note.confidence,
    }
