"""Client frontmatter values as registry values and back: tool lists, metadata strings, plain data.

Shared by the importer (client files -> registry YAML) and the render targets (registry ->
client files), so both read and write the same forms.
"""

from __future__ import annotations

import json
from typing import Any


def plain(value: Any) -> Any:
    """Loaded YAML (LineDict/LineList) as plain dicts and lists, for writing back out."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def split_tools(value: Any) -> list[str]:
    """Tool names from a list or a string (comma- or space-separated; `Bash(git add:*)` kept)."""
    if value is None:
        return []
    if isinstance(value, list):
        items = [str(v).strip() for v in value]
        return [i for i in items if i]
    text = str(value)
    separators = "," if "," in text else ", \t\n"
    out: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        if char in separators and depth == 0:
            out.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    out.append("".join(current).strip())
    return [i for i in out if i]


def as_string(value: Any) -> str:
    """A frontmatter value as a metadata string: scalars as written, lists comma-joined."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, list):
        return ",".join(as_string(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(plain(value), ensure_ascii=False, sort_keys=True)
    return str(value)
