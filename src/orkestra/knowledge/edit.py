"""Minimal, diff-friendly edits of a note's frontmatter: replace or add top-level scalar keys."""

from __future__ import annotations

import json
import re

#: a top-level key as written: bare, or in double or single quotes (the same key to YAML)
_KEY = re.compile(r"""^([A-Za-z_][\w-]*|"[A-Za-z_][\w-]*"|'[A-Za-z_][\w-]*')\s*:""")


def set_fields(text: str, updates: dict[str, str]) -> str:
    """Return `text` with the frontmatter keys in `updates` set to those (quoted) values.

    Only the lines of those keys change (a value continued on indented lines below its key is
    replaced whole), each keeping its line ending (a CRLF note stays CRLF) and the comment
    written after its value; every other line, comment and the body stay as they are.
    """
    lines = text.splitlines(keepends=True)
    end = next(i for i in range(1, len(lines)) if lines[i].rstrip("\r\n").rstrip() == "---")
    pending = dict(updates)
    out = lines[:1]
    # the indentation of the top-level keys: none, or all of them indented alike (valid YAML)
    indent = _indent(lines[1:end])
    index = 1
    while index < end:
        line = lines[index]
        index += 1
        top = line[len(indent) :] if line.startswith(indent) else ""
        match = _KEY.match(top)
        if match is None or (key := match.group(1).strip("\"'")) not in pending:
            out.append(line)
            continue
        # the key stays as written (`"confidence"` quoted is the same key: never a second one)
        note = _comment(top[match.end() :].rstrip("\r\n"))  # a person's comment stays
        out.append(f"{indent}{match.group(1)}: {scalar(pending.pop(key))}{note}{_ending(line)}")
        while (
            index < end
            and lines[index].startswith(indent)
            and lines[index][len(indent) :][:1] in (" ", "\t")
        ):  # the old value's own lines, indented below its key
            index += 1
    newline = _ending(lines[0])
    extra = [f"{indent}{key}: {scalar(value)}{newline}" for key, value in pending.items()]
    return "".join(out + extra + lines[end:])


def _indent(lines: list[str]) -> str:
    """The leading spaces of the first line holding a key (not blank, not a comment)."""
    for line in lines:
        body = line.lstrip(" ")
        if body.strip() and not body.startswith("#"):
            return line[: len(line) - len(body)]
    return ""


def _comment(value: str) -> str:
    """The comment written after a key's value (` # ...`, with the spaces before it), or ""."""
    rest = value.lstrip()
    if rest[:1] in ('"', "'"):  # a `#` inside a quoted value is part of it
        closing = re.match(r'"(?:[^"\\]|\\.)*"|\'(?:[^\']|\'\')*\'', rest)
        rest = rest[closing.end() :] if closing else ""
    else:
        rest = value
    found = re.search(r"(?:^|[ \t]+)#.*", rest)
    if found is None:
        return ""
    return found.group() if found.group()[0] in " \t" else f" {found.group()}"


def _ending(line: str) -> str:
    """The line ending of `line` ("\n" when it has none)."""
    return line[len(line.rstrip("\r\n")) :] or "\n"


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
