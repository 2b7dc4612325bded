"""Client markdown into registry values: sections of a body, tools that spawn agents."""

from __future__ import annotations

import re
from typing import Any

from orkestra.registry.models.tools import AGENT_TOOLS


def decode_text(raw: bytes) -> str:
    """A client file's bytes as text: UTF-8 without its byte-order mark, CRLF and lone CR line
    endings made LF (the registry stores LF; a CRLF source would otherwise render with mixed
    endings). Raises UnicodeDecodeError when the bytes are not UTF-8."""
    return raw.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")


def base_tool(tool: str) -> str:
    """`Bash(git add:*)` -> `Bash`: the name tools.yaml registers."""
    return tool.split("(", 1)[0].strip()


#: the skill roster Orkestra composes into every agent that has skills (shared/prompt.md.j2)
ROSTER = "## Skills\n\nLoad a skill when its description matches the task:\n\n"
_AFTER_ROSTER = "## Instructions\n"


def without_roster(body: str) -> str:
    """An agent body without the skill roster Orkestra composed into it, when it starts with one
    (a rendered agent imported again): sync composes the roster anew from the agent's `skills`,
    so keeping it would repeat it on every round trip. The `## Instructions` heading composed
    right after it goes too; any other body is returned as it is."""
    text = body.lstrip("\n")
    if not text.startswith(ROSTER):
        return body
    rest = text[len(ROSTER) :]
    lines = rest.split("\n")
    count = next((i for i, line in enumerate(lines) if not line.startswith("- `")), len(lines))
    rest = "\n".join(lines[count:]).lstrip("\n")
    return rest.removeprefix(_AFTER_ROSTER)


_TOOL_RE = re.compile(r"^[A-Za-z0-9_-]+$")


def mcp_parts(tool: str) -> tuple[str | None, str | None]:
    """`mcp__server__tool` -> (server, tool); (None, None) for a built-in; ("", None) if odd."""
    if not tool.startswith("mcp__"):
        return None, None
    server, _, name = tool[5:].partition("__")
    if _TOOL_RE.match(server) and _TOOL_RE.match(name):
        return server, name
    return "", None


def registrable(tool: str) -> bool:
    """True when tools.yaml can hold the tool's name: a built-in (`Bash`, `Bash(git:*)`) or one
    MCP tool (`mcp__server__tool`); not `*` or a whole server (`mcp__github`)."""
    base = base_tool(tool)
    server, name = mcp_parts(base)
    if server is None:
        return bool(_TOOL_RE.match(base))
    return name is not None


def spawns_agents(tools: list[str]) -> bool:
    return any(base_tool(t) in AGENT_TOOLS for t in tools)


def split_sections(body: str) -> tuple[str, list[dict[str, str]]]:
    """Markdown body -> (text before the first `## `, [{title, body}]); code fences respected."""
    intro: list[str] = []
    sections: list[dict[str, Any]] = []
    fence: str | None = None
    for line in body.splitlines(keepends=True):
        stripped = line.lstrip()
        if fence is None and stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
        elif fence is not None and stripped.startswith(fence):
            fence = None
        elif fence is None and line.startswith("## ") and line[3:].strip():
            sections.append({"title": line[3:].strip(), "lines": []})
            continue
        (sections[-1]["lines"] if sections else intro).append(line)
    out = [{"title": s["title"], "body": _tidy("".join(s["lines"]))} for s in sections]
    return _tidy("".join(intro)), out


def _tidy(text: str) -> str:
    text = text.strip("\n").rstrip()
    return text + "\n" if text else ""
