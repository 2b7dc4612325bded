"""The files a code map covers: git's tracked and unignored files, else a plain walk."""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

from orkestra.core import git

MAX_BYTES = 1 << 20
SKIP_DIRS = frozenset({".git", ".orkestra", ".hg", ".svn", "__pycache__", ".venv", "node_modules"})


def list_files(root: Path) -> list[str]:
    """Paths relative to `root`, sorted: `git ls-files` (`.gitignore` respected) in a repository."""
    if (root / ".git").exists():
        out = git.run(
            root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", check=False
        )
        if out.ok:
            return sorted(
                {p for p in out.stdout.split("\0") if p and not p.startswith(".orkestra/")}
            )
    return _walk(root)


def _walk(root: Path) -> list[str]:
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        rel = os.path.relpath(folder, root)
        for name in files:
            found.append(name if rel == "." else f"{rel}/{name}".replace(os.sep, "/"))
    return sorted(found)


def is_binary(head: bytes) -> bool:
    """True when the first bytes hold a NUL (the same test git uses)."""
    return b"\0" in head[:8192]


class Inside:
    """Whether a listed file's folder stays inside the root once symlinks are followed: a tracked
    folder replaced by a symlink to elsewhere (`lib -> /home/me/secrets`) must not bring files
    from outside the project into the map (each folder is resolved once)."""

    def __init__(self, root: Path) -> None:
        self.real = os.path.realpath(root)
        self.folders: dict[str, bool] = {"": True}

    def __call__(self, rel: str) -> bool:
        folder = posixpath.dirname(rel)
        if folder not in self.folders:
            real = os.path.realpath(os.path.join(self.real, folder))  # noqa: PTH118
            self.folders[folder] = real == self.real or real.startswith(self.real + os.sep)
        return self.folders[folder]
