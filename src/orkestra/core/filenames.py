"""File names the operating system gave with bytes that are not UTF-8.

Python decodes such bytes as lone surrogates (PEP 383). No registry file, render lock, JSON report
or client can hold that name, so readers refuse it and name it with `printable`. Standard library
only.
"""

from __future__ import annotations

# git's own metadata: written by git, never by a commit (git refuses to track a `.git` path), so
# neither reviewed nor copied with a skill (`intake.walker.walk`, `render.targets.claude._copy_tree`).
# `.hg/` and `.svn/` can be committed into a git repository like any folder: they are reviewed.
VCS_DIRS = frozenset({".git"})


def is_utf8(name: str) -> bool:
    """False for a name holding bytes that are not UTF-8 (decoded as lone surrogates)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable(name: str) -> str:
    """The name with its undecodable bytes written as `\\xNN`: printable and JSON-safe."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
