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
    """The files a shell command prints (`cat F`, `sed -n '1,80p' F`, `head -50 F`, `< F`, also
    inside `bash -lc '...'` and after `cd DIR &&`): the arguments of a reading command that are
    not options. A file changed in place (`sed -i`, `perl -pi`) is a write, never a read."""
    return shell_paths(command)[0]


def shell_writes(command: str) -> list[str]:
    """The files or folders a shell command changes: removed, moved or copied onto (`rm`,
    `git rm`, `mv`, `git mv`, `cp`, `touch`, `truncate`), edited in place (`sed -i`,
    `perl -pi`), written (`tee`, `dd of=`, a `>` or `>>` redirection)."""
    return shell_paths(command)[1]


#: what a word of a shell command is made of, when it is an operator (`;`, `&&`, `|`, `>`, ...)
_OPERATOR = frozenset(";&|()<>\n")
#: `<<EOF`, `<<-'EOF'`, `<< "EOF"` (not a `<<<` here-string): its body is text, not commands
_HEREDOC = re.compile(r"(?<!<)<<(-?)[ \t]*(['\"]?)([A-Za-z_][\w.-]*)\2")
#: a command that removes, creates or rewrites each file operand it names
_WRITERS = frozenset(("rm", "rmdir", "unlink", "shred", "touch", "truncate", "tee", "mv"))
#: a command that writes only its last operand (or the folder `-t` names)
_COPIERS = frozenset(("cp", "install", "ln", "rsync"))
#: the options of each of those commands that take a value as the next word (`touch -d
#: yesterday F`, `mv -t DIR F`); `rm -r`, `rm -d`, `cp -r`, `ln -s`, `mv -n` take none
_MOVE_VALUED = ("-t", "-S", "--target-directory", "--suffix")
_VALUED: dict[str, tuple[str, ...]] = {
    "shred": ("-n", "-s", "--iterations", "--size", "--random-source"),
    "touch": ("-d", "-r", "-t", "--date", "--reference"),
    "truncate": ("-s", "-r", "--size", "--reference"),
    "mv": _MOVE_VALUED,
    "cp": _MOVE_VALUED,
    "ln": _MOVE_VALUED,
    "install": (*_MOVE_VALUED, "-m", "-o", "-g", "--mode", "--owner", "--group"),
    "rsync": ("-e", "--rsh", "-f", "--filter", "-T", "--temp-dir", "--exclude", "--include"),
}
#: words before the command itself (`sudo rm`, `env X=1 rm`, `time rm`)
_PREFIXES = frozenset(("sudo", "env", "command", "time", "nohup", "exec"))


def shell_paths(command: str) -> tuple[list[str], list[str]]:
    """(the files `command` prints, the files or folders it changes), each as named from
    where the command started; ([], []) for a command the review cannot split (an unclosed
    quote). A here-document's body is text, never read as commands."""
    import shlex

    text = _without_heredocs(command.replace("\\\n", " "))
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|()<>\n")
        lexer.whitespace = " \t\r"
        lexer.whitespace_split = True
        lexer.commenters = ""  # a `#` starts a comment only as a word of its own (below)
        words = list(lexer)
    except ValueError:  # an unclosed quote: not a command we can read
        return [], []
    reads: list[str] = []
    writes: list[str] = []
    segment: list[str] = []
    # the folder a `cd DIR` moved to ("" where the command started, None where the review
    # cannot tell: `cd -`, `cd ~`, `cd $X`); a `( ... )` subshell's cd ends with it
    where: str | None = ""
    outer: list[str | None] = []
    redirect = ""
    comment = False
    for word in [*words, ";"]:
        operator = bool(word) and set(word) <= _OPERATOR
        if comment and not (operator and "\n" in word):
            continue
        comment = False
        if redirect and not operator:  # the file of `> F`, `>> F`, `< F`
            if redirect == "<<":  # a here-document's delimiter names no file
                pass
            elif redirect == "<":
                reads.append(_at(where, word))
            elif redirect == ">" or not (word.isdigit() or word == "-"):  # not `>&2`
                writes.append(_at(where, word))
            redirect = ""
            continue
        redirect = ""
        if operator and ("<" in word or ">" in word):
            if segment and segment[-1].isdigit():  # the `2` of `2>/dev/null`
                segment.pop()
            if "<<" in word:
                redirect = "<<"
            elif ">" in word:
                redirect = ">&" if "&" in word else ">"
            else:
                redirect = "<"
            continue
        if operator:
            if segment[:1] == ["cd"]:
                where = _cd(where, segment[1:])
            else:
                _segment(segment, where, reads, writes)
            segment = []
            if "(" in word:
                outer.append(where)
            if ")" in word and outer:
                where = outer.pop()
        elif word.startswith("#") and not segment:
            comment = True
        else:
            segment.append(word)
    return [p for p in reads if p], [p for p in writes if p]


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


def _without_heredocs(text: str) -> str:
    """`text` without the bodies of its here-documents (a note's text written with
    `cat > F <<'EOF'` holds apostrophes and words that are no commands)."""
    if "<<" not in text:
        return text
    lines = text.split("\n")
    kept: list[str] = []
    at = 0
    while at < len(lines):
        line = lines[at]
        kept.append(line)
        at += 1
        for found in _HEREDOC.finditer(line):
            tabs, delimiter = found.group(1) == "-", found.group(3)
            while at < len(lines):
                body = lines[at]
                at += 1
                if (body.lstrip("\t") if tabs else body) == delimiter:
                    break
    return "\n".join(kept)


