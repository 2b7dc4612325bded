"""The MCP configs of the other clients that `import` reads (PRODUCT.md §4 Import): Cursor's
`.cursor/mcp.json` and Gemini CLI's `.gemini/settings.json` (`mcpServers`), VS Code's
`.vscode/mcp.json` (`servers`) and Codex's `.codex/config.toml` (`[mcp_servers.<name>]`).

Each is turned into the `mcpServers` data of a Claude Code `.mcp.json` in the registry's spelling,
the reverse of what sync writes for that client (`render.targets.mcp_config.server_entry`), so
`clients.mcp_servers` converts every one alike: Cursor's and VS Code's `${env:NAME}` become
`${NAME}`; Codex's `env_vars`, `bearer_token_env_var`, `http_headers` and `env_http_headers`
become `env` and `headers` entries; Gemini CLI's `url` (its SSE transport, `httpUrl` being
streamable HTTP) is marked SSE, which the registry cannot hold (refused at its line).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

from orkestra.core import jsonio
from orkestra.core.errors import InputError
from orkestra.importer.convert import Skip, read_toml

#: (folder, file name) -> the client whose MCP config it is
CONFIGS: Final = {
    (".cursor", "mcp.json"): "cursor",
    (".vscode", "mcp.json"): "vscode",
    (".gemini", "settings.json"): "gemini",
    (".codex", "config.toml"): "codex",
}
#: the key of each client's servers table
_TABLE: Final = {"cursor": "mcpServers", "vscode": "servers", "gemini": "mcpServers",
                 "codex": "mcp_servers"}  # fmt: skip
_EDITOR_REF = re.compile(r"\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}")
#: what VS Code and Cursor expand that is no environment variable: a prompt (`${input:id}`),
#: a setting or command, the workspace's folder, the user's home (VS Code's "Variables reference")
_EDITOR_ONLY = re.compile(
    r"\$\{(?:(?:input|config|command):[^}]*|workspaceFolder(?:Basename)?|userHome|pathSeparator"
    r"|/|cwd|execPath|file\w*|relativeFile\w*|lineNumber|selectedText)\}"
)


def client_of(path: Path) -> str | None:
    """The client whose MCP config `path` is (by its folder and name), else None."""
    return CONFIGS.get((path.parent.name, path.name))


def parse(text: str, rel: str, client: str) -> tuple[dict[str, Any] | None, list[str]]:
    """({"mcpServers": {...}} in the registry's spelling, or None when the file declares no
    servers; the file's other top-level keys, which no registry kind holds). An unreadable
    file is an InputError or a Skip at its line."""
    data = read_toml(text) if client == "codex" else _json(text, rel)
    if not isinstance(data, dict):
        raise Skip(f"{rel}: expected an object with `{_TABLE[client]}`")
    table = _TABLE[client]
    others = sorted(
        str(k) for k in data if k != table and not (client == "vscode" and k == "inputs")
    )
    servers = data.get(table)
    if servers is None:
        return None, others
    if not isinstance(servers, dict):
        raise Skip(f"`{table}` is not a table of servers: make it one and import again", None)
    spelled = {str(name): _spelled(server, client) for name, server in servers.items()}
    return {"mcpServers": spelled}, others


def editor_only(server: Any, name: str, client: str) -> str | None:
    """Why server `name` of a VS Code or Cursor config cannot be imported as it is: it holds a
    variable only the editor expands (`${input:token}`, `${workspaceFolder}`), which the
    registry would write as an environment variable for every client; else None."""
    if client not in ("cursor", "vscode"):
        return None
    found = sorted({ref for text in _strings(server) for ref in _EDITOR_ONLY.findall(text)})
    if not found:
        return None
    told = ", ".join(found)
    return (
        f"MCP server '{name}' uses {told}, which only the editor expands; registries/mcp.yaml "
        "reads every ${...} as an environment variable, so the other clients (and the editor, "
        "as ${env:...}) would get nothing: write an environment variable in its place "
        "(${env:GITHUB_TOKEN}), or the value itself, and import again"
    )


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def line_of(text: str, name: str, client: str) -> int | None:
    """The line where server `name` is declared in the file's `text` (in a JSON config, where
    its entry in the client's servers table starts, `jsonio.line_at`)."""
    if client != "codex":
        return jsonio.line_at(text, (_TABLE.get(client, "mcpServers"), name))
    quoted = re.escape(name)
    key = rf"""(?:{quoted}|"{quoted}"|'{quoted}')"""
    patterns = [rf"^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*{key}[ \t]*[\].]",
                rf"mcp_servers[ \t]*\.[ \t]*{key}\b", rf"^[ \t]*{key}[ \t]*="]  # fmt: skip
    for pattern in patterns:
        found = re.search(pattern, text, flags=re.MULTILINE)
        if found:
            return text.count("\n", 0, found.start()) + 1
    return None


def _json(text: str, rel: str) -> Any:
    try:
        return jsonio.loads(text, source=rel)
    except InputError as exc:
        fix = (
            "fix it and import again (the import reads plain JSON: comments and trailing "
            "commas, which VS Code and Cursor accept, must be taken out first)"
        )
        raise InputError(f"{exc.message}; {fix}", file=exc.file, line=exc.line) from None


def _spelled(server: Any, client: str) -> Any:
    """One server of `client`'s config as an `.mcp.json` server in the registry's spelling."""
    if not isinstance(server, dict):
        return server  # refused by `clients.mcp_servers`
    if client in ("cursor", "vscode"):
        return _unref(server)
    if client == "gemini":
        remote = "url" in server and "httpUrl" not in server
        if remote and server.get("type") not in ("http", "streamable-http"):
            return {**server, "type": "sse"}  # Gemini CLI's `url` is its SSE transport
        return server
    return _codex(server)


def _unref(value: Any) -> Any:
    """`value` with VS Code's and Cursor's `${env:NAME}` in the registry's `${NAME}`."""
    if isinstance(value, str):
        return _EDITOR_REF.sub(r"${\1}", value)
    if isinstance(value, list):
        return [_unref(v) for v in value]
    if isinstance(value, dict):
        return {k: _unref(v) for k, v in value.items()}
    return value


def _codex(server: dict[str, Any]) -> dict[str, Any]:
    """A Codex `[mcp_servers.<name>]` table (`client_rules.codex_server` in reverse): the
    variables it forwards and the headers it reads from the environment as `${NAME}`."""
    moved = ("env_vars", "bearer_token_env_var", "http_headers", "env_http_headers")
    out = {k: v for k, v in server.items() if k not in moved}
    names = server.get("env_vars") or []
    env = dict(server.get("env") or {}) if isinstance(server.get("env"), dict) else None
    if env is None or not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        out["env_vars"] = names  # a shape the registry cannot hold: said to be left out
    else:
        env.update({n: f"${{{n}}}" for n in names if n not in env})
        if env:
            out["env"] = env
    headers: dict[str, Any] = {}
    for table, spell in (("http_headers", "{}"), ("env_http_headers", "${{{}}}")):
        given = server.get(table) or {}
        if not isinstance(given, dict):
            out[table] = given  # a shape the registry cannot hold: said to be left out
            continue
        headers.update({str(key): spell.format(value) for key, value in given.items()})
    bearer = server.get("bearer_token_env_var")
    if isinstance(bearer, str) and bearer:
        headers["Authorization"] = f"Bearer ${{{bearer}}}"
    if headers:
        out["headers"] = headers
    return out
