"""The unit of search: one registry entry as weighted text fields with a source location."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from orkestra.search.kinds import TYPES

__all__ = ["TYPES", "Document", "Field", "Problem"]


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


class Problem(NamedTuple):
    """A source file search left out because it failed to load: the loader's code and message
    at its `file:line`; `check` is the command that lists every problem. The CLI warns about it
    as `agents list` does; the MCP search tool returns it among its findings."""

    code: str
    message: str
    file: str
    line: int | None = None
    check: str = "orkestra validate"
    severity: str = "error"

    def to_dict(self) -> dict[str, object]:
        from orkestra.registry.findings import as_json  # only when something failed to load

        return as_json(self.file, self.line, self.severity, self.code, self.message)
