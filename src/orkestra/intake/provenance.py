"""Provenance: when was each candidate folder last changed in git (read-only `git log`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from orkestra.core import git
from orkestra.core.errors import InputError


@dataclass(frozen=True)
class Activity:
    """Recent git activity below one folder: the repository (or None) and touched paths."""

    repo: Path | None
    since: dt.date
    touched: frozenset[str]  # paths relative to the repository top, posix

    def maintained(self, folder: Path) -> bool | None:
        """True when a file under `folder` changed since `since`; None outside a git repo."""
        if self.repo is None:
            return None
        try:
            rel = folder.resolve().relative_to(self.repo).as_posix()
        except ValueError:  # outside the git repository: no provenance to tell
            return None
        prefix = "" if rel == "." else f"{rel}/"
        return any(p.startswith(prefix) for p in self.touched)


def _git(args: list[str], cwd: Path) -> str | None:
    """stdout of a read-only git command; None outside a repository or when git cannot run."""
    try:
        done = git.run(cwd, *args, check=False, timeout=120)
    except InputError:  # no git binary, or it hung: provenance is simply unknown
        return None
    return done.stdout if done.ok else None


def activity(path: Path, today: dt.date, days: int) -> Activity:
    """One `git log --since` over `path`: which files changed in the last `days` days."""
    since = today - dt.timedelta(days=days)
    top = _git(["rev-parse", "--show-toplevel"], path)
    if top is None:
        return Activity(None, since, frozenset())
    out = _git(
        ["log", f"--since={since.isoformat()}T00:00:00", "--format=", "--name-only", "--", "."],
        path,
    )
    touched = frozenset(line for line in (out or "").splitlines() if line)
    return Activity(Path(top.strip()).resolve(), since, touched)
