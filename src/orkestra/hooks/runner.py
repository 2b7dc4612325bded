"""Dispatch `orkestra hook <event>`; never crashes the agent's session on bad input.

Standard library only (imported before typer/pydantic). Any failure is logged to
`.orkestra/logs/hooks.log` and the handler exits 0, so a hook never blocks the agent by accident.
"""

# os.path, not pathlib: this module is on the hook start-up path (stdlib, minimal imports)
# ruff: noqa: PTH109

from __future__ import annotations

import os
import sys

EVENTS = ("session-start", "post-tool-use", "stop")
#: the largest event accepted on stdin (Claude Code sends a few KB; tool output is capped)
MAX_STDIN = 16 << 20


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

    raw, problem, lossy = read_stdin()
    payload = None if problem else context.read_payload(raw)
    if payload is None:
        # outside a project nothing is written, not even this log line (§8.4)
        what = "not valid UTF-8 and not a JSON object" if lossy else "not a JSON object"
        reason = problem or f"ignored stdin that is {what}: {raw[:200]!r}"
        context.log(_here(), f"{args[0]}: {reason}")
        return 0
    ctx: context.Context | None = None
    try:
        from orkestra.hooks import handlers, payloads

        # each client's event read as Claude Code's (Codex, Copilot, Cursor: hooks.payloads)
        client = payloads.client_of(payload, payloads.agent_tool())
        ctx = context.Context(payloads.normalize(payload, args[0], client))
        if not ctx.in_project:
            return 0  # no registries/ at or above the event's cwd: do nothing, write nothing
        handler = {
            "session-start": handlers.session_start,
            "post-tool-use": handlers.post_tool_use,
            "stop": handlers.stop,
        }[args[0]]
        code, out = handler(ctx)
    except Exception as exc:  # a hook must never break the session
        # a failure while reading the project itself is logged in the project above the cwd
        root = ctx.root if ctx is not None and ctx.in_project else _here()
        context.log(root, f"{args[0]}: {type(exc).__name__}: {exc}")
        return 0
    if out:
        try:
            sys.stdout.write(out + "\n")
            sys.stdout.flush()
        except (AttributeError, OSError, ValueError) as exc:  # stdout closed (None) or gone
            context.log(ctx.root, f"{args[0]}: cannot write the answer to stdout: {exc}")
            _quiet_stdout()
    return code


def _quiet_stdout() -> None:
    """Point stdout at the null device, so the interpreter's last flush at exit does not print
    `Exception ignored ... BrokenPipeError` (the client already has its exit code)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except OSError:
        pass


def _here() -> str | None:
    """The project root above the current folder, None outside one (or when cwd is gone)."""
    from orkestra.hooks import context

    try:
        return context.project_root(os.getcwd())
    except OSError:
        return None


def read_stdin() -> tuple[str, str | None, bool]:
    """The event text from stdin, at most `MAX_STDIN` bytes: (text, None, lossy) or ("", why
    not, False). A byte that is not UTF-8 (a tool's binary output in the event) becomes U+FFFD
    and `lossy` is True: the rest of the event is still read."""
    if sys.stdin is None:  # run with stdin closed (`<&-`): Python leaves no stream at all
        return "", "cannot read stdin: no standard input", False
    try:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is not None:
            data: bytes = stream.read(MAX_STDIN + 1)
        else:  # a text stream (tests): characters, measured as UTF-8
            data = sys.stdin.read(MAX_STDIN + 1).encode("utf-8", "surrogateescape")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return "", f"cannot read stdin: {exc}", False
    if len(data) > MAX_STDIN:
        return "", f"ignored stdin larger than {MAX_STDIN} bytes", False
    try:
        return data.decode("utf-8"), None, False
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace"), None, True
