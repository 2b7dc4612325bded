"""Obsidian wikilinks (`[[note]]`, `[[note|label]]`, `[[note#heading]]`) and their resolution.

A link resolves to a note (by file name, path, title or alias, case-insensitive), or — for
`[[DEC-XX-NNN]]` and `[[GT-XXX-NNN]]` — to a decision record or a ground truth in the registries.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

from orkestra.knowledge.notes import KnowledgeBase, Note, Problem

_LINK = re.compile(r"(!?)\[\[([^\[\]\n|#]*)(?:#([^\[\]\n|]*))?(?:\|([^\[\]\n]*))?\]\]")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")  # indented too: a fence inside a list item
#: an inline code span: a run of backticks, then the same run (CommonMark; on one line here)
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)")
DECISION_ID = re.compile(r"^DEC-[A-Z]{2}-[0-9]{3,}\Z")
TRUTH_ID = re.compile(r"^GT-[A-Z]{2,5}-[0-9]{3}\Z")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")


class Link(NamedTuple):
    """One wikilink found in a note body, at a 1-based line of the file."""

    target: str
    heading: str | None
    label: str | None
    line: int


def parse_links(body: str, first_line: int = 1) -> list[Link]:
    """Every wikilink in `body` outside fenced code blocks and inline code spans; `first_line`
    is the body's line."""
    links: list[Link] = []
    for offset, text in _outside_code(body):
        if "[[" not in text:
            continue
        # `[[note]]` in an inline code span is code (as Obsidian renders it), not a link
        text = _CODE_SPAN.sub(lambda m: " " * len(m.group()), text)
        # in a markdown table a link's `|` is escaped (`[[note\\|label]]`): the same link
        for match in _LINK.finditer(text.replace("\\|", "|")):
            target = match.group(2).strip()
            heading = (match.group(3) or "").strip() or None
            label = (match.group(4) or "").strip() or None
            links.append(Link(target, heading, label, first_line + offset))
    return links


def _outside_code(body: str) -> list[tuple[int, str]]:
    """(0-based line number, text) of the lines of `body` outside fenced code blocks. A fence
    closes on a line of its own character, at least as long, with nothing after it
    (CommonMark): a ``` line inside a `~~~` block (a markdown example) is code."""
    out: list[tuple[int, str]] = []
    fence = ""
    for offset, text in enumerate(body.splitlines()):
        match = _FENCE.match(text)
        if fence:
            if match and match.group(1).startswith(fence) and not text[match.end() :].strip():
                fence = ""  # the same character, at least as many, nothing after
            continue
        if match and not (match.group(1)[0] == "`" and "`" in text[match.end() :]):
            fence = match.group(1)
            continue
        out.append((offset, text))
    return out


def headings(body: str) -> set[str]:
    """The headings of a markdown body outside fenced code, lower-cased."""
    out: set[str] = set()
    for _, text in _outside_code(body):
        match = _HEADING.match(text)
        if match:
            out.add(match.group(1).strip().lower())
    return out


_SUFFIX = re.compile(r"\.[A-Za-z0-9]{1,5}\Z")


def has_suffix(target: str) -> bool:
    """Whether a link target ends in a file suffix (`flow.png`; not `v1.2 notes`)."""
    return _SUFFIX.search(target.strip()) is not None


def has_block(body: str, block: str) -> bool:
    """Whether `body` marks a block `^block` (Obsidian: ` ^id` at the end of its line)."""
    return re.search(rf"(?:^|\s)\^{re.escape(block)}[ \t]*$", body, re.MULTILINE) is not None


class Resolver:
    """Resolves link targets against the notes and the registry record ids."""

    def __init__(self, kb: KnowledgeBase, root: Path, knowledge: str) -> None:
        self.names: dict[str, Note] = {}
        for note in kb.notes:
            rel = note.rel.removeprefix(knowledge + "/").removesuffix(".md")
            for key in (note.name, rel, note.title, *note.aliases):
                self.names.setdefault(key.lower(), note)
        self.root = root
        self.folder = root / knowledge
        self._files: set[str] | None = None
        self._decisions: set[str] | None = None
        self._truths: set[str] | None = None

    def note(self, target: str) -> Note | None:
        key = target.strip().lower().removesuffix(".md")
        return self.names.get(key)

    def file_exists(self, target: str) -> bool:
        """Whether `target` names a file of the knowledge folder that is not a note (an image,
        a PDF an embed shows): by its path there, or by its name alone, as Obsidian finds it."""
        if not has_suffix(target):
            return False
        if self._files is None:
            self._files = set()
            base = str(self.folder)
            for dirpath, dirnames, filenames in os.walk(base):
                dirnames[:] = [d for d in dirnames if not d.startswith(".")]
                rel = dirpath[len(base) + 1 :].replace(os.sep, "/")
                for name in filenames:
                    self._files.update((name.lower(), f"{rel}/{name}".lstrip("/").lower()))
        return target.strip().lower().lstrip("/") in self._files

    def record_exists(self, target: str) -> bool | None:
        """True/False for a DEC-/GT- id, None when the target is not a record id."""
        if DECISION_ID.match(target):
            return target in self.decisions()
        if TRUTH_ID.match(target):
            return target in self.truths()
        return None

    def decisions(self) -> set[str]:
        if self._decisions is None:
            folder = self.root / "registries" / "decisions" / "records"
            found = set()
            if folder.is_dir():
                for path in folder.iterdir():
                    match = re.match(r"^(DEC-[A-Z]{2}-[0-9]{3,})", path.name)
                    if match:
                        found.add(match.group(1))
            self._decisions = found
        return self._decisions

    def truths(self) -> set[str]:
        if self._truths is None:
            from orkestra.knowledge.truthfile import existing_ids

            self._truths = existing_ids(self.root)
        return self._truths


def check_links(kb: KnowledgeBase, root: Path, knowledge: str) -> list[Problem]:
    """Warnings for links to missing notes, records or headings."""
    resolver = Resolver(kb, root, knowledge)
    problems: list[Problem] = []
    for note in kb.notes:
        for link in parse_links(note.body, note.body_line):
            if not link.target:
                continue  # `[[#heading]]` points inside the same note
            record = resolver.record_exists(link.target)
            if record is not None:
                if not record:
                    problems.append(
                        Problem(
                            "warning",
                            "KN020",
                            f"[[{link.target}]]: no such record in registries/",
                            note.rel,
                            link.line,
                        )
                    )
                continue
            target = resolver.note(link.target)
            if target is None and resolver.file_exists(link.target):
                continue  # an attachment (`![[flow.png]]`): a file of the vault, not a note
            if target is None:
                also = ", nor such a file" if has_suffix(link.target) else ""
                problems.append(
                    Problem(
                        "warning",
                        "KN021",
                        f"[[{link.target}]]: no note with that name, title or alias{also}",
                        note.rel,
                        link.line,
                    )
                )
            elif link.heading and link.heading.startswith("^"):
                if not has_block(target.body, link.heading[1:]):
                    problems.append(
                        Problem(
                            "warning",
                            "KN022",
                            f"[[{link.target}#{link.heading}]]: {target.rel} has no such block "
                            f"({link.heading})",
                            note.rel,
                            link.line,
                        )
                    )
            elif link.heading and link.heading.lower() not in headings(target.body):
                problems.append(
                    Problem(
                        "warning",
                        "KN022",
                        f"[[{link.target}#{link.heading}]]: {target.rel} has no such heading",
                        note.rel,
                        link.line,
                    )
                )
    return problems
