"""Dispatch `orkestra hook <event>`; never crashes the agent's session on bad input.

Standard library only (imported before typer/pydantic). Any failure is logged to
`.orkestra/logs/hooks.log` and the handler exits 0, so a hook never blocks the agent by accident.
"""

# os.path, not pathlib: this module is on the hook start-up path (stdlib, minimal imports)
# ruff: noqa: PTH109

from __future__ import annotations

import sys

EVENTS = ("session-start", "post-tool-use", "stop")


def run(args: list[str]) -> int:
    """Run one hook handler with the event JSON read from stdin."""
    if not args or args[0] not in EVENTS:
        # exit 0 even for an unknown handler: a misconfigured hook must not block the agent
        helping = not args or args[0] in ("-h", "--help")
        stream = sys.stdout if helping else sys.stderr
        stream.write(
            "usage: orkestra hook session-start|post-tool-use|stop (event JSON on stdin)\n"
        )
        return 0
    from orkestra.hooks import context

    try:
        raw = sys.stdin.read()
    except (OSError, UnicodeDecodeError, ValueError):  # no readable payload: read_payload's
        raw = ""  # empty event, which every handler answers with nothing
    payload = context.read_payload(raw)
    if payload is None:
        import os

        context.log(
            context.find_root(os.getcwd())[0],
            f"{args[0]}: ignored stdin that is not a JSON object: {raw[:200]!r}",
        )
        return 0
    try:
        from orkestra.hooks import handlers

        ctx = context.Context(payload)
        handler = {
            "session-start": handlers.session_start,
            "post-tool-use": handlers.post_tool_use,
            "stop": handlers.stop,
        }[args[0]]
        code, out = handler(ctx)
    except Exception as exc:  # a hook must never break the session
        import os

        context.log(os.getcwd(), f"{args[0]}: {type(exc).__name__}: {exc}")
        return 0
    if out:
        sys.stdout.write(out + "\n")
    return code
