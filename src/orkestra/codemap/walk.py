"""The files a code map covers: git's tracked and unignored files, else a plain walk."""

from __future__ import annotations

import os
import posixpath
import stat
from pathlib import Path

from orkestra.core import git

MAX_BYTES = 1 << 20
SKIP_DIRS = frozenset({".git", ".orkestra", ".hg", ".svn", "__pycache__", ".venv", "node_modules"})


def list_files(root: Path) -> list[str]:
    """Paths relative to `root`, sorted: `git ls-files` (`.gitignore` respected) in a git work
    tree, also when `root` is a folder inside one (a service of a monorepo: git lists the files
    below it, relative to it, unless it lists none: a project the repository around it ignores,
    a home folder's dotfiles repository ignoring `*`); else a plain walk."""
    own = (root / ".git").exists()
    if own or git.in_work_tree(root.parent):
        out = git.run(
            root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", check=False
        )
        if out.ok:
            listed = {p for p in out.stdout.split("\0") if p and not p.startswith(".orkestra/")}
            if listed or own:
                return sorted(listed)
    return _walk(root)


def _walk(root: Path) -> list[str]:
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        rel = os.path.relpath(folder, root)
        for name in files:
            found.append(name if rel == "." else f"{rel}/{name}".replace(os.sep, "/"))
    return sorted(found)


def nameable(root: Path, rel: str) -> bool:
    """Whether a listed path is a UTF-8 name the map can hold: a plain walk gives an undecodable
    byte as a lone surrogate (`caf\\udce9.py`), git's listing as U+FFFD (`caf\\ufffd.py`, which
    names no file)."""
    if "\ufffd" in rel:
        return os.path.lexists(os.path.join(root, rel))  # noqa: PTH118
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def is_binary(head: bytes) -> bool:
    """True when the first bytes hold a NUL (the same test git uses)."""
    return b"\0" in head[:8192]


class Inside:
    """Whether a listed file's folder stays inside the root once symlinks are followed: a tracked
    folder replaced by a symlink to elsewhere (`lib -> /home/me/secrets`) must not bring files
    from outside the project into the map. Each folder is looked at once, with one `lstat`: it
    is inside when its parent is and it is no symlink, or a symlink whose target is inside."""

    def __init__(self, root: Path) -> None:
        self.real = os.path.realpath(root)
        self.folders: dict[str, bool] = {"": True}

    def __call__(self, rel: str) -> bool:
        return self._folder(posixpath.dirname(rel))

    def _folder(self, folder: str) -> bool:
        known = self.folders.get(folder)
        if known is not None:
            return known
        inside = self._folder(posixpath.dirname(folder))
        if inside:
            full = os.path.join(self.real, folder)  # noqa: PTH118
            try:
                link = stat.S_ISLNK(os.lstat(full).st_mode)
            except OSError:  # gone: its files are gone too, and reading them says so
                link = False
            if link:
                real = os.path.realpath(full)
                inside = real == self.real or real.startswith(self.real + os.sep)
        self.folders[folder] = inside
        return inside
