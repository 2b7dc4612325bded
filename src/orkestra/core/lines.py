"""A file's lines as every part of Orkestra numbers them (standard library only)."""

from __future__ import annotations


def split_lines(text: str) -> list[str]:
    """A file's lines numbered as the code map's indexer numbers them (tree-sitter's rows): split
    at "\\n" only, a "\\r" before it dropped, no empty line after a final newline. Never
    `str.splitlines`, which also splits at \\f, \\v, \\x1c-\\x1e, \\x85, \\u2028 and \\u2029 and
    would move every later line off its number."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def line_count(text: str) -> int:
    """`len(split_lines(text))`, without splitting."""
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)
