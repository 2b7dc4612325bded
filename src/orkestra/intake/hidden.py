"""Markdown a person does not see when it is rendered: comments, link definitions, alt text and
link titles (shown only as a tooltip)."""

from __future__ import annotations

import re

_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_LINK_DEF = re.compile(r"^ {0,3}\[[^\]\n]+\]:[ \t]*\S.*$", re.M)
_ALT = re.compile(r"!\[([^\]\n]*)\]")
_TITLE = re.compile(
    r"\]\(\s*(?:<[^>\n]*>|[^\s()]*)\s+(?:\"([^\"\n]*)\"|'([^'\n]*)'|\(([^()\n]*)\))\s*\)"
)
_DETAILS = re.compile(r"<details\b.*?(?:</details>|\Z)", re.S | re.I)
#: regions hidden when rendered (weigh most) and collapsed ones (shown on a click)
HIDDEN = ("html-comment", "link-reference", "alt-text", "link-title")
COLLAPSED = "details"


def regions(text: str) -> dict[int, str]:
    """Line number -> the hidden region that line belongs to (first match wins)."""
    out: dict[int, str] = {}
    if "<!--" in text:
        _mark(out, text, _COMMENT, "html-comment")
    if "]:" in text:
        _mark(out, text, _LINK_DEF, "link-reference")
    if "<details" in text.lower():
        _mark(out, text, _DETAILS, COLLAPSED)
    return out


def _mark(out: dict[int, str], text: str, pattern: re.Pattern[str], name: str) -> None:
    for match in pattern.finditer(text):
        first = text.count("\n", 0, match.start()) + 1
        last = first + match.group(0).count("\n")
        for number in range(first, last + 1):
            out.setdefault(number, name)


def in_alt_text(line: str, start: int) -> bool:
    """Does the offset fall inside an image's alt text `![...]` on this line?"""
    return any(m.start(1) <= start < m.end(1) for m in _ALT.finditer(line))


def in_link_title(line: str, start: int) -> bool:
    """Does the offset fall inside a link's title `[text](url "title")` on this line?"""
    for match in _TITLE.finditer(line):
        group = next(g for g in (1, 2, 3) if match.group(g) is not None)
        if match.start(group) <= start < match.end(group):
            return True
    return False
