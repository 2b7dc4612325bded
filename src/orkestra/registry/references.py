"""Dangling references told precisely: the line the bad name is written on (ORK020-ORK028,
ORK031), and the closest existing names (ORK020-ORK028, ORK031), the way `orkestra agents info`
suggests them; and the line a name is written on again in one list (ORK117)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from pathlib import Path

from orkestra.registry.registry import Location


def closest(name: str, known: Iterable[str]) -> list[str]:
    """Up to three existing names close to `name` (difflib, cutoff 0.5); one that differs only
    by case (`dec-cl-001` for DEC-CL-001) comes first, whatever difflib ranks above it."""
    names = [str(k) for k in known]
    base = name.split("(", 1)[0].strip()  # `Bsh(git:*)` is compared as `Bsh`
    same = [k for k in names if k.casefold() == base.casefold() and k != base]
    close = difflib.get_close_matches(base, names, n=3, cutoff=0.5)
    return [*same, *(k for k in close if k not in same)][:3]


#: where the names of each kind are listed, for a reference nothing resembles
_WHERE = {
    "agent": "`orkestra agents list` shows them",
    "skill": "`orkestra skills list` shows them",
    "scope": "`orkestra scopes list` shows them",
    "tool": "register it in registries/tools.yaml",
    "identity": "registries/characters/identities.yaml lists them",
    "mindset": "registries/characters/mindsets.yaml lists them",
    "style": "registries/characters/styles.yaml lists them",
    "domain": "a domain is a folder under registries/domains/",
    "truth": "`orkestra truths list` shows them",
    "decision": "`orkestra decisions list` shows them",
}


def hint(name: str, known: Iterable[str], kind: str) -> str:
    """`; did you mean a, b?` when some existing name is close, else where the names are."""
    close = closest(name, known)
    if close:
        return f"; did you mean {', '.join(close)}?"
    where = _WHERE.get(kind)
    return f"; no {kind} is named so ({where})" if where else ""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _patterns(name: str) -> tuple[re.Pattern[str], ...]:
    quoted = rf"""['"]?{re.escape(name)}['"]?"""
    return (
        re.compile(rf"^\s*-\s*{quoted}\s*(?:#.*)?$"),  # - name        (block list item)
        re.compile(rf":\s*{quoted}\s*(?:#.*)?$"),  # key: name     (scalar value)
        re.compile(rf"[\[,]\s*{quoted}\s*(?=[,\]])"),  # [a, name]     (flow list)
    )


class LineFinder:
    """Finds a referenced name inside the entry at a Location; reads each file once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: dict[str, list[str]] = {}

    def _lines(self, file: str) -> list[str]:
        if file not in self._files:
            try:
                text = (self.root / file).read_text(encoding="utf-8-sig", errors="replace")
            except OSError:  # unreadable since loading: the entry's own line stays the answer
                text = ""
            self._files[file] = text.splitlines()
        return self._files[file]

    def _block(self, lines: list[str], start: int) -> range:
        """Line indexes of the entry starting at index `start`: the whole file for an entry at its
        top, else the lines indented deeper than the entry's key."""
        if start <= 0:
            return range(len(lines))
        depth = _indent(lines[start])
        end = start + 1
        while end < len(lines):
            text = lines[end]
            if text.strip() and not text.lstrip().startswith("#") and _indent(text) <= depth:
                break
            end += 1
        return range(start, end)

    def line(self, loc: Location, name: str, key: str | None = None) -> int:
        """The 1-based line where `name` is referred to in the entry at `loc` (else loc.line);
        with `key`, only as the value of that key (`superseded_by: X`, not the entry's `id: X`)."""
        lines = self._lines(loc.file)
        start = max(loc.line, 1) - 1
        if start >= len(lines):
            return loc.line
        block = self._block(lines, start)
        patterns = _patterns(name)
        if key is not None:
            quoted = rf"""['"]?{re.escape(name)}['"]?"""
            keyed = rf"^\s*(?:-\s*)?{re.escape(key)}\s*:\s*{quoted}\s*(?:#.*)?$"
            patterns = (re.compile(keyed),)
        for index in block:
            if any(p.search(lines[index]) for p in patterns):
                return index + 1
        return loc.line

    def repeat_line(self, loc: Location, key: str, name: str) -> int:
        """The 1-based line where `name` is written a second time in the list under `key` of the
        entry at `loc` (a block list, or a flow list on the key's line); else the key's line,
        else loc.line."""
        return self.list_line(loc, key, name, 2)

    def list_line(self, loc: Location, key: str, name: str, nth: int = 1) -> int:
        """The 1-based line where `name` is written the `nth` time in the list under `key` of the
        entry at `loc` (a block list, or a flow list on the key's line); else the key's line,
        else loc.line."""
        lines = self._lines(loc.file)
        start = max(loc.line, 1) - 1
        if start >= len(lines):
            return loc.line
        keyed = re.compile(rf"^\s*(?:-\s*)?{re.escape(key)}\s*:(.*)$")
        block = list(self._block(lines, start))
        at = next((i for i in block if keyed.match(lines[i])), None)
        if at is None:
            return loc.line
        quoted = rf"""['"]?{re.escape(name)}['"]?"""
        flow = re.compile(rf"(?<=[\[,])\s*{quoted}\s*(?=[,\]])")
        item = re.compile(rf"^\s*-\s*{quoted}\s*(?:#.*)?$")
        head = keyed.match(lines[at])
        seen = len(flow.findall(head.group(1))) if head else 0
        if seen >= nth:
            return at + 1
        depth = _indent(lines[at])
        for index in range(at + 1, block[-1] + 1):
            text = lines[index]
            if text.strip() and not text.lstrip().startswith("#"):
                level = _indent(text)
                if level < depth or (level == depth and not text.lstrip().startswith("-")):
                    break  # the next key: the list ended
            if item.match(text):
                seen += 1
                if seen >= nth:
                    return index + 1
        return at + 1
