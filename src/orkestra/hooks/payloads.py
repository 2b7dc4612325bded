"""Each client's hook event read as Claude Code's (PRODUCT.md §4, §8.4): one shape for the handlers.

Sources (docs/clients/hooks.md lists them with what each confirms):
- Codex: the JSON schemas of its hook inputs (`codex-rs/hooks/schema/generated/*.input.schema.json`):
  Claude's field names. It has no Read tool: a note is read by a shell command (`Bash`,
  `tool_input.command`) and written by `apply_patch` (the patch text in `tool_input.command`).
- Copilot CLI (GitHub's "Copilot CLI hooks reference"): an event configured in camelCase
  (`sessionStart`, `postToolUse`, `agentStop`) sends camelCase fields and no event name:
  `sessionId`, `cwd`, `toolName` (`view`, `bash`, `edit`, `create`, ...), `toolArgs` (the
  arguments, possibly as a JSON string), `toolResult.resultType`, `transcriptPath`; one configured
  in PascalCase sends snake_case fields (`tool_input`, `tool_result.result_type`).
- Cursor (its hooks documentation): `conversation_id`, `generation_id`, `hook_event_name` in
  camelCase, `workspace_roots` (no `cwd`); `stop` sends `status` and `loop_count` (the follow-ups
  already made, 0 first) and takes `{"followup_message": ...}` back. `postToolUse`'s `tool_name`,
  `tool_input`, `tool_output` are known from adapters only, not from Cursor's own documentation.

Standard library only (the hook start-up path); never raises on any JSON object.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: the hook path never imports typing
if TYPE_CHECKING:
    from typing import Any

#: the clients a hook command may name in ORKESTRA_AGENT_TOOL (`hooks.clients` sets it)
AGENT_TOOLS = ("claude-code", "codex", "codex-cli", "copilot-cli", "cursor")
#: the clients with no Read tool: a note is read by a shell command (`shell_reads`)
SHELL_READING = ("codex", "codex-cli")


def agent_tool() -> str:
    """claude-code, or the client ORKESTRA_AGENT_TOOL names (the hook command sets it)."""
    import os

    value = os.environ.get("ORKESTRA_AGENT_TOOL", "claude-code")
    return value if value in AGENT_TOOLS else "claude-code"


#: a client's event name -> Claude's
EVENT_NAMES = {
    "sessionStart": "SessionStart",
    "postToolUse": "PostToolUse",
    "stop": "Stop",
    "agentStop": "Stop",
    "subagentStop": "SubagentStop",
}
#: the event a handler is installed for, when a payload names none (Copilot's camelCase events)
HANDLER_EVENTS = {"session-start": "SessionStart", "post-tool-use": "PostToolUse", "stop": "Stop"}
#: a client's own tool name -> Claude's, for the tools the handlers look at
TOOL_NAMES = {
    "copilot-cli": {
        "view": "Read",
        "bash": "Bash",
        "powershell": "Bash",
        "edit": "Edit",
        "create": "Write",
        "task": "Task",
    },
    "cursor": {"Shell": "Bash", "Terminal": "Bash"},
}
#: a shell command that prints a file it names (how Codex reads a note)
SHELL_READERS = frozenset(("cat", "head", "tail", "sed", "nl", "less", "more", "bat", "awk"))
#: `*** Add File: PATH` and its kin in an apply_patch text
_PATCHED = re.compile(r"^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$", re.M)


def client_of(payload: dict[str, Any], agent_tool: str) -> str:
    """The client that sent `payload`: what the hook command's ORKESTRA_AGENT_TOOL says, else
    what its shape shows (Copilot's camelCase fields, Cursor's conversation_id)."""
    if agent_tool != "claude-code":
        return agent_tool
    if "sessionId" in payload or "toolName" in payload:
        return "copilot-cli"
    if "conversation_id" in payload and "session_id" not in payload:
        return "cursor"
    return agent_tool


def normalize(payload: dict[str, Any], handler: str | None, agent_tool: str) -> dict[str, Any]:
    """`payload` with Claude's field names filled in from the client's own (the client's fields
    kept too): `session_id`, `cwd`, `hook_event_name`, `tool_name`, `tool_input` (an object),
    `tool_response`, `stop_hook_active`, `duration_ms`."""
    client = client_of(payload, agent_tool)
    out = dict(payload)
    _first(out, "session_id", payload, ("sessionId", "conversation_id"), str)
    _first(out, "transcript_path", payload, ("transcriptPath",), str)
    roots = payload.get("workspace_roots")
    first_root = roots[0] if isinstance(roots, list) and roots else None
    if not isinstance(out.get("cwd"), str) and isinstance(first_root, str):
        out["cwd"] = first_root  # Cursor: no cwd, the workspace's folders
    event = out.get("hook_event_name")
    if isinstance(event, str) and event in EVENT_NAMES:
        out["hook_event_name"] = EVENT_NAMES[event]
    elif event is None and client == "copilot-cli" and handler in HANDLER_EVENTS:
        out["hook_event_name"] = HANDLER_EVENTS[handler]  # camelCase events carry no name
    _first(out, "tool_name", payload, ("toolName",), str)
    name = out.get("tool_name")
    if isinstance(name, str):
        out["tool_name"] = TOOL_NAMES.get(client, {}).get(name, name)
    _first(out, "tool_input", payload, ("toolArgs",), object)
    out["tool_input"] = _object(out.get("tool_input"))
    _first(out, "tool_response", payload, ("tool_output", "toolResult", "tool_result"), object)
    if client == "cursor" and isinstance(out.get("tool_response"), str):  # its JSON text
        parsed = _object(out["tool_response"])
        out["tool_response"] = parsed or out["tool_response"]
    if "duration_ms" not in out and isinstance(payload.get("duration"), int):
        out["duration_ms"] = payload["duration"]
    stop = out.get("hook_event_name") == "Stop" and "stop_hook_active" not in out
    if client == "copilot-cli" and stop:
        # Copilot's agentStop says nothing of an earlier block: the events log does (`stop`
        # blocks once per session), so each of its stops reads as a first one
        out["stop_hook_active"] = False
    if client == "cursor" and "stop_hook_active" not in out:
        # Cursor's stop: a first stop of a completed loop is Claude's stop_hook_active false
        loops, status = payload.get("loop_count"), payload.get("status", "completed")
        if isinstance(loops, int) and not isinstance(loops, bool):
            out["stop_hook_active"] = loops > 0 or status != "completed"
    return out


def _first(
    out: dict[str, Any], key: str, payload: dict[str, Any], names: tuple[str, ...], kind: type
) -> None:
    """Set `out[key]` from the first of `names` the payload holds (as `kind`), unless set."""
    if key in out and out[key] is not None:
        return
    for name in names:
        value = payload.get(name)
        if value is not None and isinstance(value, kind):
            out[key] = value
            return


def _object(value: Any) -> dict[str, Any]:
    """A tool's arguments as an object: a JSON text holding one is parsed (Copilot's
    `toolArgs`, Cursor's MCP `tool_input`); anything else is {}."""
    if isinstance(value, dict):
        return value
    if not isinstance(value, str) or not value.lstrip().startswith("{"):
        return {}
    from orkestra.core import jsonio
    from orkestra.core.errors import InputError

    try:
        parsed = jsonio.loads(value, source="<stdin>", lone_surrogates="replace")
    except InputError:
        return {}
    return parsed if isinstance(parsed, dict) else {}


