"""Conventional Commits 1.0.0: `type(scope)!: description`, body, footers.

Rules implemented (https://www.conventionalcommits.org/en/v1.0.0/):
- the header is `type`, an optional `(scope)`, an optional `!`, then the terminal `: ` and a
  description; a type is a noun (letters, digits after the first letter, `-`); types are
  case-insensitive (reported lower-case);
- the body starts one blank line after the header and may have several paragraphs (CRLF line
  endings read as LF);
- footers follow one blank line after the body: `Token: value` or `Token #value`, a token uses
  `-` for spaces except `BREAKING CHANGE`; a value runs (over several lines) until the next
  token/separator pair;
- a change is breaking with `!` before the `:` or a `BREAKING CHANGE:`/`BREAKING-CHANGE:` footer
  (which must be upper case).
Git's own revert subjects `Revert "..."` and (git 2.43+, a revert of a revert) `Reapply "..."`
are reported as type `revert` (they are not conventional).
"""

from __future__ import annotations

import re
from typing import NamedTuple

_HEADER = re.compile(
    r"^(?P<type>[A-Za-z][A-Za-z0-9-]*)(?:\((?P<scope>[^()\r\n]+)\))?(?P<bang>!)?: (?P<desc>\S.*)$"
)
_FOOTER = re.compile(r"^(?P<token>BREAKING CHANGE|[A-Za-z0-9][\w-]*)(?:: | #)(?P<value>.*)$")
#: git's revert subject, and (git 2.43+) its subject for a revert of a revert
_GIT_REVERT = re.compile(r'^(?:Revert|Reapply) "(?P<subject>.*)"$')
_GIT_LAYER = re.compile(r'^(?P<kind>Revert|Reapply) "(?P<subject>.*)"$')
#: git's `This reverts commit X.`, and a hand-written `This reverts commits X, Y and Z.`
_REVERTS = re.compile(
    r"This reverts commits? (?P<shas>[0-9a-f]{7,40}(?:(?:,? and |, ?)[0-9a-f]{7,40})*)\b"
)
_SHA = re.compile(r"[0-9a-f]{7,40}")
#: a footer value naming commits: `676104e, a215868` (the Conventional Commits example)
_SHA_LIST = re.compile(r"[0-9a-f]{7,40}(?:(?:,? and |,? ?)[0-9a-f]{7,40})*")
BREAKING_TOKENS = ("BREAKING CHANGE", "BREAKING-CHANGE")


class Parsed(NamedTuple):
    """What one commit message says about itself (a tuple: parsed for every commit, so cheap)."""

    type: str | None
    scope: str | None
    breaking: bool
    description: str
    body: str
    footers: list[tuple[str, str]]
    reverts: tuple[str, ...] = ()

    @property
    def conventional(self) -> bool:
        return self.type is not None


def parse(subject: str, body: str = "") -> Parsed:
    """Parse one commit's subject line and body (git's `%s` and `%b`). A message written with
    CRLF (or bare CR) line endings keeps them in `%b`: they read as newlines, so its blank
    lines still separate paragraphs and footers."""
    if "\r" in body:
        body = body.replace("\r\n", "\n").replace("\r", "\n")
    body = body.strip("\n")
    if ": " in body or " #" in body:
        prose, footers = split_footers(body)
    else:
        prose, footers = body, []
    match = _HEADER.match(subject)
    if match is None:
        revert = _GIT_REVERT.match(subject)
        kind = "revert" if revert else None
        desc = revert.group("subject") if revert else subject
        reverts = _revert_targets(body, footers, kind == "revert") if body else ()
        return Parsed(kind, None, _footer_breaking(footers), desc, prose, footers, reverts)
    breaking = bool(match.group("bang")) or _footer_breaking(footers)
    scope = match.group("scope")
    kind = match.group("type").lower()
    reverts = _revert_targets(body, footers, kind == "revert") if body else ()
    return Parsed(
        kind,
        scope.strip() if scope else None,
        breaking,
        match.group("desc").strip(),
        prose,
        footers,
        reverts,
    )


