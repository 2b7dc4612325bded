"""Walking candidate folders with `lstat` only: symlinks are reported, never followed."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from orkestra.core.filenames import VCS_DIRS

EntryKind = Literal["file", "symlink", "special", "unlistable"]
# where candidates are not looked for: a SKILL.md in there is a dependency's, not a candidate
SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv"})


@dataclass(frozen=True)
class Entry:
    """One item inside a candidate folder (path relative to the folder, posix)."""

    rel: str
    path: Path
    kind: EntryKind
    size: int = 0
    target: str | None = None  # symlink target text (never resolved); why a folder is unlistable
    #: a regular file's link count and (device, inode): a hard link shares the file with others
    nlink: int = 1
    inode: tuple[int, int] = (0, 0)


def find_candidates(path: Path) -> list[Path]:
    """Every folder at or below `path` holding a `SKILL.md`, sorted.

    A symlinked SKILL.md still makes a candidate (so the review can report it), but is never read.

    Symlinked folders are not entered, so the walk never leaves `path`. A candidate's own
    sub-folders are still searched: nested skills are candidates too.
    """
    found: list[Path] = []
    stack = [path]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as items:
                children = sorted(items, key=lambda e: e.name)
        except OSError:  # a folder we cannot list offers no skill to adopt; nothing is read
            continue
        for item in children:
            mode = item.stat(follow_symlinks=False).st_mode
            if item.name == "SKILL.md" and (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
                found.append(folder)
            elif stat.S_ISDIR(mode) and item.name not in SKIP_DIRS:
                stack.append(Path(item.path))
    return sorted(found)


def is_skill_folder(folder: Path) -> bool:
    """True when `folder` holds a regular-file `SKILL.md` (checked with lstat)."""
    try:
        return stat.S_ISREG(os.lstat(folder / "SKILL.md").st_mode)
    except OSError:  # no SKILL.md there (or not reachable): not a skill folder
        return False


def walk(folder: Path) -> list[Entry]:
    """Every file, symlink and special file below `folder` (lstat; symlinks not followed), and
    every folder that cannot be listed (kind "unlistable", so the review reports it).

    Everything sync publishes with the skill is reviewed: bundled `node_modules/`, `.venv/` and
    `__pycache__/` folders, and nested skill folders (they are candidates of their own too, but
    the parent's link or copy carries them). Only version-control metadata is left out.
    """
    entries: list[Entry] = []
    stack: list[tuple[Path, str]] = [(folder, "")]
    while stack:
        current, prefix = stack.pop()
        try:
            with os.scandir(current) as items:
                children = sorted(items, key=lambda e: e.name)
        except OSError as exc:  # its files would escape the review: report the folder itself
            reason = exc.strerror or type(exc).__name__
            entries.append(Entry(prefix.rstrip("/") or ".", current, "unlistable", 0, reason))
            continue
        for item in children:
            rel = f"{prefix}{item.name}"
            info = item.stat(follow_symlinks=False)
            mode = info.st_mode
            if stat.S_ISLNK(mode):
                link = Path(item.path)
                entries.append(Entry(rel, link, "symlink", 0, str(link.readlink())))
            elif stat.S_ISDIR(mode):
                if item.name not in VCS_DIRS:
                    stack.append((Path(item.path), f"{rel}/"))
            elif stat.S_ISREG(mode):
                inode = (info.st_dev, info.st_ino)
                entries.append(
                    Entry(rel, Path(item.path), "file", info.st_size, None, info.st_nlink, inode)
                )
            else:
                entries.append(Entry(rel, Path(item.path), "special", 0))
    return sorted(entries, key=lambda e: e.rel)


#: (device, inode) -> the paths of a hard-linked file's names found in one import's candidates
LinkNames = dict[tuple[int, int], set[str]]


def link_names(entries: list[Entry], into: LinkNames | None = None) -> LinkNames:
    """The names of every hard-linked regular file among `entries`, by (device, inode)."""
    names: LinkNames = {} if into is None else into
    for entry in entries:
        if entry.kind == "file" and entry.nlink > 1:
            names.setdefault(entry.inode, set()).add(os.path.normpath(entry.path))
    return names


def shared_outside(
    entries: list[Entry], siblings: LinkNames | None = None
) -> list[tuple[Entry, int]]:
    """Regular files with more names (hard links) than the walk found inside the folder, each
    with the number found inside: the other names live elsewhere (`os.link("~/.ssh/id_rsa", …)`),
    so the skill publishes a file that is not its own. Git's metadata is left out of the walk,
    so a name there counts as outside too. `siblings`: the names found in the other candidates
    of the same import (`link_names`): a helper hard-linked between two skills of one vendor
    folder, as `jdupes -L` or `rdfind` deduplicate it, is reviewed in both and not outside."""
    own = link_names(entries)
    found = []
    for entry in entries:
        if entry.kind != "file" or entry.nlink <= 1:
            continue
        names = own[entry.inode]
        if siblings and entry.inode in siblings:
            names = names | siblings[entry.inode]
        if entry.nlink > len(names):
            found.append((entry, len(own[entry.inode])))
    return found


def read_bytes(entry: Entry, limit: int) -> bytes | None:
    """The bytes of a regular file, opened without following a symlink; None when too large."""
    if entry.kind != "file" or entry.size > limit:
        return None
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(entry.path, flags)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            if sum(len(c) for c in chunks) > limit:
                return None
        return b"".join(chunks)
    finally:
        os.close(fd)
