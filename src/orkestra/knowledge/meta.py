"""A note's frontmatter and body, read through the one YAML reader (`orkestra.core.frontmatter`).

The result carries the line of each key and of each list item, so findings point at `file:line`.
"""

from __future__ import annotations

from typing import Any


class Meta:
    """Frontmatter values, the line of each key and of each list item, and the body."""

    __slots__ = ("body", "body_line", "item_lines", "key_lines", "line", "values")

    def __init__(
        self,
        values: dict[str, Any],
        key_lines: dict[str, int],
        item_lines: dict[str, list[int]] | None = None,
        body: str = "",
        body_line: int = 1,
        line: int = 2,
    ) -> None:
        self.values = values
        self.key_lines = key_lines
        self.item_lines = item_lines or {}
        self.body = body
        self.body_line = body_line
        self.line = line


def parse(text: str, name: str) -> Meta:
    """Frontmatter and body of a note; InputError (with line) when it cannot be read."""
    from orkestra.core import frontmatter, yamlio  # YAML loads only when a note is parsed

    doc = frontmatter.parse(text, name)
    items = {k: list(v.item_lines) for k, v in doc.meta.items() if isinstance(v, yamlio.LineList)}
    return Meta(
        dict(doc.meta), dict(doc.meta.key_lines), items, doc.body, doc.body_line, doc.meta.line
    )
