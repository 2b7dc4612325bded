"""Each client's names for Claude's tools and models (PRODUCT.md §4), and the warnings they raise.

One table per client maps a Claude Code built-in tool to that client's name. An empty string means
the client grants the capability without naming it (Codex and Cursor have no per-agent tool list:
their agents are limited by `sandbox_mode` / `readonly` instead); a tool missing from the table has
no equivalent and is a warning naming the agent and the tool (ORK111), never a silent drop. MCP
tools (`mcp__server__tool`) are renamed per client. A per-client model (`models: {codex: …}`) that
is a Claude model name is a warning (ORK112) and is not written: a client that gets no model uses
its own default.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from orkestra.registry import render_lock
from orkestra.registry.findings import Finding
from orkestra.registry.model_rules import claude_accepts
from orkestra.registry.registry import Registry

if TYPE_CHECKING:
    from orkestra.registry.models.mcp import McpServer

#: targets that render agent files of their own (besides claude)
AGENT_CLIENTS = ("codex", "copilot", "cursor", "gemini")
#: tools that change files or run commands: an agent holding none is read-only
WRITE_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit", "Bash"})
_READ_ONLY = ("Read", "NotebookRead", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "TodoWrite")
_IMPLICIT = {t: "" for t in (*_READ_ONLY, *WRITE_TOOLS, "Skill", "Task", "Agent")}

TOOLS: dict[str, dict[str, str]] = {
    # GitHub Copilot custom agents: tool aliases (docs.github.com "Custom agents configuration")
    "copilot": {
        "Read": "read", "NotebookRead": "read", "Write": "edit", "Edit": "edit",
        "MultiEdit": "edit", "NotebookEdit": "edit", "Grep": "search", "Glob": "search",
        "LS": "search", "Bash": "execute", "WebFetch": "web", "WebSearch": "web",
        "TodoWrite": "todo", "Task": "agent", "Agent": "agent", "Skill": "",
    },
    # Gemini CLI built-in tool names (gemini-cli 0.61 ALL_BUILTIN_TOOL_NAMES)
    "gemini": {
        "Read": "read_file", "NotebookRead": "read_file", "Write": "write_file",
        "Edit": "replace", "MultiEdit": "replace", "Grep": "grep_search", "Glob": "glob",
        "LS": "list_directory", "Bash": "run_shell_command", "WebFetch": "web_fetch",
        "WebSearch": "google_web_search", "TodoWrite": "write_todos", "Skill": "activate_skill",
        "Task": "invoke_agent", "Agent": "invoke_agent", "AskUserQuestion": "ask_user",
        "EnterPlanMode": "enter_plan_mode", "ExitPlanMode": "exit_plan_mode",
    },
    # no per-agent tool list: capabilities follow sandbox_mode (Codex) / readonly (Cursor)
    "codex": dict(_IMPLICIT),
    "cursor": dict(_IMPLICIT),
}  # fmt: skip


def mcp_tool(client: str, tool: str) -> str | None:
    """`mcp__server__tool` in `client`'s spelling ('' when implicit, None when impossible)."""
    _, server, name = tool.split("__", 2)
    if client == "copilot":
        return f"{server}/{name}"
    if client == "gemini":  # mcp_<server>_<tool>: the server part may not hold `_`
        return f"mcp_{server}_{name}" if "_" not in server else None
    return ""


def map_tools(client: str, tools: list[str]) -> tuple[list[str], list[str]]:
    """(the client's tool names, each once, in order; the tools it has no name for)."""
    table = TOOLS.get(client, {})
    mapped: dict[str, None] = {}
    missing: list[str] = []
    for tool in tools:
        base = tool.split("(", 1)[0].strip()  # `Bash(git diff:*)`: the client gets the tool
        name = mcp_tool(client, base) if base.startswith("mcp__") else table.get(base)
        if name is None:
            missing.append(tool)
        elif name:
            mapped.setdefault(name, None)
    return list(mapped), missing


