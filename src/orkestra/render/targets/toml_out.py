"""A small deterministic TOML writer: the subset Orkestra's Codex files need (strings, booleans,
integers, floats, arrays and inline tables of those, and multi-line strings for prompts).
Reading is `tomllib`'s (standard library); every output is read back by it in the tests."""

from __future__ import annotations

import re
from typing import Any

_INF = float("inf")
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")
# control characters TOML requires escaped in basic strings (tab and, multi-line, newline allowed)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def key(name: str) -> str:
    """A bare key when possible, else a quoted one."""
    return name if _BARE.match(name) else string(name)


def string(text: str) -> str:
    """A one-line basic string."""
    out = "".join(_ESCAPES.get(c, c) for c in text)
    return '"' + _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", out) + '"'


def multiline(text: str) -> str:
    """A multi-line basic string (`\"\"\"` … `\"\"\"`) that reads back as exactly `text`."""
    out = text.replace("\\", "\\\\").replace('"""', '""\\"').replace("\r", "\\r")
    out = _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", out)
    if out.endswith('"'):
        out = out[:-1] + '\\"'
    return '"""\n' + out + '"""'


def value(item: Any) -> str:
    """A TOML value for a string, bool, int, float, list or dict of those."""
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, float):  # TOML spells the special values nan, inf, -inf
        return "nan" if item != item else {_INF: "inf", -_INF: "-inf"}.get(item, repr(item))
    if isinstance(item, str):
        return multiline(item) if "\n" in item else string(item)
    if isinstance(item, list):
        return "[" + ", ".join(value(v) for v in item) + "]"
    if isinstance(item, dict):
        inner = ", ".join(f"{key(str(k))} = {value(v)}" for k, v in item.items())
        return "{ " + inner + " }" if inner else "{}"
    raise TypeError(f"no TOML form for {type(item).__name__}")


def table(header: str | None, items: dict[str, Any]) -> str:
    """`[header]` (when given) and `key = value` lines; None values are left out."""
    lines = [f"[{header}]"] if header else []
    lines += [f"{key(k)} = {value(v)}" for k, v in items.items() if v is not None]
    return "\n".join(lines) + "\n"
