"""Additions to a registry YAML file the user wrote, made as text so that its comments and
layout survive (`import` adds tools, plugin scopes, values and MCP servers to files a team keeps
by hand). Only additions at the end of top-level blocks are made this way; anything else, or a
result that does not read back as the wanted data, falls back to writing the data whole."""

from __future__ import annotations

from typing import Any

from orkestra.core import yamlio
from orkestra.core.errors import InputError


def updated(old_text: str, old: dict[str, Any], new: dict[str, Any], display: str) -> str:
    """The file's new text: `old_text` with `new`'s additions inserted, else `new` dumped."""
    text = _insert_all(old_text, old, new)
    if text is not None:
        try:
            if yamlio.loads(text, display) == new:
                return text
        except InputError:
            pass  # the text edit went wrong: the plain dump below is always right
    return yamlio.dumps(new)


def _insert_all(text: str, old: dict[str, Any], new: dict[str, Any]) -> str | None:
    if list(new)[: len(old)] != list(old):
        return None  # keys removed or reordered: not an addition
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    for key, value in new.items():
        if key not in old:
            lines += yamlio.dumps({key: value}).splitlines(keepends=True)
            continue
        before = old[key]
        if before == value:
            continue
        added = _added(before, value)
        if added is None or not _insert(lines, key, added):
            return None
    return "".join(lines)


def _added(before: Any, after: Any) -> Any:
    """What `after` adds at the end of `before` (a list or a mapping), or None."""
    if isinstance(before, list) and isinstance(after, list) and after[: len(before)] == before:
        return after[len(before) :]
    same_start = (
        isinstance(before, dict)
        and isinstance(after, dict)
        and (
            list(after)[: len(before)] == list(before)
            and all(after[k] == before[k] for k in before)
        )
    )
    return {k: v for k, v in after.items() if k not in before} if same_start else None


def _insert(lines: list[str], key: str, added: Any) -> bool:
    """Insert `added` (list items or mapping entries) at the end of top-level `key`'s block."""
    start = next((i for i, line in enumerate(lines) if line.startswith(f"{key}:")), None)
    if start is None:
        return False
    value, hash_, comment = lines[start][len(key) + 1 :].partition("#")
    rest = value.strip()
    if rest in ("{}", "[]"):
        lines[start] = f"{key}:" + (f"  {hash_}{comment.rstrip()}" if hash_ else "") + "\n"
    elif rest:
        return False  # a flow or scalar value on the key's line: not edited as text
    end = start + 1
    last = start
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t#"):
        if lines[end].strip() and not lines[end].lstrip().startswith("#"):
            last = end
        end += 1
    inner = lines[start + 1 : last + 1]
    first = next((line for line in inner if line.strip() and line.lstrip()[0] != "#"), "  x")
    indent = " " * (len(first) - len(first.lstrip(" ")) or 2)
    dumped = yamlio.dumps(added).splitlines(keepends=True)
    lines[last + 1 : last + 1] = [indent + line if line.strip() else line for line in dumped]
    return True
