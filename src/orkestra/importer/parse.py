"""Turn client frontmatter values into registry values: tool lists, sections, plain data."""

from __future__ import annotations

import json
from typing import Any

from orkestra.registry.models.tools import AGENT_TOOLS


def plain(value: Any) -> Any:
    """Loaded YAML (LineDict/LineList) as plain dicts and lists, for writing back out."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def split_tools(value: Any) -> list[str]:
    """Tool names from a list or a string (comma- or space-separated; `Bash(git add:*)` kept)."""
    if value is None:
        return []
    if isinstance(value, list):
        items = [str(v).strip() for v in value]
        return [i for i in items if i]
    text = str(value)
    separators = "," if "," in text else ", \t\n"
    out: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        if char in separators and depth == 0:
            out.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    out.append("".join(current).strip())
    return [i for i in out if i]


def base_tool(tool: str) -> str:
    """`Bash(git add:*)` -> `Bash`: the name tools.yaml registers."""
    return tool.split("(", 1)[0].strip()


def spawns_agents(tools: list[str]) -> bool:
    return any(base_tool(t) in AGENT_TOOLS for t in tools)


def as_string(value: Any) -> str:
    """A frontmatter value as a metadata string: scalars as written, lists comma-joined."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, list):
        return ",".join(as_string(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(plain(value), ensure_ascii=False, sort_keys=True)
    return str(value)


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
