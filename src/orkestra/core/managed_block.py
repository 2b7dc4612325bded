"""Where Orkestra's managed block lies in a file the user also writes (CLAUDE.md, AGENTS.md,
Copilot's instructions, a hand-written CHANGELOG.md): between a begin and an end marker.

A marker counts only as a line of its own, starting the line as Orkestra writes it, outside the
user's fenced code blocks (a fence may open in a list item or a quote). A note that names the
markers in its prose ("the block below that starts with `<!-- orkestra:begin -->` is
generated"), shows them in an example fence, indents them (indented code) or quotes them is the
user's text, never the block's edge: taking it for one would replace everything between it and
the real marker. Lines end at `\\n`, `\\r\\n` or `\\r`, as in Markdown (not at U+2028 or a form
feed). Inside the block Orkestra writes, a marker's text is escaped and a fence may be left open
(a description holding three backticks), so the end marker is looked for after the begin marker
without fences; but a second begin marker line before it means the block's own end marker is
gone (a block Orkestra writes never holds one): the end found further on would be the user's
(an example in a fence), and everything between would be replaced, so the pair counts as broken.
Standard library only (`re`).
"""

from __future__ import annotations

import re

from orkestra.core.lines import line_at

#: a line with its ending (Markdown's: LF, CRLF or CR)
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
#: an opening fence: up to three spaces, list items' and quotes' markers, then ``` or ~~~
_OPENS = re.compile(
    r"(?: {0,3}(?:>|[-+*]|\d{1,9}[.)])(?:[ \t]+|(?=[\r\n]|\Z)))* {0,3}(`{3,}|~{3,})"
)
#: what may stand before a closing fence: indentation, list items' and quotes' markers
_BEFORE_CLOSE = re.compile(r"(?:[ \t]*(?:>|[-+*]|\d{1,9}[.)])(?=[ \t]))*[ \t]*")


def find(text: str, begin: str, end: str) -> tuple[int, int]:
    """(offset of the begin marker, offset of the first end marker after it), each -1 when not
    there, like `text.find` of each: with no begin marker, the offset of an end marker alone
    (a file holding only one of them). `begin` is the marker's opening (its line may go on
    with a note and must close the comment) or, ending with `-->`, the whole line; `end` is
    the whole line. A fence never closed (to the file's end) is not taken for one: the block
    below it would otherwise be added again on every run. The look goes on after it, at most
    `_REOPENED` times (a file of unclosed fences costs a few passes, never one per fence);
    after that, fences are not looked at."""
    at = 1 if text.startswith("\ufeff") else 0  # a byte-order mark is not the line's text
    alone = -1
    for _ in range(_REOPENED):
        found, resume, alone = _find(text, begin, end, at, alone, fences=True)
        if resume is None:
            return found
        at = resume  # the fence left open is not one: the look goes on on its next line
    return _find(text, begin, end, at, alone, fences=False)[0]


#: how many fences left open `find` steps over before it stops looking at fences
_REOPENED = 16


def _find(
    text: str, begin: str, end: str, at: int, alone: int, *, fences: bool
) -> tuple[tuple[int, int], int | None, int]:
    """`find`'s answer looking from offset `at` (`alone`: an end marker alone found before it),
    the offset of the line after a fence left open with no begin marker before it (None: there
    is none), and `alone` as it stands then."""
    start = -1
    fence, reopen = "", 0  # the open fence's run of backticks or tildes ("" outside one)
    for match in _LINE.finditer(text, at):
        line, offset = match.group(), match.start()
        bare = line.rstrip("\r\n").rstrip(" \t")
        if start >= 0:
            if bare == end:
                return (start, offset), None, alone
            if _opens(bare, begin):  # a second begin before any end: this block lost its end
                return (start, -1), None, alone
        elif fence:
            before = _BEFORE_CLOSE.match(bare)
            closing = bare[before.end() :] if before else bare
            if set(closing) == {fence[0]} and len(closing) >= len(fence):
                fence = ""
        elif fences and (opening := _OPENS.match(bare)) is not None:
            fence, reopen = opening.group(1), match.end()
        elif _opens(bare, begin):
            start = offset
        elif bare == end and alone < 0:
            alone = offset
    return (start, -1 if start >= 0 else alone), reopen if fence else None, alone


def _opens(bare: str, begin: str) -> bool:
    """`bare` (a line without its ending and trailing blanks) is the begin marker: `begin`
    itself when it is a whole comment, else `begin`, then nothing or a note after a space,
    closing the comment at the line's end and nowhere before."""
    if begin.endswith("-->"):
        return bare == begin
    rest = bare[len(begin) :]
    return (
        bare.startswith(begin)
        and rest.endswith("-->")
        and "-->" not in rest[:-3]
        and (rest == "-->" or rest[0] in " \t")
    )


def broken(text: str, begin: str, end: str) -> tuple[int, str] | None:
    """(line, what is wrong and what to do) when `text`'s markers do not make one block that
    `find` can replace: a marker with no partner, or a second block after the first (a merge
    that kept both sides: only the first would be rewritten); None when there is one block or
    none. `sync` refuses such a file and `validate` reports it, with the same words."""
    start, stop = find(text, begin, end)
    if start >= 0 and stop > start:
        after = stop + len(end)
        again, _ = find(text[after:], begin, end)
        if again < 0:
            return None
        return line_at(text, after + again), (
            "a second orkestra:begin marker here: the file holds Orkestra's block twice, and "
            "only the first would ever be updated; delete this copy (from this line to its "
            "orkestra:end line), then run the command again"
        )
    if start < 0 and stop < 0:
        return None
    kind, other = ("begin", "end") if start >= 0 else ("end", "begin")
    return line_at(text, start if start >= 0 else stop), (
        f"the orkestra:{kind} marker here has no {other} marker to pair with (a begin's end "
        "must come before any other begin); restore the pair around Orkestra's block, or "
        "remove this line"
    )
