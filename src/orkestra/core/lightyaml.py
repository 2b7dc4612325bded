"""A small YAML-subset reader for `core.project.read_light` (standard library only).

It reads block mappings, one-line flow mappings and lists of scalars, block lists of scalars,
plain and quoted scalars and comments, resolving plain scalars with PyYAML's YAML 1.1 rules as
`core.yamlio` does (dates stay strings). Anything else becomes an `Unknown` value that raises
`Unsure` when asked for; anything that could change how the rest of the file reads (a value
continued on the next lines, tabs in indentation, directives, a repeated key) makes the whole
file `Unsure`. It never guesses: an answer is the answer PyYAML gives, or there is none.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: the hook path never imports typing
if TYPE_CHECKING:
    from typing import Any

    _Dict = dict[str, Any]
else:
    _Dict = dict  # the same class at run time, without importing typing


class Unsure(Exception):
    """The subset reader cannot be sure what the full YAML parser would give."""

    def __init__(self, reason: str, line: int | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


class Unknown:
    """A value outside the subset (read only when asked for, then `Unsure`)."""

    __slots__ = ("line", "reason")

    def __init__(self, reason: str, line: int) -> None:
        self.reason = reason
        self.line = line


class Mapping(_Dict):
    """A mapping that remembers the line of each key (1-based)."""

    def __init__(self) -> None:
        super().__init__()
        self.key_lines: dict[str, int] = {}


def value_of(data: dict[str, Any], key: str, default: Any) -> Any:
    """`data[key]` (or `default` when absent); `Unsure` when the value is outside the subset."""
    value = data.get(key, default)
    if isinstance(value, Unknown):
        raise Unsure(f"{key}: {value.reason}", value.line)
    if isinstance(value, list) and any(isinstance(v, Unknown) for v in value):
        raise Unsure(f"{key}: an item is outside the light reader's subset", None)
    if isinstance(value, dict):
        for inner, item in value.items():
            if isinstance(item, Unknown):
                raise Unsure(f"{key}.{inner}: {item.reason}", item.line)
    return value


# PyYAML's implicit resolvers (yaml.resolver.Resolver), same patterns.
_BOOL = {
    **dict.fromkeys(("yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"), True),
    **dict.fromkeys(("no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"), False),
}
_NULL = {"~", "null", "Null", "NULL", ""}
_INT = re.compile(
    r"[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
    r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+"
)
_FLOAT = re.compile(
    r"[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_PLAIN_START = re.compile(r"[^-?:,\[\]{}#&*!|>'\"%@`\s]|[-?:](?=\S)")
_SEP = re.compile(r":(?:[ \t]|$)")


def resolve(text: str, line: int, *, flow: bool = False) -> Any:
    """A plain scalar as PyYAML resolves it, or `Unknown` for forms the subset leaves out."""
    if flow and (":" in text or not text):
        return Unknown("a flow item the light reader does not read", line)
    if text in _NULL:
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT.fullmatch(text):
        return int(text) if _DECIMAL.fullmatch(text) else Unknown("a non-decimal number", line)
    if _FLOAT.fullmatch(text) or text in ("<<", "="):
        return Unknown("a number with a fraction or a merge key", line)
    if not _PLAIN_START.match(text) or _SEP.search(text) or " #" in text or "\t#" in text:
        return Unknown("a value the light reader does not read", line)
    return text


def _quoted(text: str, line: int) -> tuple[str, str]:
    """The quoted scalar at the start of `text` and what follows it."""
    quote = text[0]
    if quote == "'":
        match = re.match(r"'((?:[^']|'')*)'", text)
        if match is None:
            raise Unsure("a quoted value continues on the next line", line)
        return match.group(1).replace("''", "'"), text[match.end() :]
    match = re.match(r'"([^"\\]*)"', text)
    if match is None:
        raise Unsure("a double-quoted value with escapes or on several lines", line)
    return match.group(1), text[match.end() :]


def _uncomment(rest: str, line: int) -> None:
    """After a quoted or flow value only blanks and a comment may follow."""
    stripped = rest.strip(" \t")
    if stripped and not (stripped.startswith("#") and rest[:1] in (" ", "\t")):
        raise Unsure("text after a quoted value or a closing bracket", line)


def _strip_comment(text: str) -> str:
    """A plain value without its trailing comment (`#` after a space or a tab)."""
    match = re.search(r"[ \t]#", text)
    return (text[: match.start()] if match else text).rstrip(" \t")


def scalar(text: str, line: int) -> Any:
    """A one-line value: quoted, flow list or mapping, or plain (comment removed)."""
    if not text or text.startswith("#"):
        return None
    if text[0] in "'\"":
        value, rest = _quoted(text, line)
        _uncomment(rest, line)
        return value
    if text[0] in "[{":
        return _flow(text, line)
    if text[0] in "&*!|>%@`" or re.match(r"[-?:](\s|$)", text):
        _guard(text, line)
        return Unknown("an anchor, tag, block scalar or nested list", line)
    plain = _strip_comment(text)
    return Unknown("a tab inside a value", line) if "\t" in plain else resolve(plain, line)


def _guard(content: str, line: int) -> None:
    """`Unsure` when a skipped line opens a quote or a bracket it does not close: the value
    would run on into the next lines, which may look like keys but are not."""
    body = content
    while body.startswith(("- ", "? ")):
        body = body[2:].lstrip(" ")
    match = _SEP.search(body)
    if match is not None and body[:1] not in "'\"":
        body = body[match.end() :].lstrip(" \t")
    while body[:1] in ("&", "!"):  # an anchor or a tag before the value
        body = body.partition(" ")[2].lstrip(" \t")
    if not body:  # `key:` with its value on the next lines
        return
    if body[0] in "'\"":
        _quoted(body, line)
    elif body[0] in "[{" and ("]" if body[0] == "[" else "}") not in body:
        raise Unsure("a flow collection on several lines", line)


def _flow(text: str, line: int) -> Any:
    """`[a, b]` or `{a: b}` of scalars on one line."""
    close = "]" if text[0] == "[" else "}"
    end = text.find(close)
    inner = text[1:end]
    if end < 0 or any(c in inner for c in "[]{}\"'#"):
        raise Unsure("a flow collection on several lines, nested or quoted", line)
    _uncomment(text[end + 1 :], line)
    items = [item.strip(" \t") for item in inner.split(",")]
    if items and items[-1] == "":
        items.pop()  # YAML allows one trailing comma
    if any(not item for item in items):
        return Unknown("an empty flow item", line)
    if close == "]":
        return [resolve(item, line, flow=True) for item in items]
    out = Mapping()
    for item in items:
        key, sep, value = item.partition(": ")
        key = key.strip(" \t")
        if not sep or ":" in key or _SEP.search(value.strip(" \t")):
            return Unknown("a flow mapping item the light reader does not read", line)
        _add(out, key, resolve(value.strip(" \t"), line, flow=True), line)
    return out


def _add(out: Mapping, key: Any, value: Any, line: int) -> None:
    if not isinstance(key, str) or isinstance(key, Unknown):
        raise Unsure("a key that is not a plain string", line)
    if key in out:
        raise Unsure(f"duplicate key {key!r}", line)
    out[key] = value
    out.key_lines[key] = line


def _split_key(content: str, line: int) -> tuple[str, str]:
    """`key: rest` -> (key, rest); `Unsure` when the line is not a simple mapping entry."""
    if content[0] in "'\"":
        key, rest = _quoted(content, line)
        rest = rest.lstrip(" ")
        if not rest.startswith(":") or not _SEP.match(rest):
            raise Unsure("a quoted key without ':'", line)
        return key, rest[1:].strip(" \t")
    match = _SEP.search(content)
    if match is None:
        raise Unsure("a line that is not `key: value`", line)
    raw = content[: match.start()].rstrip(" \t")
    plain = resolve(raw, line) if raw else None
    if not isinstance(plain, str) or " #" in raw:
        raise Unsure("a key that is not a plain string", line)
    return plain, content[match.end() :].strip(" \t")


class _Lines:
    """The meaningful lines: (indent, content, 1-based number), blanks and comments dropped."""

    def __init__(self, text: str) -> None:
        self.items: list[tuple[int, str, int]] = []
        for number, raw in enumerate(text.splitlines(), 1):
            body = raw.lstrip(" ")
            if not body.strip(" \t\r") or body.lstrip(" \t").startswith("#"):
                continue
            if body[0] == "\t":
                raise Unsure("a tab in indentation", number)
            indent = len(raw) - len(body)
            if indent == 0 and (body.startswith(("%", "---", "...")) or body[0] in "?&!*|>"):
                raise Unsure("a directive, document marker or complex key", number)
            self.items.append((indent, body.rstrip(" \t\r"), number))
        self.pos = 0

    def peek(self) -> tuple[int, str, int] | None:
        return self.items[self.pos] if self.pos < len(self.items) else None

    def skip_deeper(self, indent: int) -> None:
        while (item := self.peek()) is not None and item[0] > indent:
            _guard(item[1], item[2])
            self.pos += 1


def parse(text: str) -> Mapping:
    """The top-level mapping of `text` (`Unsure` when its structure is outside the subset)."""
    lines = _Lines(text)
    out = _mapping(lines, 0)
    if lines.peek() is not None:
        raise Unsure("indentation the light reader does not follow", lines.peek()[2])  # type: ignore[index]
    return out


def _mapping(lines: _Lines, indent: int) -> Mapping:
    out = Mapping()
    while (item := lines.peek()) is not None and item[0] == indent:
        _, content, number = item
        if content.startswith("- ") or content == "-":
            break  # an indentless list belongs to the key above
        key, rest = _split_key(content, number)
        lines.pos += 1
        _add(out, key, _value(lines, indent, rest, number), number)
    return out


def _value(lines: _Lines, indent: int, rest: str, number: int) -> Any:
    nxt = lines.peek()
    if rest and not rest.startswith("#"):
        value = scalar(rest, number)
        if nxt is not None and nxt[0] > indent:
            if isinstance(value, Unknown) or (isinstance(value, str) and rest[0] not in "'\""):
                lines.skip_deeper(indent)  # a block scalar's body or a plain value's next lines
                return Unknown("a value on several lines", number)
            raise Unsure("a quoted or flow value followed by indented lines", nxt[2])
        return value
    if nxt is None or nxt[0] < indent:
        return None
    if nxt[1].startswith("- ") or nxt[1] == "-":
        return _sequence(lines, nxt[0])
    if nxt[0] == indent:
        return None
    return _mapping(lines, nxt[0])


def _sequence(lines: _Lines, indent: int) -> list[Any]:
    out: list[Any] = []
    while (item := lines.peek()) is not None and item[0] == indent:
        _, content, number = item
        if not (content.startswith("- ") or content == "-"):
            break
        lines.pos += 1
        body = content[1:].lstrip(" ")
        if not body or body.startswith("#") or _SEP.search(body.split(" #")[0]) or body[0] in "-?":
            _guard(content, number)
            lines.skip_deeper(indent)
            out.append(Unknown("a list item that is a mapping or a list", number))
            continue
        value = scalar(body, number)
        nxt = lines.peek()
        if nxt is not None and nxt[0] > indent:
            if body[0] in "'\"[{":
                raise Unsure("a quoted or flow item followed by indented lines", nxt[2])
            lines.skip_deeper(indent)
            value = Unknown("a list item on several lines", number)
        out.append(value)
    return out
