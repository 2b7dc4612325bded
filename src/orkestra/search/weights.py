"""Field weights per document type (PRODUCT.md §7) and the builder that applies them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from orkestra.search.document import Document, Field

#: type -> field -> weight, in the order fields are stored (§7; scopes, domains and packages
#: follow the same pattern: the name 6, the one-line description 5, longer text lower)
WEIGHTS: dict[str, dict[str, float]] = {
    "agents": {
        "name": 6,
        "description": 5,
        "category": 3,
        "identity": 3,
        "domains": 3,
        "prompt": 1,
    },
    "skills": {"name": 6, "description": 5, "tags": 3, "sections": 1},
    "scopes": {"name": 6, "description": 5, "skills": 2},
    "truths": {"id": 6, "statement": 5, "rationale": 4, "tags": 3, "evidence": 2},
    "decisions": {
        "id": 6,
        "title": 5,
        "summary": 4,
        "rationale": 3,
        "context": 3,
        "tags": 2,
        "files": 2,
    },
    "domains": {"domain": 6, "title": 5, "body": 2},
    "packages": {"name": 6, "path": 2},
    "notes": {"title": 6, "aliases": 6, "body": 2},
    "claims": {"statement": 5, "tags": 3, "context": 2},
}

TITLE_MAX = 160


def text_of(value: Any) -> str:
    """Searchable text of a YAML value: strings as is, lists and mappings flattened."""
    if value is None or isinstance(value, bool):
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return "\n".join(t for t in (text_of(v) for v in value.values()) if t)
    if isinstance(value, list | tuple):
        return "\n".join(t for t in (text_of(v) for v in value) if t)
    return str(value)


def short(text: str) -> str:
    """A one-line title: the first non-empty line, capped at TITLE_MAX characters."""
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= TITLE_MAX else line[: TITLE_MAX - 1].rstrip() + "…"


def build(
    kind: str,
    ident: str,
    title: str,
    path: str,
    line: int,
    values: Mapping[str, Any],
    attrs: Mapping[str, Any] | None = None,
) -> Document:
    """A Document whose fields carry the §7 weights of `kind`; empty fields are left out."""
    fields = tuple(
        Field(name, text, weight)
        for name, weight in WEIGHTS[kind].items()
        if (text := text_of(values.get(name)))
    )
    clean: dict[str, tuple[str, ...]] = {}
    for key, value in (attrs or {}).items():
        items = value if isinstance(value, list | tuple) else [value]
        clean[key] = tuple(str(v) for v in items if v is not None and str(v) != "")
    return Document(kind, ident, short(title) or ident, path, line, fields, clean)
