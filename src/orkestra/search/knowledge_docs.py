"""Notes and claims of the knowledge base as search documents (§7), read through its loaders.

Weights: `orkestra.registry.models.search_fields` (`NOTES`, `CLAIMS`). A note neither read nor
verified within `STALE_DAYS` loses standing: its weights are halved.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from orkestra.core.clock import today as current_day
from orkestra.registry.models.search_fields import CLAIMS, NOTES
from orkestra.search.document import Document, Field, Problem

#: the command that lists every problem of the knowledge base
NOTES_CHECK = "orkestra notes check"

STALE_DAYS = 180
STALE_FACTOR = 0.5


def _fields(
    weights: dict[str, float], values: dict[str, str], factor: float = 1.0
) -> tuple[Field, ...]:
    return tuple(Field(k, values[k], w * factor) for k, w in weights.items() if values.get(k))


def documents(root: Path, problems: list[Problem] | None = None) -> list[Document]:
    """Every note and claim of the project's knowledge base as search documents; the errors of
    the note files that failed to load (their notes are left out) are appended to `problems`
    when given."""
    from orkestra.knowledge import outcomes, usage
    from orkestra.knowledge import settings as config
    from orkestra.knowledge.claims import store
    from orkestra.knowledge.notes import load_notes

    cfg = config.load(root)
    kb = load_notes(root, cfg.path)
    if problems is not None:
        failed = kb.unloaded()
        problems.extend(Problem(p.code, p.message, p.file, p.line, NOTES_CHECK) for p in failed)
    last = usage.last_read(usage.read(cfg.folder))
    cutoff = (current_day() - dt.timedelta(days=STALE_DAYS)).isoformat()
    checked = outcomes.read(root)
    docs = []
    for note in kb.notes:
        seen = max(last.get(note.name, ""), note.verified_at, note.created)
        factor = STALE_FACTOR if seen < cutoff else 1.0
        values = {
            "title": note.title,
            "aliases": "\n".join(note.aliases),
            "tags": "\n".join(note.tags),
            "body": note.body,
        }
        attrs = {"type": (note.type,), "confidence": (note.confidence,), "tags": note.tags}
        if note.name in checked:  # the last `notes check` outcome: marks and demotes (§8.2)
            attrs["outcome"] = (checked[note.name],)
        docs.append(
            Document(
                "notes",
                note.name,
                note.title,
                note.rel,
                1,
                _fields(NOTES.weights, values, factor),
                attrs,
            )
        )
    every = store.load_all(cfg.folder)
    lines = store.lines_of(cfg.folder, every)
    for stored in every:
        claim = stored.claim
        line = lines[(stored.file, str(claim["id"]))]
        values = {
            "statement": claim["statement"],
            "tags": "\n".join(str(t) for t in claim.get("tags", [])),
            "context": str(claim.get("context", "")),
        }
        attrs = {
            "confidence": (str(claim.get("confidence", "")),),
            "tags": tuple(str(t) for t in claim.get("tags", [])),
        }
        path = f"{cfg.path}/{stored.file}"
        docs.append(
            Document(
                "claims",
                claim["id"],
                claim["statement"],
                path,
                line,
                _fields(CLAIMS.weights, values),
                attrs,
            )
        )
    return docs
