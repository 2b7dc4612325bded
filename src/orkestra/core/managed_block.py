"""Where Orkestra's managed block lies in a file the user also writes (CLAUDE.md, AGENTS.md,
Copilot's instructions, a hand-written CHANGELOG.md): between a begin and an end marker.

A marker counts only as a line of its own (up to three spaces before it, as Markdown allows),
outside the user's fenced code blocks. A note that names the markers in its prose ("the block
below that starts with `<!-- orkestra:begin -->` is generated") or shows them in an example
fence is the user's text, never the block's edge: taking it for one would replace everything
between it and the real marker. Inside the block Orkestra writes, a marker's text is escaped
and a fence may be left open (a description holding three backticks), so the end marker is
looked for after the begin marker without fences.
Standard library only.
"""

from __future__ import annotations

#: Markdown allows this many spaces before a line's block (four make it indented code)
_INDENT = 3


def find(text: str, begin: str, end: str) -> tuple[int, int]:
    """(offset of the begin marker, offset of the first end marker after it), each -1 when not
    there, like `text.find` of each: with no begin marker, the offset of an end marker alone
    (a file holding only one of them). `begin` is the marker's opening (its line may go on
    with a note and must close the comment) or, ending with `-->`, the whole line; `end` is
    the whole line. A fence never closed (to the file's end) hides nothing: the block would
    otherwise be added again below it on every run."""
    found, unclosed = _find(text, begin, end, fences=True)
    return _find(text, begin, end, fences=False)[0] if unclosed else found


def _find(text: str, begin: str, end: str, *, fences: bool) -> tuple[tuple[int, int], bool]:
    """`find`'s answer, and whether a fence was left open before a begin marker was found."""
    start = alone = -1
    fence = ""  # the fence that opened the code block we are in, "" outside one
    offset = 1 if text.startswith("\ufeff") else 0  # a byte-order mark is not the line's text
    for line in text[offset:].splitlines(keepends=True):
        bare = line.strip()
        lead = len(line) - len(line.lstrip(" "))
        if lead > _INDENT or not bare:
            pass
        elif start >= 0:
            if bare == end:
                return (start, offset + lead), False
        elif fence:
            if set(bare) == {fence[0]} and len(bare) >= len(fence):
                fence = ""
        elif fences and bare.startswith(("```", "~~~")):
            fence = bare[: len(bare) - len(bare.lstrip(bare[0]))]
        elif _opens(bare, begin):
            start = offset + lead
        elif bare == end and alone < 0:
            alone = offset + lead
        offset += len(line)
    return (start, -1 if start >= 0 else alone), bool(fence)


def _opens(bare: str, begin: str) -> bool:
    """`bare` (a stripped line) is the begin marker: `begin` itself when it is a whole comment,
    else `begin`, then nothing or a note after a space, closing the comment at the line's end
    and nowhere before."""
    if begin.endswith("-->"):
        return bare == begin
    rest = bare[len(begin) :]
    return (
        bare.startswith(begin)
        and rest.endswith("-->")
        and "-->" not in rest[:-3]
        and (rest == "-->" or rest[0].isspace())
    )
