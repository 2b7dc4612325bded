"""Additions to a registry YAML file the user wrote, made as text so that its comments and
layout survive (`import` adds tools, plugin scopes, values and MCP servers to files a team keeps
by hand; `learn promote` adds a ground truth; `decisions update` adds commits to a record). Only
additions at the end of top-level blocks are made this way; anything else, or a result that does
not read back as the wanted data, falls back to writing the data whole, but only in a file
without comments: one with comments is refused (naming its first comment and what to do) rather
than rewritten without them."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from orkestra.core import yamlio
from orkestra.core.errors import InputError


def _crlf_kept(edit: Callable[..., str]) -> Callable[..., str]:
    """`edit(old_text, …)` done on a CRLF file as on its LF text, its result in CRLF again: the
    lines it adds or changes end as the file's other lines do (never a mixed file). A
    byte-order mark `old_text` starts with (read with `yamlio.read_text(…, bom=True)`) starts
    the result too: a file a Windows editor saved keeps it."""

    @functools.wraps(edit)
    def run(old_text: str, *args: Any) -> str:
        bom = "\ufeff" if old_text.startswith("\ufeff") else ""
        old_text = old_text[len(bom) :]
        crlf = "\r\n" in old_text and old_text.count("\n") == old_text.count("\r\n")
        if not crlf:
            return bom + edit(old_text, *args)
        return bom + edit(old_text.replace("\r\n", "\n"), *args).replace("\n", "\r\n")

    return run


@_crlf_kept
def updated(old_text: str, old: dict[str, Any], new: dict[str, Any], display: str) -> str:
    """The file's new text: `old_text` with `new`'s additions inserted, else `new` dumped when
    `old_text` holds no comment (InputError naming the first one otherwise)."""
    return _updated(old_text, old, new, display)


def _updated(old_text: str, old: dict[str, Any], new: dict[str, Any], display: str) -> str:
    """`updated` of an LF text without a byte-order mark."""
    text = _insert_all(old_text, old, new)
    if text is not None:
        try:
            if yamlio.loads(text, display) == new:
                return text
        except InputError:
            pass  # the text edit went wrong: the plain dump below is always right
    keys = ", ".join(k for k in new if old.get(k) != new.get(k)) or "its keys"
    why = "a flow value over several lines, such as `key: [a,` then `b]`, or keys in another order"
    return _whole(old_text, new, display, f"add to {keys}", why)


@_crlf_kept
def renamed(
    old_text: str,
    old: dict[str, Any],
    new: dict[str, Any],
    display: str,
    before: str,
    after: str,
) -> str:
    """The file's new text with the value `before` (an id) changed to `after` in the top-level
    keys whose values differ between `old` and `new`, where it is a whole value: a key's, a
    list item's or an item of a one-line flow list; when that reads back as `new` (`before`
    mentioned in prose, or under another key, stays). Else as `updated` falls back."""
    keys = {k for k in new if old.get(k) != new.get(k)}
    token = re.compile(rf"(?<![\w.-]){re.escape(before)}(?![\w.-])")
    out, inside = [], False
    for line in old_text.splitlines(keepends=True):
        top = _TOP_KEY.match(line)
        if top is not None:
            inside = top.group(1) in keys
        out.append(token.sub(after, line) if inside and _VALUE_LINE.match(line) else line)
    text = "".join(out)
    try:
        if yamlio.loads(text, display) == new:
            return text
    except InputError:
        pass
    why = f"{before} stands in a text or a value over several lines"
    return _whole(old_text, new, display, f"change {before} to {after}", why)


#: a top-level key's line (a line at column 0 that is neither blank nor a comment)
_TOP_KEY = re.compile(r"^([^\s#'\"][^:]*?)\s*:(?:\s|$)")
#: a line holding one value: `key: value`, `- value` or `key: [a, b]` (a comment may follow)
_VALUE_LINE = re.compile(
    r"""^\s*(?:-\s+)?(?:[\w-]+\s*:\s*)?(?:\[[^\]\n]*\]|(['"]?)[\w.-]+\1)\s*(?:#[^\n]*)?\r?\n?$"""
)


@_crlf_kept
def entries_set(
    old_text: str, old: dict[str, Any], new: dict[str, Any], display: str, key: str
) -> str:
    """The file's new text where top-level mapping `key` gains, loses or changes entries (the
    other top-level keys as they were): each entry taken out or replaced as the lines it spans
    (a comment above another entry stays with that one), the new ones added at the end of the
    block; else `updated`'s answer (a whole dump, refused naming the first comment when the file
    has one)."""
    text = _entries_edited(old_text, old, new, key)
    if text is not None:
        try:
            if yamlio.loads(text, display) == new:
                return text
        except InputError:
            pass  # the text edit went wrong: `updated` decides
    return _updated(old_text, old, new, display)


def _entries_edited(text: str, old: dict[str, Any], new: dict[str, Any], key: str) -> str | None:
    """`entries_set`'s text edit, or None when the file is not laid out for one (another
    top-level key changed, `key` written in flow style, an entry not found on a line of its own)."""
    before, after = old.get(key), new.get(key)
    if not isinstance(before, dict) or not isinstance(after, dict):
        return None
    if {k: v for k, v in old.items() if k != key} != {k: v for k, v in new.items() if k != key}:
        return None
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.startswith(f"{key}:")), None)
    if start is None or lines[start][len(key) + 1 :].partition("#")[0].strip():
        return None
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t#"):
        end += 1
    body = [line for line in lines[start + 1 : end] if line.strip() and line.lstrip()[0] != "#"]
    if not body:
        return None
    indent = len(body[0]) - len(body[0].lstrip(" "))
    for name in sorted(set(before) - set(after)) + [k for k in after if k in before and
                                                     after[k] != before[k]]:  # fmt: skip
        span = _entry_span(lines, start + 1, end, indent, name)
        if span is None:
            return None
        dumped = yamlio.dumps({name: after[name]}) if name in after else ""
        made = [" " * indent + line if line.strip() else line for line in
                dumped.splitlines(keepends=True)]  # fmt: skip
        lines[span[0] : span[1]] = made
        end += len(made) - (span[1] - span[0])
    added = {k: v for k, v in after.items() if k not in before}
    if added and not _insert(lines, key, added):
        return None
    return "".join(lines)


