"""Other clients' files -> registry data (PRODUCT.md §4 "Import"): Codex `.codex/agents/*.toml`,
Copilot `.github/agents/*.agent.md`, Cursor `.cursor/agents/*.md`, Gemini `.gemini/agents/*.md`,
the values of an `AGENTS.md`, and rulesync's `.rulesync/` sources (subagents, commands, mcp.json,
rules; its skills are Agent Skills folders, imported like any other).

Tools are mapped back to Claude's names with the tables of `registry.client_rules`, so a sync
renders each client's original names again; a tool with no Claude name keeps the client's whole
list verbatim (`client_frontmatter.<client>.tools`). A client's model becomes `models.<client>`;
keys Orkestra has no field for stay in `client_frontmatter.<client>` and render back into that
client's file only.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Any

from orkestra.core.frontmatter import Document
from orkestra.importer.convert import (
    _MODEL_RE,
    _NO_BODY,
    Converted,
    Skip,
    _body,
    _description,
    _name,
    name_line,
    read_toml,
    set_tools,
)
from orkestra.importer.parse import spawns_agents, without_roster
from orkestra.registry.client_rules import TOOLS
from orkestra.registry.frontmatter_values import plain, split_tools
from orkestra.registry.models.common import name_problem

#: the folder holding `agents/` -> the client whose files they are
CLIENT_DIRS = {".cursor": "cursor", ".gemini": "gemini", ".github": "copilot"}
#: rulesync's target names -> Orkestra's
RULESYNC_TARGETS = {
    "claudecode": "claude", "agentsmd": "agents-md", "codexcli": "codex", "copilot": "copilot",
    "cursor": "cursor", "geminicli": "gemini",
}  # fmt: skip
#: a client's tool -> the Claude tools it stands for (first listed maps back to it)
_REVERSE: dict[str, dict[str, list[str]]] = {
    "copilot": {"read": ["Read"], "edit": ["Edit", "Write"], "search": ["Grep", "Glob"],
                "execute": ["Bash"], "web": ["WebFetch", "WebSearch"], "agent": ["Agent"],
                "todo": ["TodoWrite"]},
    "gemini": {"search_file_content": ["Grep"]},
}  # fmt: skip
for _claude, _name_in_gemini in TOOLS["gemini"].items():
    _REVERSE["gemini"].setdefault(_name_in_gemini, [_claude])
_VALUE = re.compile(
    r"^\s*(?:\d+[.)]|[-*])\s+(?:\*\*(?P<name>[^*]+)\*\*\s*[:\-—]?\s*)?(?P<text>.+)$"
)


def client_of(path: Path) -> str | None:
    """The client whose agent file `path` is, by its folder (None: a Claude Code agent)."""
    if path.parent.name == "agents":
        return CLIENT_DIRS.get(path.parent.parent.name)
    return None


def agent_stem(path: Path, client: str | None) -> str:
    return path.name.removesuffix(".agent.md") if client == "copilot" else path.stem


def claude_tools(client: str, tools: list[str]) -> tuple[list[str], bool]:
    """(Claude's names for a client's tools, whether every tool had one)."""
    out: dict[str, None] = {}
    complete = True
    for tool in tools:
        if client == "copilot" and "/" in tool and not tool.endswith("/*"):
            server, _, name = tool.partition("/")
            out.setdefault(f"mcp__{server}__{name}", None)
        elif client == "gemini" and tool.startswith("mcp_") and tool.count("_") >= 2:
            server, _, name = tool[4:].partition("_")
            out.setdefault(f"mcp__{server}__{name}", None)
        elif tool in _REVERSE.get(client, {}):
            for name in _REVERSE[client][tool]:
                out.setdefault(name, None)
        else:
            complete = False
    return list(out), complete


def agent(doc: Document, path: Path, client: str, category: str) -> Converted:
    """A Copilot, Cursor or Gemini agent file as `agents/<name>.yaml` data."""
    meta = dict(doc.meta)
    given = meta.pop("name", None)
    kept: dict[str, Any] = {}
    if client == "copilot" and isinstance(given, str) and name_problem(given.strip()):
        # Copilot's `name` is the agent's display name ("API Architect"): the file names the
        # agent, and the display name is kept to be written back into Copilot's file
        name = _name(None, agent_stem(path, client), doc)
        kept["name"] = given.strip()
    else:
        name = _name(given, agent_stem(path, client), doc)
    description = _description(meta, doc)
    meta.pop("description", None)
    data = _base(name, description, category)
    model = meta.pop("model", None)
    if model_id(model):
        data["models"] = {client: model.strip()}
    elif model is not None:
        kept["model"] = plain(model)  # "Claude Sonnet 4.5" (Copilot's picker): as written
    raw_tools = meta.pop("tools", None)
    given = split_tools(raw_tools)
    tools, complete = claude_tools(client, given)
    if not complete or ("tools" in doc.meta and not given):
        kept["tools"] = plain(raw_tools)  # rendered back verbatim
    set_tools(data, tools)
    kept.update({str(k): plain(v) for k, v in meta.items()})
    item = _finish(data, client, kept, doc.body, tools)
    item.line = name_line(doc)
    return item


def codex_agent(text: str, rel: str, stem: str, category: str) -> Converted:
    """A Codex `.codex/agents/<name>.toml` as `agents/<name>.yaml` data."""
    meta = read_toml(text)
    name = _name(meta.pop("name", None), stem)
    description = _description(meta)
    meta.pop("description", None)
    prompt = meta.pop("developer_instructions", None)
    if not isinstance(prompt, str):
        raise Skip(f"{rel}: no `developer_instructions` string (Codex requires one)")
    data = _base(name, description, category)
    model = meta.pop("model", None)
    if model_id(model):
        data["models"] = {"codex": model.strip()}
    elif model is not None:
        meta["model"] = model  # not a model name: kept as written, never dropped
    kept = {str(k): _toml_plain(v) for k, v in meta.items()}
    # without `sandbox_mode` the agent inherits the session's sandbox; recorded as null so that
    # sync does not write one derived from its tools (which could widen a read-only session)
    kept.setdefault("sandbox_mode", None)
    item = _finish(data, "codex", kept, prompt, [])
    named = re.search(r"^[ \t]*name[ \t]*=", text, re.MULTILINE)
    item.line = text.count("\n", 0, named.start()) + 1 if named else 1
    return item


def _toml_plain(value: Any) -> Any:
    """TOML data as YAML-writable data: dates and times (which YAML cannot hold as such) become
    their TOML text (RFC 3339), tables and arrays are walked."""
    if isinstance(value, dict):
        return {str(k): _toml_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_toml_plain(v) for v in value]
    if isinstance(value, (datetime.date, datetime.time)):  # datetime is a date
        return value.isoformat()
    return value


def rulesync_agent(doc: Document, path: Path, category: str) -> Converted:
    """A rulesync `.rulesync/subagents/<name>.md` as `agents/<name>.yaml` data."""
    meta = dict(doc.meta)
    name = _name(meta.pop("name", None), path.stem, doc)
    description = _description(meta, doc)
    meta.pop("description", None)
    data = _base(name, description, category)
    clients = targets_of(meta.pop("targets", None))
    if clients is not None:
        data["clients"] = clients
    extra: dict[str, Any] = {}
    per_client: dict[str, Any] = {}
    for key, value in meta.items():
        client = RULESYNC_TARGETS.get(str(key))
        if client is not None and isinstance(value, dict):
            per_client[client] = {str(k): plain(v) for k, v in value.items()}
        else:
            extra[str(key)] = plain(value)
    claude = per_client.pop("claude", {})
    if isinstance(claude.get("model"), str):
        data["model"] = claude.pop("model")
    tools = split_tools(claude.pop("tools", None))
    set_tools(data, tools)
    extra.update(claude)
    for client, values in per_client.items():
        if isinstance(values.get("model"), str):
            data.setdefault("models", {})[client] = values.pop("model")
    if extra:
        data["frontmatter_extra"] = extra
    kept = {c: v for c, v in per_client.items() if v}
    if kept:
        data["client_frontmatter"] = kept
    if spawns_agents(tools):
        data["role"] = "orchestrator"
    data["prompt"] = _body(doc.body)
    kept_keys = sorted({*extra, *kept})
    return Converted(name, data, tools=tools, kept=kept_keys, line=name_line(doc))


def targets_of(value: Any) -> list[str] | None:
    """rulesync `targets` -> Orkestra targets (None: every target)."""
    names = split_tools(value) if value is not None else ["*"]
    if "*" in names:
        return None
    return list(dict.fromkeys(RULESYNC_TARGETS[n] for n in names if n in RULESYNC_TARGETS))


def command(doc: Document, stem: str) -> Converted:
    """A rulesync `.rulesync/commands/<name>.md` as `commands/<name>.yaml` data."""
    meta = dict(doc.meta)
    name = _name(meta.pop("name", None), stem, doc)
    description = _description(meta, doc)
    body = _body(doc.body)
    if not body.strip():
        raise Skip(_NO_BODY, doc.body_line)
    data = {"name": name, "description": description, "body": body}
    return Converted(name, data, line=name_line(doc))


#: the keys of a server of an `mcp.json` the registry holds (`type` as its transport)
_MCP_KEYS = {"command", "args", "env", "url", "httpUrl", "headers", "type"}
_MCP_TYPES = {"stdio", "http", "streamable-http", "streamableHttp"}


def mcp_servers(
    data: Any, rel: str
) -> tuple[dict[str, dict[str, Any]], dict[str, tuple[bool, str]]]:
    """`{"mcpServers": {...}}` (rulesync, Claude, Cursor, Gemini) as registries/mcp.yaml data,
    and name -> (refused?, why) for each server the registry cannot hold (refused) or holds
    without some of its keys (said)."""
    servers = data.get("mcpServers", data.get("servers")) if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        raise Skip(f"{rel}: expected an object with `mcpServers`")
    out: dict[str, dict[str, Any]] = {}
    notes: dict[str, tuple[bool, str]] = {}
    for name, server in servers.items():
        name = str(name)
        kind = server.get("type") if isinstance(server, dict) else None
        if isinstance(kind, str) and kind not in _MCP_TYPES:
            notes[name] = (True, f"MCP server '{name}' uses the {kind.upper()} transport, which "
                           "registries/mcp.yaml cannot hold (sync writes a URL as streamable "
                           "HTTP, so it would stop connecting): give its streamable HTTP URL, "
                           "or leave it to the client's own config, and import again")  # fmt: skip
            continue
        shape = _mcp_shape(name, server)
        if shape is not None:
            notes[name] = (True, shape)
            continue
        entry: dict[str, Any] = {}
        url = server.get("url") or server.get("httpUrl") if isinstance(server, dict) else None
        if isinstance(server, dict) and isinstance(server.get("command"), str):
            entry["command"] = server["command"]
            if server.get("args"):
                entry["args"] = [str(a) for a in server["args"]]
            if server.get("env"):
                entry["env"] = {str(k): str(v) for k, v in server["env"].items()}
        elif isinstance(server, dict) and isinstance(url, str):
            entry["url"] = url
            if server.get("headers"):
                entry["headers"] = {str(k): str(v) for k, v in server["headers"].items()}
        else:
            notes[name] = (True, f"MCP server '{name}' has neither a `command` nor a `url` "
                           "(a string): give it one and import again")  # fmt: skip
            continue
        left = sorted(str(k) for k in server if k not in _MCP_KEYS)
        if left:
            notes[name] = (False, f"MCP server '{name}': {', '.join(left)}: no registry field, "
                           "left out")  # fmt: skip
        out[name] = entry
    return out, notes


def _mcp_shape(name: str, server: Any) -> str | None:
    """Why server `name` of an MCP config has a shape no client reads (not an object; `args`
    not a list of strings; `env` or `headers` not a table of strings), else None."""
    if not isinstance(server, dict):
        return f"MCP server '{name}' is not an object: make it one and import again"
    scalar = (str, int, float, bool)
    args = server.get("args")
    if args is not None and not (
        isinstance(args, list) and all(isinstance(a, scalar) for a in args)
    ):
        return (f"MCP server '{name}' has `args` that are not a list of strings: write them as "
                "one (`\"args\": [\"-y\", \"pkg\"]`) and import again")  # fmt: skip
    for key in ("env", "headers"):
        table = server.get(key)
        if table is not None and not (
            isinstance(table, dict) and all(isinstance(v, scalar) for v in table.values())
        ):
            return (f"MCP server '{name}' has `{key}` that is not a table of NAME: value "
                    "strings: write it as one and import again")  # fmt: skip
    return None


def values_of(text: str) -> tuple[list[dict[str, str]], list[str]]:
    """(values from the `Values`/`Principles` sections of an instruction file, titles of the
    sections that map to no registry kind). Orkestra's own managed block is skipped."""
    from orkestra.core import managed_block
    from orkestra.importer.parse import split_sections
    from orkestra.registry.render_lock import BEGIN, END

    start, end = managed_block.find(text, BEGIN, END)
    if start >= 0 and end > start:
        text = text[:start] + text[end + len(END) :]
    text = re.sub(r"^#{3,} ", "## ", text, flags=re.MULTILINE)
    intro, sections = split_sections(text)
    values: list[dict[str, str]] = []
    #: a first clause (casefolded) -> the statements it begins: two or more name each by its text
    clauses: dict[str, set[str]] = {}
    unmapped = [s["title"] for s in sections]
    for section in sections:
        if not re.search(r"\b(values|principles)\b", section["title"], re.IGNORECASE):
            continue
        unmapped.remove(section["title"])
        for line in section["body"].splitlines():
            found = _VALUE.match(line)
            if found is None:
                continue
            statement = found.group("text").strip()
            label = (found.group("name") or "").strip().rstrip(":")
            if not label:
                clauses.setdefault(_first_clause(statement).casefold(), set()).add(statement)
            values.append({"name": label, "statement": statement})
    for value in values:
        if not value["name"]:
            clause = _first_clause(value["statement"])
            alike = len(clauses[clause.casefold()]) > 1
            value["name"] = value["statement"].rstrip(".") if alike else clause
    if intro.strip() and not re.fullmatch(r"\s*#[^\n]*\s*", intro):
        unmapped.insert(0, "(text before the first heading)")
    return values, unmapped


