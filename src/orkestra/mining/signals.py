"""Signals of one commit: conventional type, breaking, releasable, packages and domains by path."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from orkestra.core.globs import WILDCARDS, glob_regex
from orkestra.mining import conventional

DEFAULT_RELEASABLE = ("feat", "fix", "perf", "revert")


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
            if glob.endswith("/**") and not any(ch in folder for ch in WILDCARDS):
                self._prefixes.append((folder + "/", name))  # the common case, no regex
            else:
                self._rules.append((re.compile(glob_regex(glob) + r"\Z"), name))

    def names(self, path: str) -> tuple[str, ...]:
        """Names whose glob matches the file `path`."""
        found = self.folder_names(path.rpartition("/")[0])
        if self._rules:
            found += tuple(n for rx, n in self._rules if rx.match(path))
        return tuple(dict.fromkeys(found))

    def folder_names(self, folder: str) -> tuple[str, ...]:
        """Names of the `folder/**` globs covering every file in `folder` (memoised)."""
        hit = self._memo.get(folder)
        if hit is None:
            below = folder + "/"
            hit = tuple(n for prefix, n in self._prefixes if below.startswith(prefix))
            self._memo[folder] = hit
        return hit

    @property
    def has_rules(self) -> bool:
        return bool(self._rules)

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
        self._folders: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}

    def signals(self, subject: str, body: str, files: Sequence[str]) -> dict[str, Any]:
        """The signals of one commit, as stored in the index."""
        parsed = conventional.parse(subject, body)
        packages, domains = self._map(files)
        if self.default_package is not None:
            packages = [self.default_package]
        return {
            "commit_type": parsed.type,
            "scope": parsed.scope,
            "breaking": parsed.breaking,
            "is_releasable_type": parsed.type in self.releasable,
            "domains_affected": domains,
            "packages": packages,
            "description": parsed.description,
            "reverts": list(parsed.reverts) or None,
        }

    def _map(self, files: Sequence[str]) -> tuple[list[str], list[str]]:
        """(packages, domains) of a commit's files: one pass, memoised per folder."""
        if self.packages.has_rules or self.domains.has_rules:
            return self.packages.names_of(files), self.domains.names_of(files)
        packages: dict[str, None] = {}
        domains: dict[str, None] = {}
        memo = self._folders
        for path in files:
            folder = path.rpartition("/")[0]
            hit = memo.get(folder)
            if hit is None:
                hit = memo[folder] = (
                    self.packages.folder_names(folder),
                    self.domains.folder_names(folder),
                )
            for name in hit[0]:
                packages[name] = None
            for name in hit[1]:
                domains[name] = None
        return sorted(packages), sorted(domains)
