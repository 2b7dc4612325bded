"""File names the operating system gave with bytes that are not UTF-8.

Python decodes such bytes as lone surrogates (PEP 383). No registry file, render lock, JSON report
or client can hold that name, so readers refuse it and name it with `printable`. Standard library
only.
"""

from __future__ import annotations

# version-control metadata: written by the tool, not the author; neither reviewed nor published
# with a skill (`intake.walker.walk`, `render.targets.claude._copy_tree`)
VCS_DIRS = frozenset({".git", ".hg", ".svn"})


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
