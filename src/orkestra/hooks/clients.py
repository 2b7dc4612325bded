"""Hook files of the other clients (PRODUCT.md §4, §8.4): Codex, Copilot and Cursor.

- Codex `.codex/hooks.json`: Claude's shape (`{"hooks": {"SessionStart": [{"hooks": [...]}]}}`);
  session-start context, usage logging and the stop capture all run.
- Copilot `.github/hooks/orkestra.json`: `{"version": 1, "hooks": {"sessionStart": [{"type":
  "command", "bash": …}], "postToolUse": […], "agentStop": […]}}`; all three run (Copilot ignores
  a sessionStart hook's output, so there is no INDEX context).
- Cursor `.cursor/hooks.json`: `{"version": 1, "hooks": {"sessionStart": [{"command": …}],
  "postToolUse": […], "stop": […]}}`.

Every command sets `ORKESTRA_AGENT_TOOL` (through `env`) so the events log names the client (`agent_tool`). Our
entries are recognised by their command (`… orkestra hook <handler>`); a user's entries and keys
are kept. Standard library plus `orkestra.core` only.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, NamedTuple

from orkestra.core import jsonio, safewrite
from orkestra.core.errors import InputError
from orkestra.core.readfile import open_regular

_OURS = re.compile(r"(?:^|[\s/])orkestra(?:\.exe)?'? hook (?:session-start|post-tool-use|stop)$")


class ClientHooks(NamedTuple):
    """Where a client reads project hooks and how it spells them."""

    path: str
    agent_tool: str
    #: event name -> handler
    events: dict[str, str]
    #: "claude" (groups holding hooks), "copilot" (bash entries), "cursor" (command entries)
    shape: str


CLIENTS: dict[str, ClientHooks] = {
    "codex": ClientHooks(
        ".codex/hooks.json",
        "codex-cli",
        {"SessionStart": "session-start", "PostToolUse": "post-tool-use", "Stop": "stop"},
        "claude",
    ),
    "copilot": ClientHooks(
        ".github/hooks/orkestra.json",
        "copilot-cli",
        {"sessionStart": "session-start", "postToolUse": "post-tool-use", "agentStop": "stop"},
        "copilot",
    ),
    "cursor": ClientHooks(
        ".cursor/hooks.json",
        "cursor",
        {"sessionStart": "session-start", "postToolUse": "post-tool-use", "stop": "stop"},
        "cursor",
    ),
}


def entry(spec: ClientHooks, command: str, handler: str) -> dict[str, Any]:
    """One hook entry in the client's spelling."""
    # `env`: works whether the client runs the command through a shell or splits it itself
    full = f"env ORKESTRA_AGENT_TOOL={spec.agent_tool} {command} hook {handler}"
    timeout = 30 if handler == "post-tool-use" else 120
    if spec.shape == "claude":
        group: dict[str, Any] = {"matcher": "*"} if handler == "post-tool-use" else {}
        group["hooks"] = [{"type": "command", "command": full, "timeout": timeout}]
        return group
    if spec.shape == "copilot":
        return {"type": "command", "bash": full, "timeoutSec": timeout}
    return {"command": full}


def _command_of(item: Any) -> str:
    if not isinstance(item, dict):
        return ""
    return str(item.get("command") or item.get("bash") or "").strip()


def _ours(item: Any) -> bool:
    if isinstance(item, dict) and isinstance(item.get("hooks"), list):  # a Claude-shaped group
        return bool(item["hooks"]) and all(_OURS.search(_command_of(h)) for h in item["hooks"])
    return bool(_OURS.search(_command_of(item)))


def read(root: Path, rel: str) -> tuple[dict[str, Any], bytes | None]:
    """The file's data and bytes (None when absent); refuses a symlink on the way."""
    raw = _read_bytes(root, rel)
    return ({}, None) if raw is None else (parse(raw, rel), raw)


