"""Where a rendered changelog goes in its file (§6.7): never over a hand-written CHANGELOG.md.

A file is Orkestra's when it is missing or begins with the header `changelog render` writes for
that package: such a file is replaced whole, unless it was edited since. A whole file Orkestra
writes ends with a seal, an HTML comment holding a digest of the text above it (line endings and
a byte-order mark aside, so a checkout with CRLF is no edit): text that no longer matches its
seal was edited, and rendering over it would discard the edit, so it is refused unless `--force`.
A file from before the seal is taken as unedited when every line of it is in the new render. A
file holding the managed-block markers (left by `--into-existing`) has only the text between them
replaced, unless that text was edited since (the block carries a seal of its own). Any other file was written by hand: it is refused, unless `--into-existing` asks for a
managed block after its title, everything else kept byte for byte.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections import Counter
from dataclasses import dataclass

from orkestra.core import managed_block
from orkestra.core.lines import cr_only, line_at

BEGIN = "<!-- orkestra:changelog:begin (managed by `orkestra changelog render`; edit outside) -->"
END = "<!-- orkestra:changelog:end -->"
#: the line after the header of a whole file Orkestra writes: a digest of the rest of the file
SEAL = "<!-- orkestra:changelog:digest {} (generated: edit the ledger, then render) -->\n"
_SEAL = re.compile(
    r"^<!-- orkestra:changelog:digest ([0-9a-f]{16}) \(generated: [^\n]*-->\r?$", re.MULTILINE
)


@dataclass(frozen=True)
class Placement:
    """What rendering does to one file: its new text (None when refused) and the action."""

    action: str  # create | replace | update-block | insert-block | refuse
    text: str | None
    reason: str = ""
    #: why a file was refused: it is hand-written, or Orkestra's but edited since
    edited: bool = False
    #: the edit is inside the managed block of a hand-written file
    in_block: bool = False
    #: the file holds one managed-block marker without the other, at this line
    lone_marker: int | None = None
    #: the marker that is missing then: BEGIN or END
    missing: str = ""


def place(
    old: str | None, header: str, body: str, *, into_existing: bool, force: bool = False
) -> Placement:
    """The new file text for `header` + `body` given the current text `old` (None: no file).

    A byte-order mark stays first and the managed block uses the file's own line ending (that of
    its first line), so a hand-written CRLF file never gets mixed endings. A file Orkestra wrote
    and someone edited since is refused (`force` overwrites it; `into_existing` keeps it as
    hand-written history below a managed block). A file whose lines end in a bare CR (classic
    Mac, no LF anywhere) is read as LF lines, so the lines of a refusal are its lines, and
    written back with CR.
    """
    if old is not None and cr_only(old):
        placed = _place(old.replace("\r", "\n"), header, body, into_existing, force)
        text = None if placed.text is None else placed.text.replace("\n", "\r")
        return dataclasses.replace(placed, text=text)
    return _place(old, header, body, into_existing, force)


def _place(old: str | None, header: str, body: str, into_existing: bool, force: bool) -> Placement:
    whole = sealed(header, body)
    if old is None:
        return Placement("create", whole)
    bom = "\ufeff" if old.startswith("\ufeff") else ""
    text = old[len(bom) :]
    if text.startswith(header):
        edit = edited(text, whole)
        if edit is None or force:
            return Placement("replace", bom + whole)
        if not into_existing and managed_block.find(old, BEGIN, END) == (-1, -1):
            return Placement("refuse", None, edit, edited=True)
    newline = "\r\n" if text.split("\n", 1)[0].endswith("\r") else "\n"
    begin, end = managed_block.find(old, BEGIN, END)
    outside = old[:begin] + old[end + len(END) :] if 0 <= begin < end else old
    block = _block(_undefined_only(body, outside)).replace("\n", newline)
    if begin >= 0 and end > begin:
        edit = None if force else _block_edit(old, begin, end, block)
        if edit is not None:
            return Placement("refuse", None, edit, edited=True, in_block=True)
        after = old[end + len(END) :]
        after = after[len(newline) :] if after.startswith(newline) else after.removeprefix("\n")
        return Placement("update-block", old[:begin] + block + after)
    if begin >= 0 or end >= 0:
        return _lone_marker(old, begin, end)
    if not into_existing:
        return Placement("refuse", None, "it was not written by Orkestra")
    cut = len(bom) + _after_title(text)
    head = old[:cut]
    return Placement("insert-block", head + _gap(head, bom, newline) + block + newline + old[cut:])


#: a link reference definition (CommonMark): `[label]: destination`, indented 0-3 spaces
_DEFINITION = re.compile(r"^ {0,3}\[([^\]]+)\]:[ \t]*\S", re.MULTILINE)


def _label(text: str) -> str:
    """A link label as CommonMark matches it: case-insensitive, runs of whitespace as one."""
    return " ".join(text.split()).casefold()


def _defined_label(line: str) -> str | None:
    found = _DEFINITION.match(line)
    return _label(found.group(1)) if found else None


def _undefined_only(body: str, outside: str) -> str:
    """`body` without those of its closing link reference definitions whose label the text
    around the managed block defines already (`[Unreleased]: …` at the bottom of a hand-written
    changelog): a label defined twice makes the first definition, the block's, silently win over
    the author's, and linters report it. The author's definitions are theirs to keep."""
    taken = {_label(found.group(1)) for found in _DEFINITION.finditer(outside)}
    lines = body.split("\n")
    end = len(lines)
    while end and not lines[end - 1]:
        end -= 1
    start = end
    while start and _DEFINITION.match(lines[start - 1]):
        start -= 1
    if not taken or start == end:
        return body
    kept = [line for line in lines[start:end] if _defined_label(line) not in taken]
    return "\n".join(lines[:start] + kept + lines[end:])


def _lone_marker(old: str, begin: int, end: int) -> Placement:
    """The refusal of a file that holds one managed-block marker without the other (a hand
    edit removed or changed one): where the block starts or ends cannot be told."""
    at, which, other = (begin, "begin", "end") if begin >= 0 else (end, "end", "begin")
    line = line_at(old, at)
    reason = (
        f"line {line} holds the managed block's {which} marker and no {other} marker goes with it"
    )
    return Placement("refuse", None, reason, lone_marker=line, missing=END if begin >= 0 else BEGIN)


def sealed(header: str, body: str) -> str:
    """The whole file: `header`, a blank line, the seal (a digest of all the rest), `body`. At
    the top, it warns whoever opens the file before they edit it."""
    return header + "\n" + SEAL.format(_digest(header + "\n" + body)) + body


def _digest(text: str) -> str:
    plain = text.removeprefix("\ufeff").replace("\r\n", "\n")
    return hashlib.sha256(plain.encode("utf-8")).hexdigest()[:16]


def edited(text: str, new: str) -> str | None:
    """How `text`, a file that starts with Orkestra's header, was edited since it was rendered,
    or None when it was not: the rest of it matches its seal or, written before there was a
    seal, every line of it is one of the new render `new`."""
    seal = _SEAL.search(text)
    if seal:
        rest = text[: seal.start()] + text[seal.end() :].removeprefix("\r").removeprefix("\n")
        if _digest(rest) == seal.group(1):
            return None
    elif not Counter(_lines(text)) - Counter(_lines(new)):
        return None
    return "it was edited since Orkestra rendered it" + _first_foreign(text, new)


def _lines(text: str) -> list[str]:
    return [line.rstrip("\r") for line in text.split("\n") if line.strip()]


def _first_foreign(text: str, new: str) -> str:
    """` (line N: 'text')` for the first line of `text` the new render does not hold."""
    known = Counter(_lines(new))
    for number, line in enumerate(text.split("\n"), start=1):
        bare = line.rstrip("\r")
        if not bare.strip() or _SEAL.fullmatch(bare):
            continue
        if known[bare] > 0:
            known[bare] -= 1
            continue
        return f" (line {number}: {bare[:60]!r})"
    return " (text was removed)"


def _block(body: str) -> str:
    """The managed block: its markers around a seal (a digest of the rest of the block, so an
    edit inside it is seen) and `body`."""
    # a release note that quotes a marker must not end the block early (the file would grow)
    body = body.replace("<!-- orkestra:", "&lt;!-- orkestra:")
    inner = f"{body.strip(chr(10))}\n\n"
    return f"{BEGIN}\n{SEAL.format(_digest(chr(10) + inner))}{inner}{END}\n"


def _block_edit(old: str, begin: int, end: int, block: str) -> str | None:
    """How the managed block of `old` (between offsets `begin` and `end`) was edited since it was
    rendered, or None when it was not: its text matches its seal. A block written before blocks
    had a seal cannot tell an edit from an older render: it is replaced (and sealed)."""
    inner = old[begin + len(BEGIN) : end]
    seal = _SEAL.search(inner)
    if seal is None:
        return None
    rest = inner[: seal.start()] + inner[seal.end() :].removeprefix("\r").removeprefix("\n")
    if _digest(rest) == seal.group(1):
        return None
    fresh = block[len(BEGIN) : block.rindex(END)]
    above = "\n" * old[: begin + len(BEGIN)].count("\n")  # line numbers count from the file's top
    return "its managed block was edited since Orkestra rendered it" + _first_foreign(
        above + inner, fresh
    )


def _after_title(text: str) -> int:
    """Offset just after the title: a `# ` line or a setext one (`Title` over `=====`), after
    any YAML front matter (`---` ... `---`, which docs sites read: Docusaurus, Jekyll, Hugo),
    leading blank lines and HTML comments (`<!-- markdownlint-disable MD024 -->`, or a note
    over several lines; a `<!--` nothing closes is text). HTML comments under the title (blank
    lines between allowed) belong to it and stay above the block: a markdownlint directive
    there covers what follows it, the block's repeated `### Added` too.
    Without a title, the block goes just after the front matter, else on top (0)."""
    start = _after_front_matter(text)
    lines = text[start:].splitlines(keepends=True)
    index = _comments_end(lines, 0)
    offset = start + sum(len(line) for line in lines[:index])
    if index >= len(lines):
        return start
    line = lines[index]
    under = lines[index + 1].strip() if index + 1 < len(lines) else ""
    if line.startswith("# "):
        taken = 1
    elif line.strip() and under and set(under) == {"="}:
        taken = 2
    else:
        return start
    index += taken
    offset += sum(len(line) for line in lines[index - taken : index])
    after = _comments_end(lines, index)
    last = max((i for i in range(index, after) if lines[i].strip()), default=index - 1)
    return offset + sum(len(line) for line in lines[index : last + 1])


def _comments_end(lines: list[str], index: int) -> int:
    """The index of the first line from `index` on that is neither blank nor part of an HTML
    comment (one line, or several when something closes it)."""
    while index < len(lines):
        bare = lines[index].strip()
        if not bare or (bare.startswith("<!--") and bare.endswith("-->")):
            index += 1
            continue
        if bare.startswith("<!--") and "-->" not in bare:  # over several lines, if closed
            close = next((i for i in range(index + 1, len(lines)) if "-->" in lines[i]), -1)
            if close > index:
                index = close + 1
                continue
        break
    return index


def _after_front_matter(text: str) -> int:
    """Offset just after a YAML front matter block that opens the file (0 without one, or when
    the block is never closed: then it is no front matter)."""
    from orkestra.core import frontmatter
    from orkestra.core.errors import InputError

    if not text.startswith("---"):
        return 0
    try:
        _, body, _ = frontmatter.split(text, "CHANGELOG.md")
    except InputError:
        return 0
    return len(text) - len(body)


def _gap(head: str, bom: str, newline: str) -> str:
    """A blank line between the title and the block (a title without a newline gets one too)."""
    if head == bom:
        return ""
    return newline if head.endswith("\n") else newline * 2
