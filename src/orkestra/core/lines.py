"""A file's lines as every part of Orkestra numbers them (standard library only)."""

from __future__ import annotations


def cr_only(text: str | bytes) -> bool:
    """Whether `text`'s lines end in a bare CR (classic Mac OS): a CR and no LF anywhere. Such
    a text is read as if its CRs were LFs, one line per CR, wherever lines are numbered."""
    if isinstance(text, str):
        return "\r" in text and "\n" not in text
    return b"\r" in text and b"\n" not in text


def split_lines(text: str) -> list[str]:
    """A file's lines numbered as the code map's indexer numbers them (tree-sitter's rows): split
    at "\\n" only, a "\\r" before it dropped, no empty line after a final newline. Never
    `str.splitlines`, which also splits at \\f, \\v, \\x1c-\\x1e, \\x85, \\u2028 and \\u2029 and
    would move every later line off its number. A text with no "\n" whose lines end in "\r"
    (classic Mac OS) is split at each "\r", as the indexer reads it (`indexer.decoded`)."""
    if cr_only(text):
        text = text.replace("\r", "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def line_count(text: str) -> int:
    """`len(split_lines(text))`, without splitting."""
    if cr_only(text):
        text = text.replace("\r", "\n")
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


def line_at(text: str | bytes, offset: int) -> int:
    """The 1-based line of `offset` in a file's text or bytes, lines ending as PyYAML and
    Markdown end them: CRLF, LF or a lone CR (a `\\r`-only file from an old Mac editor has as
    many lines as it shows). The one count for YAML errors, notes and managed-block markers."""
    head = text[:offset]
    if isinstance(head, str):
        return head.count("\n") + head.count("\r") - head.count("\r\n") + 1
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


def _wordy(char: str) -> bool:
    return char.isalnum() or char == "_"


def find_whole(text: str, pattern: str) -> int:
    """The offset of the first occurrence of `pattern` in `text` that does not continue a
    longer word (-1 when none): an end of the pattern that is a letter, digit or `_`
    must not touch another, so `class Task` renamed `class TaskItem`, or `def charge` renamed
    `def charge_card`, is no longer found. Note sources (`path#pattern`, §8.2) and truth
    evidence (`path#anchor`, `path:symbol` without a code map, §3.5) are found this way: a
    renamed symbol is reported, never confirmed through a longer name it begins."""
    head, tail = _wordy(pattern[:1]), _wordy(pattern[-1:])
    at = text.find(pattern)
    while at >= 0:
        end = at + len(pattern)
        if not (head and at and _wordy(text[at - 1])) and not (
            tail and end < len(text) and _wordy(text[end])
        ):
            return at
        at = text.find(pattern, at + 1)
    return -1
