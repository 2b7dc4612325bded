"""The local observability stream `.orkestra/events.jsonl`: every hook event, enriched.

Enrichment: tool_type (builtin|mcp|skill|agent|bash), mcp_server, bash_cli (first word of a Bash
command), subagent_type, agent_tool (claude-code|codex), the file path touched, failures.
"""

# os.path, not pathlib: this module is on the hook start-up path (stdlib, minimal imports)
# ruff: noqa: PTH118, PTH119

from __future__ import annotations

import os

from orkestra.hooks.context import Context, append_jsonl, log, now
from orkestra.hooks.payloads import (
    AGENT_TOOLS,
    agent_tool,
    command_text,
    patched_paths,
    shell_paths,
)

__all__ = ["AGENT_TOOLS", "agent_tool"]

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: the hook path never imports typing
if TYPE_CHECKING:
    from typing import Any

EVENTS = ".orkestra/events.jsonl"
WRITE_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit")
_WRITE_COMMANDS = ("learn apply", "notes new", "notes verify")


def tool_type(name: str) -> str | None:
    """The family of a tool name."""
    if not name:
        return None
    if name.startswith(("mcp__", "MCP:")):  # Claude's and Codex's, Cursor's
        return "mcp"
    if name == "Bash":
        return "bash"
    if name == "Skill":
        return "skill"
    if name in ("Task", "Agent"):
        return "agent"
    return "builtin"


def bash_cli(command: str) -> str | None:
    """First word of a shell command, past `VAR=value` assignments and a leading `sudo`/`env`."""
    for word in command.split():
        if "=" in word.split("/")[0] or word in ("sudo", "env", "time", "command"):
            continue
        return os.path.basename(word.strip("'\"()")) or None
    return None


def file_path(tool_input: dict[str, Any]) -> str | None:
    for key in ("file_path", "notebook_path", "path"):
        value = tool_input.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def failed(response: Any) -> bool:
    """Whether a tool_response reports a failure (is_error, error, success false, exit code,
    Copilot's resultType)."""
    if not isinstance(response, dict):
        return False
    if (
        response.get("is_error") is True
        or response.get("success") is False
        or response.get("error")
        or response.get("resultType", response.get("result_type")) in ("failure", "denied", "error")
    ):
        return True
    code = response.get("exit_code", response.get("returnCode"))
    return isinstance(code, int) and code != 0


def record(ctx: Context, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The enriched event record for this payload."""
    p = ctx.payload
    raw_name, raw_input = p.get("tool_name"), p.get("tool_input")
    name: str = raw_name if isinstance(raw_name, str) else ""
    tool_input: dict[str, Any] = raw_input if isinstance(raw_input, dict) else {}
    command = command_text(tool_input)
    rel = None
    path = file_path(tool_input)
    if path is not None:
        rel = ctx.rel(path)
    patched = False
    if name == "apply_patch" and path is None:  # Codex's edits: the patch names the files
        touched = [ctx.rel(p) for p in patched_paths(command)]
        inside = [r for r in touched if ctx.in_knowledge(r) is not None]
        rel = (inside or [r for r in touched if r is not None] or [None])[0]
        patched, command = bool(inside), ""
    if name == "Bash" and path is None and command:  # the files the command wrote or printed
        reads, written = shell_paths(command)
        changed = [r for r in (ctx.rel(w) for w in written) if r is not None]
        inside = [r for r in changed if _knowledge_path(ctx, r)]
        patched = bool(inside)
        seen = [r for r in (ctx.rel(f) for f in reads) if r is not None]
        noted = [r for r in seen if ctx.in_knowledge(r) is not None]
        rel = (inside or noted or changed or seen or [None])[0]
    subagent = tool_input.get("subagent_type") or p.get("agent_type")
    writes = bool(
        patched
        or (name in WRITE_TOOLS and ctx.in_knowledge(rel) is not None)
        or (command and "orkestra" in command and any(c in command for c in _WRITE_COMMANDS))
    )
    out: dict[str, Any] = {
        "ts": now(),
        "event": p.get("hook_event_name") if isinstance(p.get("hook_event_name"), str) else None,
        "session_id": ctx.session_id or None,
        "agent_tool": ctx.client,
        "tool_name": name or None,
        "tool_type": tool_type(name),
        "mcp_server": name.split("__")[1]
        if name.startswith("mcp__") and name.count("__") >= 2
        else None,
        "bash_cli": bash_cli(command) if name == "Bash" and command else None,
        "subagent_type": subagent if isinstance(subagent, str) else None,
        "path": rel,
        "knowledge_write": writes,
        "failed": failed(p.get("tool_response")),
        "duration_ms": p.get("duration_ms") if isinstance(p.get("duration_ms"), int) else None,
    }
    return out | (extra or {})


def _knowledge_path(ctx: Context, rel: str) -> bool:
    """Whether `rel` is the knowledge folder or lies in it (`rm -r knowledge/gotchas`)."""
    folder = str(ctx.knowledge["path"]).strip("/")
    return ctx.in_knowledge(rel) is not None or (ctx.knowledge_known and rel == folder)


def append(ctx: Context, rec: dict[str, Any]) -> None:
    """Append a record to the events log of the project."""
    append_jsonl(ctx.root, EVENTS, rec)


def session_records(root: str, session_id: str) -> list[dict[str, Any]]:
    """The events of one session (lines not mentioning the id are skipped unparsed).

    Only the log's recent end is read (`jsonio.tail_lines`: its last 64 MiB, in 64 KiB pieces,
    a line over 1 MiB skipped unread), so a log grown for months never slows or fills the stop
    hook; a session's own events are the latest. Every line parsed goes through `core.jsonio`
    (nesting and size limits); a line it refuses, like a line torn by a concurrent hook, is
    skipped: a hook never fails over its own log.
    """
    from orkestra.core import jsonio
    from orkestra.core.errors import InputError
    from orkestra.core.readfile import leaving

    out: list[dict[str, Any]] = []
    if not session_id:
        return out
    path = os.path.join(root, EVENTS)
    bad = ""
    if leaving(root, EVENTS) is not None:  # not the hooks' log: never read (§13)
        log(root, f"{EVENTS} is a symlink leading outside the project; it was not read")
        return out
    wanted = session_id.encode("utf-8", "replace")
    try:
        for number, raw in enumerate(jsonio.tail_lines(path), start=1):
            if raw is None or wanted not in raw:
                continue
            line = raw.decode("utf-8", errors="replace")
            try:
                item = jsonio.loads(line, source=path, line=number)
            except InputError as exc:  # a torn or hostile line: skipped, the first logged
                bad = bad or str(exc)
                continue
            if isinstance(item, dict) and item.get("session_id") == session_id:
                out.append(item)
    except OSError:  # no events log yet; a hook never fails the session over its own log
        return out
    if bad:
        log(root, f"events log line skipped: {bad}")
    return out
