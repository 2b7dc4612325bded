"""Markdown files with a YAML frontmatter block (`---` ... `---`)."""

from __future__ import annotations

from dataclasses import dataclass

from orkestra.core import yamlio
from orkestra.core.errors import InputError


@dataclass(frozen=True)
class Document:
    """A parsed markdown document: frontmatter mapping, body text, and where the body starts."""

    meta: yamlio.LineDict
    body: str
    body_line: int


def split(text: str, name: str) -> tuple[str, str, int]:
    """Return (frontmatter text, body, 1-based line where the body starts)."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        raise InputError("no frontmatter: the file must start with a '---' line", file=name, line=1)
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r\n").rstrip() == "---":
            return "".join(lines[1:index]), "".join(lines[index + 1 :]), index + 2
    raise InputError("frontmatter is not closed: add a '---' line after it", file=name, line=1)


def parse(text: str, name: str) -> Document:
    """Parse frontmatter + body; YAML errors carry line numbers of the whole file."""
    head, body, body_line = split(text, name)
    # parsed below a blank line standing for the opening `---`: every line the parser gives (of
    # an error, of a key, and inside its messages: "first defined on line N") is the file's own
    meta = yamlio.loads(f"\n{head}", name) if head.strip() else yamlio.LineDict(2)
    if meta is None:
        meta = yamlio.LineDict(2)
    if not isinstance(meta, yamlio.LineDict):
        raise InputError("frontmatter must be a YAML mapping", file=name, line=2)
    return Document(meta=meta, body=body, body_line=body_line)
