"""A note's frontmatter, read fast when it is written the way Orkestra writes it.

`orkestra notes new` writes one `key: <JSON value>` per line. Such a block is read with `json`
(the values are valid YAML flow scalars and sequences, so the meaning is the same); any other
block — comments, block lists, plain YAML — goes through the safe YAML loader
(`orkestra.core.frontmatter`). Either way the result carries the line of each key and of each list
item, so findings point at `file:line`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from orkestra.core.errors import InputError

_KEY = re.compile(r"^[A-Za-z_][\w-]*$")
_BARE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
_SPECIAL = {"true", "false", "yes", "no", "on", "off", "null", "y", "n"}


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


def _fast(text: str) -> Meta | None:
    """One `json.loads` for a block of `key: <JSON or bare word>` lines; None for anything else."""
    end = text.find("\n---", 3)
    if end < 0:
        return None
    after = text.find("\n", end + 4)
    if text[end + 4 : after if after >= 0 else len(text)].strip():
        return None
    lines = text[4:end].split("\n") if end > 3 else []
    parts, keys = [], []
    for raw in lines:
        key, sep, value = raw.rstrip("\r").partition(": ")
        value = value.strip()
        if not sep or not value or not _KEY.match(key) or "\\" in value:
            return None
        if _BARE.match(value):
            if value.lower() in _SPECIAL:
                return None
            value = f'"{value}"'
        elif value[0] not in '"[':
            return None
        parts.append(f'"{key}":{value}')
        keys.append(key)
    try:
        values = json.loads("{" + ",".join(parts) + "}")
    except ValueError:
        return None
    if len(values) != len(keys):
        return None  # a duplicate key: let the YAML loader report it
    key_lines = {key: number for number, key in enumerate(keys, 2)}
    items = {k: [key_lines[k]] * len(v) for k, v in values.items() if isinstance(v, list)}
    body_line = len(lines) + 3
    body = text[after + 1 :] if after >= 0 else ""
    return Meta(values, key_lines, items, body, body_line)


def parse(text: str, name: str) -> Meta:
    """Frontmatter and body of a note; InputError (with line) when it cannot be read."""
    if text.startswith("---\n"):
        fast = _fast(text)
        if fast is not None:
            return fast
    elif not text.lstrip("\ufeff").startswith("---"):
        raise InputError("no frontmatter: the file must start with a '---' line", file=name, line=1)
    from orkestra.core import frontmatter, yamlio

    doc = frontmatter.parse(text, name)
    items = {k: list(v.item_lines) for k, v in doc.meta.items() if isinstance(v, yamlio.LineList)}
    return Meta(
        dict(doc.meta), dict(doc.meta.key_lines), items, doc.body, doc.body_line, doc.meta.line
    )
