"""Walk an import tree safely: lstat only, no symlink leaving the tree, no devices, no huge files."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from orkestra.core.filenames import is_utf8, printable
from orkestra.importer.plugins import nested_agent

MAX_MARKDOWN = 1024 * 1024  # an agent or SKILL.md over 1 MiB is not a prompt
MAX_RESOURCE = 10 * 1024 * 1024
#: `__MACOSX`: the resource forks a macOS archive carries beside its files
SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", ".orkestra", "__pycache__", "__MACOSX"}
)
#: files an operating system leaves in folders (Finder's, Explorer's): never content
SKIP_FILES = frozenset({".DS_Store", "Thumbs.db"})
#: how an AppleDouble file (`._name`, a macOS resource fork on a foreign disk or archive) starts
APPLE_DOUBLE = b"\x00\x05\x16\x07"


@dataclass(frozen=True)
class Refused:
    """A path the import will not read, and why."""

    path: str
    reason: str
    #: the line the reason is about, when it is about one
    line: int | None = None

    def to_dict(self) -> dict[str, str | int | None]:
        return {"path": self.path, "line": self.line, "reason": self.reason}

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.reason}"


class Passed(Refused):
    """A path the import passes over without loss (a symlink to a folder it reads anyway):
    reported as skipped, not refused."""

    def skipped(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason}


class SafeTree:
    """Reads files below `base`, refusing anything that could leave it or is not a plain file."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.real = base.resolve()

    def rel(self, path: Path) -> str:
        return path.relative_to(self.base).as_posix()

    def check(self, path: Path, limit: int) -> Refused | None:
        """None when `path` is a readable regular file inside the tree, else why not."""
        rel = self.rel(path)
        try:
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                target = path.resolve()
                if not target.is_relative_to(self.real):
                    return Refused(
                        rel,
                        "symlink pointing outside the imported tree; copy the file it points to "
                        "into the tree, or import the folder that holds it",
                    )
                st = target.stat()
        except RuntimeError:  # Python < 3.13: a symlink loop is a RuntimeError in resolve()
            return Refused(rel, "symlink loop; remove the link or point it at a file")
        except OSError as exc:
            return Refused(
                rel, f"cannot read: {exc.strerror or exc}; make it readable and import again"
            )
        if not stat.S_ISREG(st.st_mode):
            return Refused(
                rel,
                "not a regular file (device, socket or fifo); remove it from the tree or "
                "put a regular file in its place",
            )
        if st.st_size > limit:
            return Refused(
                rel,
                f"file is {st.st_size} bytes, over the {limit}-byte limit; shorten it or split "
                "it into smaller files (a skill's long material goes in references/)",
            )
        return None

    def _linked(self, link: Path, walked: Path) -> Refused:
        """A symlinked folder: `Passed` when it leads inside `walked` (the real folder being
        walked) to a folder the walk reads anyway, else refused."""
        try:
            target = link.resolve()
        except (OSError, RuntimeError):
            return Refused(self.rel(link), SYMLINKED_FOLDER)
        inside = target.is_dir() and target.is_relative_to(walked)
        if not inside or SKIP_DIRS.intersection(target.relative_to(walked).parts):
            return Refused(self.rel(link), SYMLINKED_FOLDER)
        where = target.relative_to(self.real).as_posix() or "."
        return Passed(
            self.rel(link), f"symlink to {where}, whose files are imported from there: not followed"
        )

    def read(self, path: Path, limit: int) -> bytes | Refused:
        refused = self.check(path, limit)
        if refused is not None:
            return refused
        return path.read_bytes()

    def files(self, folder: Path) -> Iterator[Path | Refused]:
        """Every file below `folder` (sorted), never following symlinked folders: one that
        leads to a folder this walk reads anyway is `Passed`, any other `Refused`."""
        real = folder.resolve()
        for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
            here = Path(dirpath)
            kept = []
            for name in sorted(dirnames):
                if name in SKIP_DIRS:
                    continue
                if not is_utf8(name):
                    yield Refused(printable(self.rel(here / name)), NOT_UTF8_NAME)
                    continue
                if (here / name).is_symlink():
                    yield self._linked(here / name, real)
                    continue
                kept.append(name)
            dirnames[:] = kept
            for name in sorted(filenames):
                if name in SKIP_FILES or _apple_double(here / name):
                    continue
                if is_utf8(name):
                    yield here / name
                else:
                    yield Refused(printable(self.rel(here / name)), NOT_UTF8_NAME)


def _apple_double(path: Path) -> bool:
    """True for macOS's `._name` resource fork of `name` (by its magic number): litter of a
    copy or an archive made on a Mac, never a file of the source."""
    if not path.name.startswith("._"):
        return False
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False  # a symlink, unreadable: the reader refuses it with the reason
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and os.read(fd, 4) == APPLE_DOUBLE
    finally:
        os.close(fd)


NOT_UTF8_NAME = "name is not UTF-8 (undecodable bytes); rename it and import again"
SYMLINKED_FOLDER = (
    "symlinked folder (not followed); put a real folder in its place, or import the folder it "
    "points to on its own"
)


def undecodable(rel: str, raw: bytes, exc: UnicodeDecodeError) -> Refused:
    """A file that is not UTF-8, refused at the line of its first undecodable byte."""
    line = raw.count(b"\n", 0, exc.start) + 1
    return Refused(
        rel,
        f"not UTF-8 text (byte 0x{raw[exc.start]:02x} on this line); save the file as UTF-8 "
        "and import again",
        line,
    )


def with_nul(rel: str, raw: bytes, expected: str) -> Refused:
    """A text file holding a NUL byte (§13: no text field may hold one), refused at its line."""
    line = raw.count(b"\n", 0, raw.index(b"\x00")) + 1
    return Refused(
        rel,
        f"binary file (contains NUL bytes); expected {expected}: remove the NUL bytes and "
        "import again",
        line,
    )


def find_sources(tree: SafeTree) -> tuple[list[Path], list[Path], list[Refused]]:
    """(agent files `**/agents/*.md`, `**/SKILL.md` files, refused or `Passed` paths) in a
    stable order. A symlinked folder inside a skill is refused even when it leads to one the
    walk reads: the skill's copy would miss its files.

    Everything below a skill's folder belongs to that skill (a `templates/SKILL.md`, an
    `examples/x/SKILL.md`, the prompts of an `agents/` folder it ships): resources copied with
    it, never entries of their own."""
    agents: list[Path] = []
    skills: list[Path] = []
    refused: list[Refused] = []
    for item in tree.files(tree.base):
        if isinstance(item, Refused):
            refused.append(item)
        elif item.name == "SKILL.md":
            skills.append(item)
        elif item.suffix == ".md" and (
            item.parent.name == "agents" or nested_agent(item, tree.base)
        ):
            agents.append(item)
    folders = {path.parent for path in skills} - {tree.base}  # a root SKILL.md: as before

    def inside_a_skill(folder: Path) -> bool:
        return any(parent in folders for parent in folder.parents)

    skills = [path for path in skills if not inside_a_skill(path.parent)]
    agents = [path for path in agents if not inside_a_skill(path)]
    refused = [
        Refused(r.path, SYMLINKED_FOLDER)
        if isinstance(r, Passed) and inside_a_skill(tree.base / r.path)
        else r
        for r in refused
    ]
    return agents, skills, refused
