"""Small text helpers shared by the templates: safe YAML scalars and tidy markdown blocks."""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from orkestra.core import yamlio
from orkestra.registry.render_lock import (
    MARK_LINES,
    MARK_SCAN,
    carries_mark,
    mark_line,
)

# Characters YAML treats as line breaks or refuses in a stream; always escaped inside quotes.
# Listed as they are (every one outside YAML's printable set, and its line breaks U+0085,
# U+2028 and U+2029), not as the complement of what is allowed: a class that wide takes the
# regex compiler 7 ms, on every sync.
_YAML_UNSAFE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]"
)


def yaml_str(value: object) -> str:
    """A one-line, double-quoted YAML string (JSON escapes are valid YAML escapes).

    Newlines become `\\n`, so a multi-line description still loads as one frontmatter line, and
    `:`, `#` or `<example>` can never break the frontmatter.
    """
    return _escaped(json.dumps(str(value), ensure_ascii=False))


def _escaped(json_text: str) -> str:
    """JSON text as YAML that no client misreads: characters YAML refuses escaped, and `---`
    broken up (`--\\u002d`), because Claude Code and the Agent Skills reference parser end the
    frontmatter at the first `---` anywhere, even inside a quoted value."""
    text = _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", json_text)
    return text.replace("---", "--\\u002d")


def yaml_plain(value: object) -> str:
    """The value as written when YAML reads it back as the same one-line string (`Read, Grep`),
    else double-quoted (`Bash(git commit: *)` would otherwise break the frontmatter)."""
    text = str(value)
    if _PLAIN_NAME.fullmatch(text):  # a name no YAML type can claim (`42`, `yes`, `null` can)
        return text
    plain = text and "\n" not in text and "---" not in text and text == text.strip()
    # a leading digit, sign or dot may be a number to the clients' YAML 1.2 (`1e3`) even where
    # PyYAML's 1.1 reads a string: quoted
    if plain and text[0] not in "0123456789+-." and _reads_back_plain(text):
        return text
    return yaml_str(text)


def yaml_flow(items: list[object], style: str = "plain") -> str:
    """A one-line YAML flow list (`[Read, Grep]`), each item as `yaml_plain` writes it, or as
    `yaml_str` with `style="str"`. One filter call per list, not one per item: an agent lists
    hundreds of skills."""
    scalar = yaml_str if style == "str" else _flow_plain
    return "[" + ", ".join(scalar(item) for item in items) + "]"


def _flow_plain(value: object) -> str:
    """`yaml_plain`, quoted where a flow list would split or end the value (`,[]{}`)."""
    return _flow_plain_text(str(value))  # both read the value as its text


@functools.lru_cache(maxsize=1 << 16)  # once a name: a thousand agents list the same skills
def _flow_plain_text(text: str) -> str:
    plain = yaml_plain(text)
    return yaml_str(text) if _FLOW_BREAKS.search(plain) and plain[0] != '"' else plain


_FLOW_BREAKS = re.compile(r"[,\[\]{}]")


#: a name starting with a letter no implicit YAML type (bool, null, number) starts with
_PLAIN_NAME = re.compile(r"[a-eg-mp-su-xzA-EG-MP-SU-XZ][A-Za-z0-9-]*")


@functools.lru_cache(maxsize=4096)
def _reads_back_plain(text: str) -> bool:
    return yamlio.reads_back_plain(text)


def frontmatter_lines(values: dict[str, Any]) -> str:
    """Extra frontmatter keys as YAML lines (block style), or ''. A key whose YAML would hold
    `---` is written as one JSON line instead, escaped like `yaml_str` (JSON is YAML)."""
    out = []
    for key, value in values.items():
        chunk = yamlio.dumps({key: value})
        if "---" in chunk:
            chunk = f"{yaml_str(key)}: {_escaped(json.dumps(value, ensure_ascii=False))}\n"
        out.append(chunk)
    return "".join(out)


def block(text: str) -> str:
    """Markdown text without leading/trailing blank lines (trailing spaces on lines kept)."""
    return text.strip("\n").rstrip()


def one_line(text: str) -> str:
    """Collapse whitespace (including newlines) to single spaces: for lists of descriptions."""
    return " ".join(text.split())


def join_blocks(parts: list[str]) -> str:
    """Join non-empty markdown blocks with one blank line; end with exactly one newline."""
    kept = [block(p) for p in parts]
    body = "\n\n".join(p for p in kept if p)
    return body + "\n" if body else ""


def with_mark(text: str, *, name: str | None = None, in_body: bool = False) -> str:
    """`text`, a whole file sync renders, with Orkestra's mark in its first lines (what proves
    it Orkestra's: `writer._authored`): a YAML comment first in its frontmatter, or with
    `in_body` an HTML comment just after a frontmatter short enough (a client whose parser of
    the frontmatter is its own: Cursor's rules), else an HTML comment as its first line. The
    frontmatter's fences are found as the loader finds them (`core.frontmatter.split`), and the
    mark's line ends as the first line does. The mark names `name`, the agent, skill or command
    the file is rendered for (`render_lock.mark_line`). A text that holds the mark already (the
    ground truths' first line, a project template that writes it) is returned as it is."""
    opening = text[:MARK_SCAN].encode("utf-8", "surrogatepass")
    if carries_mark(opening, name) or (name is None and carries_mark(opening, truths=True)):
        return text
    mark = mark_line(name)
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom) :]
    window = body[:MARK_SCAN]  # the mark goes no further: only these lines are looked at
    every = window.splitlines(keepends=True)
    lines = every[:MARK_LINES]
    if len(window) < len(body) and len(every) <= MARK_LINES:
        lines = lines[:-1]  # the last may be cut by the window: not a whole line
    if not lines or lines[0].strip() != "---":
        return f"{bom}<!-- {mark} -->\n{body}"
    ending = lines[0][len(lines[0].rstrip("\r\n")) :]
    newline = ending if ending in ("\n", "\r\n", "\r") else "\n"
    if in_body:
        close = next(
            (i for i in range(1, len(lines)) if lines[i].rstrip("\r\n").rstrip() == "---"), None
        )
        if close is not None and close + 1 < MARK_LINES:
            head = "".join(lines[: close + 1])
            rest = body[len(head) :]
            if not head.endswith(("\n", "\r")):
                head += newline
            marked = f"{head}<!-- {mark} -->{newline}"
            if len(marked.encode("utf-8", "surrogatepass")) <= MARK_SCAN:
                return bom + marked + rest
    first = lines[0] if ending else lines[0] + newline  # a file of one line: `---` alone
    return f"{bom}{first}# {mark}{newline}{body[len(lines[0]) :]}"
