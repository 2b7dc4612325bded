"""Dispatch `orkestra hook <event>`; never crashes the agent's session on bad input."""

from __future__ import annotations

import sys


def run(args: list[str]) -> int:
    """Run one hook handler. Placeholder dispatcher until the handlers land (issue 6)."""
    if not args or args[0] in ("-h", "--help"):
        sys.stdout.write("usage: orkestra hook session-start|post-tool-use|stop\n")
        return 0
    sys.stdin.read()
    return 0