def _segment(words: list[str], where: str | None, reads: list[str], writes: list[str]) -> None:
    """Add what one simple command reads and writes (named from `where`)."""
    while words and ("=" in words[0].split("/")[0] or words[0] in _PREFIXES):
        words = words[1:]
    if not words:
        return
    program, args = words[0].rsplit("/", 1)[-1], words[1:]
    if program in ("bash", "sh", "zsh") and len(args) >= 2:
        if args[0].startswith("-") and not args[0].startswith("--") and "c" in args[0]:
            inner_reads, inner_writes = shell_paths(args[1])  # `bash -lc '...'`
            reads.extend(_at(where, p) for p in inner_reads)
            writes.extend(_at(where, p) for p in inner_writes)
        return
    if program == "git":
        _git_writes(args, where, writes)
    elif program in _WRITERS:
        writes.extend(_at(where, p) for p in _operands(args, _VALUED.get(program, ())))
        if program == "mv":
            writes.extend(_at(where, p) for p in _option_values(args, ("-t",)))
    elif program in _COPIERS:
        # the folder `-t` names, else the last of two or more operands
        targets = _option_values(args, ("-t",)) or _operands(args, _VALUED[program])[1:][-1:]
        writes.extend(_at(where, p) for p in targets)
    elif program == "dd":
        writes.extend(_at(where, a[3:]) for a in args if a.startswith("of="))
    elif program in ("sed", "perl", "awk"):
        files, in_place = _script_files(program, args)
        (writes if in_place else reads).extend(_at(where, p) for p in files)
    elif program in SHELL_READERS:
        reads.extend(
            _at(where, a) for a in args if not a.startswith("-") and not a.lstrip("+").isdigit()
        )


def _operands(args: list[str], valued: tuple[str, ...]) -> list[str]:
    """The operands of a command: its words that are no option nor the value of one of its
    options `valued` take."""
    out: list[str] = []
    skip = ended = False
    for word in args:
        if skip:
            skip = False
        elif ended or not word.startswith("-") or word == "-":
            out.append(word)
        elif word == "--":
            ended = True
        elif word in valued:
            skip = True
    return out


def _option_values(args: list[str], names: tuple[str, ...]) -> list[str]:
    """The values given to the options `names` (`-t DIR`, `--target-directory=DIR`)."""
    out = [args[i + 1] for i, word in enumerate(args[:-1]) if word in names]
    return out + [w.split("=", 1)[1] for w in args if w.startswith("--target-directory=")]


def _git_writes(args: list[str], where: str | None, writes: list[str]) -> None:
    """The paths of `git [-C DIR] rm|mv|restore ...`."""
    import posixpath

    while args and args[0].startswith("-"):
        if args[0] == "-C" and len(args) > 1:
            where = _cd(where, [args[1]])
            args = args[2:]
        elif args[0] in ("-c", "--git-dir", "--work-tree", "--namespace") and len(args) > 1:
            args = args[2:]
        else:
            args = args[1:]
    if not args or args[0] not in ("rm", "mv", "restore"):
        return
    valued = ("-s", "--source") if args[0] == "restore" else ()
    for path in _operands(args[1:], valued):
        writes.append(_at(where, path) if where is not None or posixpath.isabs(path) else "")


def _script_files(program: str, args: list[str]) -> tuple[list[str], bool]:
    """The files `sed`, `perl` or `awk` works on (past its script: the first operand, or what
    `-e` / `-f` give) and whether it edits them in place (`sed -i`, `perl -pi`, `awk -i
    inplace`)."""
    files: list[str] = []
    script = skip = in_place = False
    valued = (
        ("-e", "-f", "--expression", "--file", "-E")
        if program == "perl"
        else ("-e", "-f", "--expression", "--file")
    )
    for at, word in enumerate(args):
        if skip:
            skip = False
        elif word in valued or (program == "awk" and word in ("-v", "-F")):
            skip = True
            script = script or word not in ("-v", "-F")
        elif program == "awk" and word == "-i":
            skip = True
            in_place = in_place or args[at + 1 : at + 2] == ["inplace"]
        elif word.startswith("--in-place") or (program != "awk" and _short_i(word)):
            in_place = True
            if program == "perl" and word.rstrip("i").endswith("e"):
                skip = script = True  # `-pie`: the script follows
        elif program == "perl" and word.startswith("-") and word.endswith("e") and word != "-":
            skip = script = True  # `-pe 'script'`, `-ne 'script'`
        elif not word.startswith("-") or word == "-":
            if script:
                files.append(word)
            script = True
    return files, in_place


def _short_i(word: str) -> bool:
    """Whether a short option word turns on in-place editing: `-i`, `-i.bak`, `-Ei`, `-pi`."""
    if not word.startswith("-") or word.startswith("--"):
        return False
    letters = word[1:].split(".", 1)[0]
    return "i" in letters


def patched_paths(patch: str) -> list[str]:
    """The files an `apply_patch` text adds, updates, deletes or moves to."""
    return [m.group(1).strip() for m in _PATCHED.finditer(patch)]
