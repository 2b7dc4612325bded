"""Signals of one commit: conventional type, breaking, releasable, packages and domains by path."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from orkestra.mining import conventional

DEFAULT_RELEASABLE = ("feat", "fix", "perf", "revert")


def glob_regex(glob: str) -> str:
    """Translate a path glob (`*` within a segment, `**` across segments, `?`, `[...]`) to regex."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("/**", i) and i + 3 == len(glob):
            out.append("(?:/.*)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        elif glob[i] == "[" and "]" in glob[i + 1 :]:
            end = glob.index("]", i + 1)
            body = glob[i + 1 : end].replace("\\", "\\\\")
            out.append(f"[^{body[1:]}]" if body.startswith("!") else f"[{body}]")
            i = end + 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return "".join(out)


def glob_folder(glob: str) -> str:
    """The folder a glob is rooted at (its segments before the first wildcard); '' for the root."""
    segments = []
    for segment in glob.split("/"):
        if any(ch in segment for ch in "*?["):
            break
        segments.append(segment)
    else:
        segments = segments[:-1]  # a plain file path: its folder
    return "/".join(s for s in segments if s)


@dataclass
class PathMapper:
    """Maps file paths to names (packages or domains) by glob, memoised per path."""

    globs: Mapping[str, str]  # name -> glob, or glob -> name with `by_glob`
    by_glob: bool = False
    _prefixes: list[tuple[str, str]] = field(default_factory=list)
    _rules: list[tuple[re.Pattern[str], str]] = field(default_factory=list)
    _memo: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        items = self.globs.items()
        pairs = list(items) if self.by_glob else [(g, n) for n, g in items]
        for glob, name in pairs:
            folder = glob[:-3]
            if glob.endswith("/**") and not any(ch in folder for ch in "*?["):
                self._prefixes.append((folder + "/", name))  # the common case, no regex
            else:
                self._rules.append((re.compile(glob_regex(glob) + r"\Z"), name))

    def names(self, path: str) -> tuple[str, ...]:
        hit = self._memo.get(path)
        if hit is None:
            found = [
                n for prefix, n in self._prefixes if path.startswith(prefix) or path == prefix[:-1]
            ]
            found += [n for rx, n in self._rules if rx.match(path)]
            hit = tuple(dict.fromkeys(found))
            self._memo[path] = hit
        return hit

    def names_of(self, paths: Sequence[str]) -> list[str]:
        found: dict[str, None] = {}
        for path in paths:
            for name in self.names(path):
                found[name] = None
        return sorted(found)


class SignalMaker:
    """Computes the §6.1 signals for commits under one mining configuration."""

    def __init__(
        self,
        packages: Mapping[str, str],
        domains_by_path: Mapping[str, str],
        releasable_types: Sequence[str] = DEFAULT_RELEASABLE,
        default_package: str | None = None,
    ) -> None:
        self.packages = PathMapper(packages)
        self.domains = PathMapper(domains_by_path, by_glob=True)
        self.releasable = frozenset(t.lower() for t in releasable_types)
        self.default_package = None if packages else default_package

    def signals(self, subject: str, body: str, files: Sequence[str]) -> dict[str, Any]:
        """The signals of one commit, as stored in the index."""
        parsed = conventional.parse(subject, body)
        packages = self.packages.names_of(files)
        if self.default_package is not None:
            packages = [self.default_package]
        return {
            "commit_type": parsed.type,
            "scope": parsed.scope,
            "breaking": parsed.breaking,
            "is_releasable_type": parsed.type in self.releasable,
            "domains_affected": self.domains.names_of(files),
            "packages": packages,
            "description": parsed.description,
            "reverts": parsed.reverts,
        }
