"""Each client's MCP config entry for `orkestra mcp serve` (PRODUCT.md §4, §11).

With `mcp: {serve: true}` in orkestra.yaml, `sync` writes an `orkestra` server entry into the MCP
config file of each configured target. These files belong to the user: only the `orkestra` key of
the servers table is Orkestra's, every other entry and key is kept (a file already holding the same
entry is left byte for byte). With `serve: false`, an `orkestra` entry equal to the one Orkestra
would write is removed again; any other `orkestra` entry is the user's and is left alone.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from orkestra.core import jsonio, safewrite
from orkestra.core.errors import InputError
from orkestra.registry.registry import Registry
from orkestra.render.plan import Output

SERVER = "orkestra"


class ConfigFile(NamedTuple):
    """Where a client reads project MCP servers: the file and the table holding them."""

    path: str
    table: str
    toml: bool = False


FILES: dict[str, ConfigFile] = {
    "claude": ConfigFile(".mcp.json", "mcpServers"),
    "codex": ConfigFile(".codex/config.toml", "mcp_servers", toml=True),
    "copilot": ConfigFile(".vscode/mcp.json", "servers"),
    "cursor": ConfigFile(".cursor/mcp.json", "mcpServers"),
    "gemini": ConfigFile(".gemini/settings.json", "mcpServers"),
}


def command(reg: Registry) -> list[str]:
    """The configured command, else this installation's `orkestra` by absolute path, else
    `<this python> -m orkestra`."""
    if reg.config.mcp.command:
        return list(reg.config.mcp.command)
    beside = Path(sys.executable).parent / "orkestra"
    if beside.is_file():
        return [str(beside)]
    return [sys.executable, "-m", "orkestra"]


def entry(reg: Registry, target: str) -> dict[str, Any]:
    """The server entry for one client (VS Code wants the transport type spelled out)."""
    cmd = command(reg)
    out: dict[str, Any] = {"command": cmd[0], "args": [*cmd[1:], "--root", str(reg.root)]}
    out["args"] += ["mcp", "serve"]
    return {"type": "stdio", **out} if target == "copilot" else out


def outputs(reg: Registry, targets: list[str]) -> Iterator[Output]:
    """The merged config file of every target in `targets` that has one (shared files)."""
    for target in targets:
        spec = FILES.get(target)
        if spec is None:
            continue
        data = merged(reg, spec, entry(reg, target), keep=reg.config.mcp.serve)
        if data is not None:
            yield Output(spec.path, data, target=target, shared=True)


def merged(reg: Registry, spec: ConfigFile, ours: dict[str, Any], *, keep: bool) -> bytes | None:
    """The file's new bytes: our entry set (`keep`) or removed; None when there is nothing to do
    (no file and nothing to add). An unchanged entry gives back the file's own bytes."""
    path = reg.root / safewrite.check_target(reg.root, spec.path)
    if not path.exists():
        return _fresh(spec, ours) if keep else None
    text = jsonio.read_text(path)
    if spec.toml:
        return _toml(text, spec, ours, keep=keep)
    return _json(text, spec, ours, keep=keep)


def _fresh(spec: ConfigFile, ours: dict[str, Any]) -> bytes:
    if spec.toml:
        return _toml_table(spec.table, ours).lstrip("\n").encode("utf-8")
    return _dump({spec.table: {SERVER: ours}})


def _dump(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _json(text: str, spec: ConfigFile, ours: dict[str, Any], *, keep: bool) -> bytes | None:
    data = jsonio.loads(text, source=spec.path)
    if not isinstance(data, dict):
        raise InputError("an MCP config file must hold a JSON object", file=spec.path, line=1)
    table = data.get(spec.table, {})
    if not isinstance(table, dict):
        raise InputError(f"'{spec.table}' must be an object of servers", file=spec.path)
    if keep and table.get(SERVER) == ours:
        return text.encode("utf-8")
    if not keep:
        if table.get(SERVER) != ours:
            return text.encode("utf-8")  # absent, or the user's own entry
        del table[SERVER]
    else:
        table[SERVER] = ours
    data[spec.table] = table
    return _dump(data)


# --- TOML (Codex): the file's text is kept; only our table is cut out and written again --------

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def _toml(text: str, spec: ConfigFile, ours: dict[str, Any], *, keep: bool) -> bytes | None:
    before = _parse_toml(text, spec.path)
    current = before.get(spec.table, {}).get(SERVER) if isinstance(before, dict) else None
    if (keep and current == ours) or (not keep and current != ours):
        return text.encode("utf-8")
    rest = _without_table(text, f"{spec.table}.{SERVER}")
    new = rest.rstrip("\n") + "\n" + _toml_table(spec.table, ours) if keep else rest
    try:
        after = tomllib.loads(new)
    except tomllib.TOMLDecodeError:  # our table clashes with how the file spells its servers
        after = {}
    if _others(after, spec.table) != _others(before, spec.table) or (
        keep and after.get(spec.table, {}).get(SERVER) != ours
    ):
        raise InputError(
            f"cannot merge the '{SERVER}' server into this file: write it as a "
            f"[{spec.table}.{SERVER}] table (not inline or dotted keys), or remove it",
            file=spec.path,
        )
    return new.lstrip("\n").encode("utf-8")


def _parse_toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"line (\d+)", str(exc))
        line = int(found.group(1)) if found else None
        raise InputError(f"not valid TOML ({exc})", file=source, line=line) from None


def _others(data: dict[str, Any], table: str) -> dict[str, Any]:
    """Everything but our server entry."""
    servers = {k: v for k, v in data.get(table, {}).items() if k != SERVER}
    return {**{k: v for k, v in data.items() if k != table}, table: servers}


def _without_table(text: str, name: str) -> str:
    """`text` without the `[name]` table and its sub-tables (up to the next other header)."""
    out, skipping = [], False
    for line in text.splitlines(keepends=True):
        header = _HEADER.match(line)
        if header is not None:
            key = re.sub(r"\s*\.\s*", ".", header.group(1)).replace('"', "")
            skipping = key == name or key.startswith(name + ".")
        if not skipping:
            out.append(line)
    return "".join(out)


def _toml_table(table: str, ours: dict[str, Any]) -> str:
    lines = [f"\n[{table}.{SERVER}]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in ours.items()]
    return "\n".join(lines) + "\n"
