"""Where a rendered changelog goes in its file (§6.7): never over a hand-written CHANGELOG.md.

A file is Orkestra's when it is missing or begins with the header `changelog render` writes for
that package: such a file is replaced whole. A file holding the managed-block markers (left by
`--into-existing`) has only the text between them replaced. Any other file was written by hand:
it is refused, unless `--into-existing` asks for a managed block after its title, everything
else kept byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass

from orkestra.core import managed_block

BEGIN = "<!-- orkestra:changelog:begin (managed by `orkestra changelog render`; edit outside) -->"
END = "<!-- orkestra:changelog:end -->"


@dataclass(frozen=True)
class Placement:
    """What rendering does to one file: its new text (None when refused) and the action."""

    action: str  # create | replace | update-block | insert-block | refuse
    text: str | None
    reason: str = ""


def place(old: str | None, header: str, body: str, *, into_existing: bool) -> Placement:
    """The new file text for `header` + `body` given the current text `old` (None: no file).

    A byte-order mark stays first and the managed block uses the file's own line ending (that of
    its first line), so a hand-written CRLF file never gets mixed endings.
    """
    if old is None:
        return Placement("create", header + body)
    bom = "\ufeff" if old.startswith("\ufeff") else ""
    text = old[len(bom) :]
    if text.startswith(header):
        return Placement("replace", bom + header + body)
    newline = "\r\n" if text.split("\n", 1)[0].endswith("\r") else "\n"
    block = _block(body).replace("\n", newline)
    begin, end = managed_block.find(old, BEGIN, END)
    if begin >= 0 and end > begin:
        after = old[end + len(END) :]
        after = after[len(newline) :] if after.startswith(newline) else after.removeprefix("\n")
        return Placement("update-block", old[:begin] + block + after)
    if begin >= 0 or end >= 0:
        return Placement("refuse", None, "it holds only one of the managed-block markers")
    if not into_existing:
        return Placement("refuse", None, "it was not written by Orkestra")
    cut = len(bom) + _after_title(text)
    head = old[:cut]
    return Placement("insert-block", head + _gap(head, bom, newline) + block + newline + old[cut:])


def _block(body: str) -> str:
    # a release note that quotes a marker must not end the block early (the file would grow)
    body = body.replace("<!-- orkestra:", "&lt;!-- orkestra:")
    return f"{BEGIN}\n{body.strip(chr(10))}\n\n{END}\n"


def _after_title(text: str) -> int:
    """Offset just after the title: a `# ` line or a setext one (`Title` over `=====`), after any
    leading blank lines and one-line HTML comments (`<!-- markdownlint-disable MD024 -->`);
    0 when the file has no title (the block goes on top)."""
    lines = text.splitlines(keepends=True)
    offset = 0
    for index, line in enumerate(lines):
        bare = line.strip()
        if not bare or (bare.startswith("<!--") and bare.endswith("-->")):
            offset += len(line)
            continue
        if line.startswith("# "):
            return offset + len(line)
        under = lines[index + 1].strip() if index + 1 < len(lines) else ""
        if under and set(under) == {"="}:
            return offset + len(line) + len(lines[index + 1])
        return 0
    return 0


def _gap(head: str, bom: str, newline: str) -> str:
    """A blank line between the title and the block (a title without a newline gets one too)."""
    if head == bom:
        return ""
    return newline if head.endswith("\n") else newline * 2
