"""Normalised registry metadata for an adopted vendor skill: type, tags, allowed tools, digest."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from orkestra.intake.walker import Entry, read_bytes
from orkestra.registry.models.common import NAME_RE

_TOOL_RE = re.compile(r"^[A-Za-z0-9_.:*()\- ]+$")
_STOP = frozenset({"and", "the", "for", "with", "skill", "skills", "tool", "tools"})
MAX_TAGS = 8


def skill_type(body: str) -> str:
    """checklist / discipline when the body has that section, else workflow."""
    if re.search(r"^#{1,3}\s+checklist\b", body, re.I | re.M):
        return "checklist"
    if re.search(r"^#{1,3}\s+rules\b", body, re.I | re.M):
        return "discipline"
    return "workflow"


def split_tools(value: Any) -> list[str]:
    """`allowed-tools` as a list: space-separated, keeping `Bash(git diff:*)` whole."""
    if isinstance(value, list):
        items = [str(v).strip() for v in value]
    elif isinstance(value, str):
        items, depth, current = [], 0, ""
        for char in value:
            depth += (char == "(") - (char == ")")
            if depth <= 0 and (char.isspace() or char == ","):
                if current:
                    items.append(current)
                current, depth = "", 0
            else:
                current += char
        if current:
            items.append(current)
    else:
        items = []
    return list(dict.fromkeys(t for t in items if t and _TOOL_RE.match(t)))


def tags(name: str, metadata: Any) -> list[str]:
    """Tags from `metadata.tags` when present, else the words of the name; as registry names."""
    raw: list[str] = []
    declared = metadata.get("tags") if isinstance(metadata, dict) else None
    if isinstance(declared, str):
        raw = declared.split(",")
    elif isinstance(declared, list):
        raw = [str(t) for t in declared]
    if not raw:
        raw = [w for w in name.split("-") if len(w) >= 3 and w not in _STOP]
    out: list[str] = []
    for item in raw:
        tag = re.sub(r"[^a-z0-9]+", "-", item.strip().lower()).strip("-")[:64].strip("-")
        if tag and NAME_RE.match(tag) and tag not in out:
            out.append(tag)
    return out[:MAX_TAGS]


def digest(entries: list[Entry], limit: int) -> str:
    """sha256 over every entry (path, kind, content or link target), in path order."""
    total = hashlib.sha256()
    for entry in entries:
        total.update(f"{entry.kind}\0{entry.rel}\0".encode())
        if entry.kind == "symlink":
            total.update((entry.target or "").encode())
        elif entry.kind == "file":
            data = read_bytes(entry, limit)
            total.update(
                hashlib.sha256(data).digest() if data is not None else str(entry.size).encode()
            )
        total.update(b"\n")
    return f"sha256:{total.hexdigest()}"
