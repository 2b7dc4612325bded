"""File names the operating system gave with bytes that are not UTF-8.

Python decodes such bytes as lone surrogates (PEP 383). No registry file, render lock, JSON report
or client can hold that name, so readers refuse it and name it with `printable`. Standard library
only.
"""

from __future__ import annotations


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
