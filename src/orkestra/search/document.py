"""The unit of search: one registry entry as weighted text fields with a source location."""

from __future__ import annotations

from dataclasses import dataclass, field

from orkestra.search.kinds import TYPES

__all__ = ["TYPES", "Document", "Field"]


@dataclass(frozen=True)
class Field:
    """One searchable field: its name, its text and its weight (§7 weights)."""

    name: str
    text: str
    weight: float


@dataclass(frozen=True)
class Document:
    """A searchable entry. `path:line` points into the source file so a reader can open it."""

    type: str  # one of TYPES
    id: str  # exact id/name; an exact match of the query on it ranks first
    title: str
    path: str  # relative to the project root, posix
    line: int
    fields: tuple[Field, ...] = field(default_factory=tuple)
    #: filter attributes (status, domain, tags...) for `--status`, `--tag`, `--domain`
    attrs: dict[str, tuple[str, ...]] = field(default_factory=dict)