def split_footers(body: str) -> tuple[str, list[tuple[str, str]]]:
    """Split a body into its prose and its trailing footer paragraphs.

    The footer block is the longest run of final paragraphs that each begin with a footer token;
    inside it, lines that do not start a new footer continue the previous value.
    """
    if not body:
        return "", []
    paragraphs = re.split(r"\n[ \t]*\n", body)
    start = len(paragraphs)
    while start > 0 and _starts_footer(paragraphs[start - 1]):
        start -= 1
    for index, paragraph in enumerate(paragraphs[:start]):
        if paragraph.startswith(BREAKING_TOKENS) and _starts_footer(paragraph):
            start = index  # a breaking-change note may span paragraphs of prose
            break
    footers: list[tuple[str, list[str]]] = []
    for line in "\n\n".join(paragraphs[start:]).split("\n"):
        match = _FOOTER.match(line)
        if match:
            footers.append((match.group("token"), [match.group("value")]))
        elif footers:
            footers[-1][1].append(line)
    pairs = [(token, "\n".join(lines).strip()) for token, lines in footers]
    return "\n\n".join(paragraphs[:start]).strip(), pairs


def _starts_footer(paragraph: str) -> bool:
    return _FOOTER.match(paragraph.partition("\n")[0]) is not None


def _footer_breaking(footers: list[tuple[str, str]]) -> bool:
    return bool(footers) and any(token in BREAKING_TOKENS for token, _ in footers)


def _revert_targets(body: str, footers: list[tuple[str, str]], is_revert: bool) -> tuple[str, ...]:
    """Every commit the message says it reverts, in order, once each: git's `This reverts commit
    X.` (several when reverts were squashed into one commit), `This reverts commits X, Y and Z.`,
    a `Reverts: X` footer, and for a revert commit `Refs: X, Y` (the Conventional Commits
    example). `Refs` of any other commit points at related work, never at what it undoes."""
    found: dict[str, None] = {}
    if "This reverts" in body:
        for match in _REVERTS.finditer(body):
            found.update(dict.fromkeys(_SHA.findall(match.group("shas"))))
    tokens = ("refs", "reverts") if is_revert else ("reverts",)
    for token, value in footers:
        if token.lower() in tokens and _SHA_LIST.fullmatch(value.strip()):
            found.update(dict.fromkeys(_SHA.findall(value)))
    return tuple(found)


def revert_chain(subject: str) -> tuple[int, str]:
    """(how many reverts deep, the subject they revert) for git's revert subjects: `Revert "X"`
    is 1, `Revert "Revert "X""` and git 2.43's `Reapply "X"` are 2, any other subject 0."""
    depth, inner = 0, subject.strip()
    while (layer := _GIT_LAYER.match(inner)) is not None:
        depth += 1 if layer.group("kind") == "Revert" else 2
        inner = layer.group("subject").strip()
    return depth, inner


def default_summary(subject: str, description: str) -> str:
    """The changelog line a commit gets when none is given: its description, and for a revert
    what it undoes in words a reader follows. Git's `Revert "feat(core): add x"` (and a
    conventional `revert: feat(core): add x`) is `Revert "Add x"`; a revert of a revert
    (`Revert "Revert "…""`, git 2.43's `Reapply "…"`) lands the change again: `Reapply "Add x"`,
    and so on by the parity of the chain."""
    depth, inner = revert_chain(subject)
    if depth == 0:
        header = _HEADER.match(subject)
        reverted = _HEADER.match(description)
        if header is None or header.group("type").lower() != "revert" or reverted is None:
            return description  # a revert described in prose keeps its author's words
        depth, inner = 1, description
    header = _HEADER.match(inner)
    text = header.group("desc").strip() if header else inner
    return f'{"Revert" if depth % 2 else "Reapply"} "{text[:1].upper()}{text[1:]}"'