def read_only(tools: list[str]) -> bool:
    """True when an agent holds no tool that writes files or runs commands (and holds some)."""
    return bool(tools) and not any(t.split("(", 1)[0] in WRITE_TOOLS for t in tools)


def client_model(models: Mapping[Any, str], client: str) -> str | None:
    """The model to write for `client`, or None (the client's default); never a Claude name."""
    model = models.get(client)
    return None if model is None or claude_accepts(model) else model


def _configured(reg: Registry) -> list[str]:
    return [t for t in AGENT_CLIENTS if t in reg.config.targets]


def client_tools(reg: Registry) -> Iterator[Finding]:
    """ORK111: an agent's tool that a configured client it is rendered for has no name for."""
    for agent in sorted(reg.agents.values(), key=lambda a: a.name):
        loc = reg.loc("agent", agent.name)
        for client in _configured(reg):
            if not agent.rendered_for(client):
                continue
            _, missing = map_tools(client, agent.all_tools())
            for tool in missing:
                yield Finding.make(
                    "ORK111",
                    f"agent '{agent.name}': tool '{tool}' has no equivalent in the {client} "
                    f"target and is left out of its {client} file (see docs/clients/{client}.md)",
                    loc.file,
                    loc.line,
                )


#: the targets that write a file per agent
_AGENT_FILES = ("claude", *AGENT_CLIENTS)


def unrendered_agents(reg: Registry) -> Iterator[Finding]:
    """ORK116: an agent whose `clients` leave out every configured target that writes agent
    files (`clients: []`, or only targets not configured): no client gets it."""
    configured = [t for t in _AGENT_FILES if t in reg.config.targets]
    if not configured:
        return
    for agent in sorted(reg.agents.values(), key=lambda a: a.name):
        if agent.clients is None or any(agent.rendered_for(t) for t in configured):
            continue
        loc = reg.loc("agent", agent.name)
        listed = ", ".join(agent.clients) if agent.clients else "none"
        yield Finding.make(
            "ORK116",
            f"agent '{agent.name}': its clients ({listed}) leave out every configured target "
            f"({', '.join(configured)}), so no client gets it; add one of them to `clients`, or "
            "remove `clients` to render it for every target",
            loc.file,
            loc.line,
        )


def client_models(reg: Registry) -> Iterator[Finding]:
    """ORK112: a per-client model that is a Claude model name (never written to that client)."""
    for agent in sorted(reg.agents.values(), key=lambda a: a.name):
        loc = reg.loc("agent", agent.name)
        for client, model in sorted(agent.models.items()):
            if client != "claude" and claude_accepts(model):
                yield Finding.make(
                    "ORK112",
                    f"agent '{agent.name}': models.{client} is '{model}', a Claude model name; "
                    f"the {client} file gets the client's default model instead (give a "
                    f"{client} model id)",
                    loc.file,
                    loc.line,
                )


#: Codex reads at most this much of the project docs (AGENTS.md) by default
CODEX_DOC_LIMIT = 32 * 1024
#: the finding that says AGENTS.md is over it
AGENTS_MD_SIZE = "ORK113"


def agents_md_size(reg: Registry) -> Iterator[Finding]:
    """ORK113: the AGENTS.md the agents-md target keeps is over Codex's 32 KiB default."""
    if "agents-md" not in reg.config.targets:
        return
    name = render_lock.BLOCK_FILES["agents-md"]
    path = reg.root / name
    try:
        size = path.lstat().st_size
    except OSError:
        return  # not rendered yet
    found = agents_md_finding(size)
    if found is not None:
        yield found


def agents_md_finding(size: int) -> Finding | None:
    """ORK113 for an AGENTS.md of `size` bytes (None: within the limit)."""
    name = render_lock.BLOCK_FILES["agents-md"]
    if size <= CODEX_DOC_LIMIT:
        return None
    return Finding.make(
        AGENTS_MD_SIZE,
        f"{name} is {size} bytes; Codex reads only the first {CODEX_DOC_LIMIT} by "
        "default: raise `project_doc_max_bytes` in .codex/config.toml, or shorten the "
        "registry descriptions the roster lists",
        name,
    )