def _read_bytes(root: Path, rel: str) -> bytes | None:
    """The file's bytes (None when absent), read without following a symlink on the way."""
    path = root / safewrite.check_target(root, rel)
    try:
        with open_regular(path) as handle:  # a FIFO or a device there must not hang the command
            raw = handle.read(jsonio.MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InputError(f"cannot read it: {exc.strerror or exc}; fix it first", file=rel) from exc
    if len(raw) > jsonio.MAX_BYTES:
        raise InputError(f"larger than {jsonio.MAX_BYTES} bytes; fix it first", file=rel)
    return raw


def parse(raw: bytes, rel: str) -> dict[str, Any]:
    """The hook file's data, checked to hold `"hooks"` as an object of lists."""
    # strict: a byte that is not UTF-8 would come back as U+FFFD in the file written back
    text = jsonio.decode(raw, source=rel) or "{}"
    try:
        data = jsonio.loads(text, source=rel, rewrite=True)
    except InputError as exc:
        raise jsonio.unmergeable(exc, text, fix="fix it first") from None
    if not isinstance(data, dict) or not isinstance(data.get("hooks", {}), dict):
        raise InputError('expected an object whose "hooks" is an object', file=rel, line=1)
    for event, items in data.get("hooks", {}).items():
        if not isinstance(items, list):
            raise InputError(f'"hooks"."{event}" must be a list; fix it first', file=rel)
    return data


def strip(data: dict[str, Any], *, keep_events: bool = False) -> int:
    """Remove our entries; return how many were removed. An event list this empties goes too,
    unless `keep_events` (install: ours go back in its place, so no member of "hooks" moves and
    the user's keep their bytes); a list the user left empty is theirs and stays."""
    removed = 0
    hooks = data.get("hooks", {})
    for event in list(hooks):
        kept = [item for item in hooks[event] if not _ours(item)]
        removed += len(hooks[event]) - len(kept)
        if kept or not hooks[event] or keep_events:
            hooks[event] = kept
        else:
            del hooks[event]
    if "hooks" in data and not data["hooks"] and removed and not keep_events:
        del data["hooks"]
    return removed


def merged(root: Path, client: str, command: str) -> tuple[str | None, bytes | None]:
    """The client's hook file with our entries merged (None when nothing changes) and the bytes
    it holds now; reads and checks only, so a caller can check every file before writing one."""
    spec = CLIENTS[client]
    data, raw = read(root, spec.path)
    before = json.dumps(data, sort_keys=True)
    strip(data, keep_events=True)
    if spec.shape != "claude":
        data.setdefault("version", 1)
    hooks = data.setdefault("hooks", {})
    for event, handler in spec.events.items():
        hooks.setdefault(event, []).append(entry(spec, command, handler))
    if json.dumps(data, sort_keys=True) == before:
        return None, raw
    return _text(data, raw), raw


class Stripped(NamedTuple):
    """A client's hook file without our entries: how many were `removed`, its new `text` (None:
    unchanged) or `remove` (our own file, left empty), and the bytes `raw` it held."""

    removed: int
    text: str | None
    remove: bool
    raw: bytes | None


def stripped(root: Path, client: str) -> Stripped:
    """The client's hook file without our entries; reads and checks only, so a caller can read
    every file before changing one."""
    spec = CLIENTS[client]
    raw = _read_bytes(root, spec.path)
    if raw is None or not _may_hold_ours(raw):  # the user's own file: not even parsed
        return Stripped(0, None, False, raw)
    data = parse(raw, spec.path)
    removed = strip(data)
    if not removed:
        return Stripped(0, None, False, raw)
    if data in ({}, {"version": 1}) and spec.path.endswith("orkestra.json"):
        return Stripped(removed, None, True, raw)  # our own file, now empty
    return Stripped(removed, _text(data, raw), False, raw)


def _may_hold_ours(raw: bytes) -> bool:
    """Whether the file may hold one of our entries: it names `orkestra`, or it has JSON escapes
    that could spell it. One that cannot is left unparsed, so a file of the user's that is not
    plain JSON (comments, trailing commas) never stops `hooks uninstall`."""
    return b"orkestra" in raw or b"\\u" in raw


def _text(data: dict[str, Any], raw: bytes | None) -> str:
    """The file's new text, laid out as it was (`jsonio.dumps_like`)."""
    return jsonio.dumps_like(data, None if raw is None else raw.decode("utf-8"))