def _entry_span(
    lines: list[str], first: int, end: int, indent: int, name: str
) -> tuple[int, int] | None:
    """The lines [from, to) of entry `name` (a `name:` line at `indent`) in a block's lines
    `first`..`end`: up to the next line at that indentation or less, blank lines and comments
    before it left to what follows. None when no line of its own starts it."""
    at = next((i for i in range(first, end) if lines[i].startswith(" " * indent + f"{name}:")
               and not lines[i][indent].isspace()), None)  # fmt: skip
    if at is None:
        return None
    stop = at + 1
    while stop < end:
        line = lines[stop]
        if line.strip() and len(line) - len(line.lstrip(" ")) <= indent:
            break
        stop += 1
    while stop > at + 1 and (not lines[stop - 1].strip() or lines[stop - 1].lstrip()[0] == "#"):
        stop -= 1
    return at, stop


def _whole(old_text: str, new: dict[str, Any], display: str, what: str, why: str) -> str:
    """`new` dumped, the file written whole, when `old_text` holds no comment; else an
    InputError naming the first comment (writing it whole would drop them)."""
    comment = _first_comment(old_text)
    if comment is not None:
        raise InputError(
            f"cannot {what} in this file as text ({why}), and writing the file whole would "
            f"lose its comments (the first on line {comment}); nothing was written. Write those "
            "values in block style (one `- item` or `key: value` a line) and run the command "
            "again",
            file=display,
            line=comment,
        )
    return yamlio.dumps(new)


#: a `#` that starts a comment: at a line's start or after a blank (quoted text is cut first)
_COMMENT = re.compile(r"(?:^|[ \t])#")
_QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")


def _first_comment(text: str) -> int | None:
    """The line number of the first comment in `text`, or None. Errs towards finding one (a
    ` #` inside a block scalar counts): a file is then refused, never stripped of a comment."""
    for number, line in enumerate(text.splitlines(), start=1):
        if _COMMENT.search(_QUOTED.sub("", line)):
            return number
    return None


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
    elif rest:  # a one-line flow list or mapping takes the additions inside its brackets
        grown = _flow_added(rest, added)
        if grown is None:
            return False  # a scalar, or a flow value over several lines: not edited as text
        lead = value[: len(value) - len(value.lstrip())]
        trail = value[len(value.rstrip()) :]
        lines[start] = f"{key}:{lead}{grown}{trail}{hash_}{comment}"
        if not lines[start].endswith("\n"):
            lines[start] += "\n"
        return True
    end = start + 1
    last = start
    # a list may also be written at the key's own indentation (`key:` then `- item`)
    compact = isinstance(added, list) and _item_at_margin(lines, start + 1)
    while end < len(lines) and (
        not lines[end].strip()
        or lines[end][0] in " \t#"
        or (compact and _item_at_margin(lines, end))
    ):
        if lines[end].strip() and not lines[end].lstrip().startswith("#"):
            last = end
        end += 1
    inner = lines[start + 1 : last + 1]
    first = next((line for line in inner if line.strip() and line.lstrip()[0] != "#"), "  x")
    indent = "" if compact else " " * (len(first) - len(first.lstrip(" ")) or 2)
    dumped = yamlio.dumps(added).splitlines(keepends=True)
    lines[last + 1 : last + 1] = [indent + line if line.strip() else line for line in dumped]
    return True


def _flow_added(flow: str, added: Any) -> str | None:
    """`flow` (`[a, b]` or `{a: 1}`, on one line) with `added` (list items or mapping entries)
    written inside its brackets in flow style; None when `flow` is not such a value."""
    import yaml

    close = {"[": "]", "{": "}"}.get(flow[0])
    if close is None or flow[-1] != close or isinstance(added, list) != (close == "]"):
        return None
    dumped = yaml.safe_dump(
        added, default_flow_style=True, allow_unicode=True, width=float("inf")
    ).strip()
    inner = dumped[1:-1].strip()
    head = flow[:-1].rstrip()
    return f"{head}{', ' if head[1:].strip() else ''}{inner}{close}"


def _item_at_margin(lines: list[str], at: int) -> bool:
    """Whether the first line from `at` that is not blank nor a comment is a list item at the
    margin (`- item`, a top-level key's list written without indentation)."""
    for line in lines[at:]:
        if line.strip() and not line.startswith("#"):
            return line.startswith("- ") or line.rstrip("\r\n") == "-"
    return False