# --- MCP servers: `${VAR}` references (registries/mcp.yaml, Claude Code's spelling) ------------

#: a `${NAME}` reference to the user's environment, as registries/mcp.yaml writes it
_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
#: a reference the clients do not all read (`${VAR:-default}`, `${env:VAR}`): kept as written
_ANY_REF = re.compile(r"\$\{[^}]*\}")
#: the finding that names a reference a client cannot expand
MCP_REFS = "ORK115"


def editor_refs(text: str) -> str:
    """`text` with each `${NAME}` in VS Code's and Cursor's spelling, `${env:NAME}` (they expand
    no other form: `${NAME}` would reach the server as those very characters)."""
    return _REF.sub(r"${env:\1}", text)


def _whole(text: str) -> str | None:
    """NAME when `text` is nothing but `${NAME}`."""
    found = _REF.fullmatch(text)
    return found.group(1) if found else None


def codex_server(server: McpServer) -> tuple[dict[str, Any], list[str]]:
    """(a registry server as `.codex/config.toml`'s table, what of it Codex cannot express).

    Codex expands no `${VAR}` in its config: it starts a local server with `env` as written and
    without the user's environment, and sends `http_headers` as written. So `NAME: ${NAME}` goes
    to `env_vars` (forwarded from the user's environment), a header that is `${VAR}` to
    `env_http_headers`, `Authorization: Bearer ${VAR}` to `bearer_token_env_var`. Any other
    reference (a renamed variable, one inside a longer value) has no Codex form: that env entry
    or header is left out, and the rest is written as it is."""
    problems: list[str] = []
    out: dict[str, Any]
    if server.command is not None:
        out = {"command": server.command}
        if server.args:
            out["args"] = list(server.args)
        env: dict[str, str] = {}
        forwarded: list[str] = []
        for key, value in server.env.items():
            if _whole(value) == key:
                forwarded.append(key)
            elif _ANY_REF.search(value):
                problems.append(f"env {key} ({value!r}: only `{key}: ${{{key}}}` is forwarded)")
            else:
                env[key] = value
        if env:
            out["env"] = env
        if forwarded:
            out["env_vars"] = forwarded
        problems += [f"args ({a!r}: kept as written)" for a in server.args if _ANY_REF.search(a)]
        problems += [f"command ({server.command!r})"] if _ANY_REF.search(server.command) else []
        return out, problems
    assert server.url is not None
    out = {"url": server.url}
    if _ANY_REF.search(server.url):
        problems.append(f"url ({server.url!r}: kept as written)")
    literal: dict[str, str] = {}
    from_env: dict[str, str] = {}
    for name, value in server.headers.items():
        bearer = value.startswith("Bearer ") and _whole(value.removeprefix("Bearer "))
        if bearer and name.lower() == "authorization" and "bearer_token_env_var" not in out:
            out["bearer_token_env_var"] = bearer
        elif _whole(value):
            from_env[name] = str(_whole(value))
        elif _ANY_REF.search(value):
            problems.append(f"header {name} ({value!r})")
        else:
            literal[name] = value
    if literal:
        out["http_headers"] = literal
    if from_env:
        out["env_http_headers"] = from_env
    return out, problems


def client_mcp_refs(reg: Registry) -> Iterator[Finding]:
    """ORK115: a `${VAR}` of registries/mcp.yaml that a configured client cannot expand."""
    if "codex" not in reg.config.targets:
        return
    for name, server in sorted(reg.mcp_servers.items()):
        _, problems = codex_server(server)
        loc = reg.loc("mcp", name)
        for problem in problems:
            yield Finding.make(
                MCP_REFS,
                f"MCP server '{name}': Codex expands no ${{VAR}} in .codex/config.toml, and "
                f"this has no Codex form: {problem}; an entry left out is not written to "
                "Codex's file (write it as `NAME: ${NAME}`, a header as `${VAR}` or "
                "`Authorization: Bearer ${VAR}`; see docs/clients/codex.md)",
                loc.file,
                loc.line,
            )