def _first_clause(statement: str) -> str:
    """A value's name taken from its text: its first sentence (a `.` that ends an initial or an
    abbreviation such as "e.g." or "U.S." does not end it) or clause (up to `;`, `:` or a dash),
    whole: cut at a number of words it could lose its meaning ("Do not use the") or name two
    values alike. Inline code (`key: value`) is never cut: its punctuation is code."""
    masked = re.sub(r"(`+).*?\1", lambda code: "x" * len(code.group()), statement)
    first = statement
    for found in re.finditer(r"[.!?]\s+(?=[A-Z])|[;:]\s| [—–-] ", masked):
        stop = found.start()
        if masked[stop] in ".!?":
            initial = stop >= 1 and masked[stop - 1].isalpha()
            if masked[stop] == "." and initial and (stop < 2 or not masked[stop - 2].isalnum()):
                continue  # a one-letter word's dot: an initial, "e.g.", "U.S."
            stop += 1
        first = statement[:stop]
        break
    return first.strip().rstrip(".,;:!?").strip() or statement


def model_id(model: Any) -> bool:
    """True when `model` fits `models.<client>` (a model id); a name with spaces, which
    Copilot's picker shows ("GPT-5 (copilot)"), is kept as written for that client instead."""
    return isinstance(model, str) and bool(_MODEL_RE.match(model.strip()))


def _base(name: str, description: str, category: str) -> dict[str, Any]:
    data: dict[str, Any] = {"name": name, "description": description}
    if category:
        data["category"] = category
    data["imported"] = True
    return data


def _finish(
    data: dict[str, Any], client: str, kept: dict[str, Any], body: str, tools: list[str]
) -> Converted:
    if kept:
        data["client_frontmatter"] = {client: kept}
    if spawns_agents(tools):
        data["role"] = "orchestrator"
    data["prompt"] = _body(without_roster(body))
    return Converted(str(data["name"]), data, tools=tools, kept=sorted(kept))
