"""Builders for knowledge tests: notes and projects written cheaply."""

from __future__ import annotations

import json
from pathlib import Path

from orkestra.knowledge.notes import TYPES
from orkestra.knowledge.settings import Settings
from tests.conftest import write


def note(
    root: Path,
    name: str,
    *,
    kind: str = "glossary",
    title: str | None = None,
    sources: list[str] | None = None,
    confidence: str = "observed",
    verified_at: str = "",
    body: str = "Body.\n",
    extra: str = "",
    repos: list[str] | None = None,
    tags: list[str] | None = None,
) -> Path:
    """Write `knowledge/<folder>/<name>.md` with a valid frontmatter."""
    meta = {
        "type": kind,
        "title": title or name.replace("-", " ").title(),
        "aliases": [],
        "repos": repos or [],
        "tags": tags or [],
        "confidence": confidence,
        "verified_at": verified_at,
        "sources": sources or [],
        "created": "2026-01-01",
        "updated": "2026-01-01",
    }
    head = "".join(f"{k}: {json.dumps(v)}\n" for k, v in meta.items()) + extra
    return write(root, f"knowledge/{TYPES[kind]}/{name}.md", f"---\n{head}---\n\n{body}")


def settings(root: Path, **kwargs: object) -> Settings:
    return Settings(root=root, project="demo", **kwargs)  # type: ignore[arg-type]
