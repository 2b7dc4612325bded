"""Minimal, diff-friendly edits of a note's frontmatter: replace or add top-level scalar keys."""

from __future__ import annotations

import json
import re


def set_fields(text: str, updates: dict[str, str]) -> str:
    """Return `text` with the frontmatter keys in `updates` set to those (quoted) values.

    Only the lines of those keys change; every other line, comment and the body stay as they are.
    """
    lines = text.splitlines(keepends=True)
    end = next(i for i in range(1, len(lines)) if lines[i].rstrip("\r\n").rstrip() == "---")
    pending = dict(updates)
    for index in range(1, end):
        match = re.match(r"^([A-Za-z_][\w-]*)\s*:", lines[index])
        if match and match.group(1) in pending:
            key = match.group(1)
            lines[index] = f"{key}: {scalar(pending.pop(key))}\n"
    extra = [f"{key}: {scalar(value)}\n" for key, value in pending.items()]
    return "".join(lines[:end] + extra + lines[end:])


def scalar(value: str) -> str:
    """A YAML scalar: bare for plain words, JSON-quoted otherwise (dates stay strings)."""
    if re.fullmatch(r"[a-z][a-z0-9_-]*", value) and value not in (
        "true",
        "false",
        "null",
        "yes",
        "no",
        "on",
        "off",
    ):
        return value
    return json.dumps(value, ensure_ascii=False)