def command_text(tool_input: dict[str, Any]) -> str:
    """A shell tool's command as one string (Codex may give its argv as a list)."""
    command = tool_input.get("command")
    if isinstance(command, list) and all(isinstance(word, str) for word in command):
        import shlex

        return shlex.join(command)
    return command if isinstance(command, str) else ""


def shell_reads(command: str) -> list[str]:
    """The files a shell command prints (`cat F`, `sed -n '1,80p' F`, `head -50 F`, also inside
    `bash -lc '...'` and after `cd DIR &&`): the arguments of a reading command that are not
    options. Empty for anything else (a write, a pipe into a file is still only read here)."""
    import shlex

    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()<>")
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:  # an unclosed quote: not a command we can read
        return []
    shell = len(words) >= 3 and words[0] in ("bash", "sh", "zsh")
    if shell and words[1].startswith("-") and "c" in words[1]:  # `bash -lc '...'`
        return shell_reads(words[2])
    found: list[str] = []
    segment: list[str] = []
    # the folder a `cd DIR` moved to ("" where the command started, None where the review
    # cannot tell: `cd -`, `cd ~`, `cd $X`); a `( ... )` subshell's cd ends with it
    where: str | None = ""
    outer: list[str | None] = []
    for word in [*words, ";"]:
        if word and set(word) <= set(";&|()<>"):
            if segment[:1] == ["cd"]:
                where = _cd(where, segment[1:])
            else:
                found.extend(_at(where, path) for path in _segment_reads(segment))
            segment = []
            if "(" in word:
                outer.append(where)
            if ")" in word and outer:
                where = outer.pop()
        else:
            segment.append(word)
    return [path for path in found if path]


def _cd(where: str | None, args: list[str]) -> str | None:
    """The folder after `cd ARGS` run in `where` (None: one the review cannot tell)."""
    import posixpath

    args = [a for a in args if a not in ("-P", "-L", "--")]
    if where is None or len(args) != 1 or args[0] == "-" or args[0][:1] in ("~", "$"):
        return None
    return posixpath.join(where, args[0]) if where else args[0]


def _at(where: str | None, path: str) -> str:
    """`path` as named from where the command started ("" when it cannot be told)."""
    import posixpath

    if where is None:
        return path if posixpath.isabs(path) else ""
    return posixpath.join(where, path) if where else path


def _segment_reads(words: list[str]) -> list[str]:
    while words and ("=" in words[0].split("/")[0] or words[0] in ("sudo", "env", "command")):
        words = words[1:]
    if not words or words[0].rsplit("/", 1)[-1] not in SHELL_READERS:
        return []
    program, args = words[0].rsplit("/", 1)[-1], words[1:]
    if program in ("sed", "awk"):  # the script: the first operand, or what -e / -f give
        files, script, skip = [], False, False
        for word in args:
            if skip:
                skip = False
            elif word in ("-e", "-f", "--expression", "--file"):
                skip = script = True
            elif not word.startswith("-"):
                if script:
                    files.append(word)
                script = True
        return files
    return [a for a in args if not a.startswith("-") and not a.lstrip("+").isdigit()]


def patched_paths(patch: str) -> list[str]:
    """The files an `apply_patch` text adds, updates, deletes or moves to."""
    return [m.group(1).strip() for m in _PATCHED.finditer(patch)]
