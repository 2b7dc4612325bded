"""Client files -> registry YAML data: Claude Code agents and Agent Skills folders.

Nothing is dropped silently: frontmatter Orkestra has no field for is kept (`frontmatter_extra`
for agents, `frontmatter.extra` for skills, rendered back under `metadata`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, get_args

from orkestra.core.frontmatter import Document
from orkestra.importer.parse import registrable, spawns_agents, split_sections, without_roster
from orkestra.registry.frontmatter_values import as_string, plain, split_tools
from orkestra.registry.models.agents import Color
from orkestra.registry.models.common import name_problem
from orkestra.registry.models.skills import SkillType

_MODEL_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._\-\[\]]{0,99}$")
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_COLORS = set(get_args(Color))
_TYPES = set(get_args(SkillType))
#: hard limits of the Agent Skills specification (a client refuses a skill over them)
DESCRIPTION_MAX = 1024
COMPATIBILITY_MAX = 500


_NO_BODY = (
    "command without a body: write what the command does below the frontmatter and import again"
)


class Skip(Exception):
    """This source file cannot be imported; the message says why (and `line` where, if known)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def read_toml(text: str) -> Any:
    """A client's TOML file (a Codex agent or config) parsed, or `Skip` at the line it fails."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"line (\d+)", str(exc))
        raise Skip(
            f"not valid TOML ({exc}); fix the TOML and import again",
            int(found.group(1)) if found else None,
        ) from None


@dataclass
class Converted:
    """Registry data for one imported entry."""

    name: str
    data: dict[str, Any]
    tools: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    #: the line that names it (`name:`), else 1: where a clash with another entry is reported
    line: int = 1


def _name(value: Any, fallback: str, doc: Document | None = None, what: str = "file") -> str:
    """The entry's name (`name:`, else the file's or folder's), at its line in `doc` (parsed
    frontmatter) when refused."""
    name = str(value).strip() if value is not None else fallback
    problem = name_problem(name)
    if problem is not None:
        where = "rename it in the source" if value is not None else f"rename the {what}"
        line = doc.meta.key_lines.get("name") if doc is not None and value is not None else None
        raise Skip(
            f"name {name!r} is not a valid Orkestra name: {problem}; {where} and import again",
            line=line,
        )
    return name


def name_line(doc: Document) -> int:
    """The line of `doc`'s `name:` key, else 1 (the name is the file's or the folder's)."""
    return doc.meta.key_lines.get("name") or 1


def _description(meta: dict[str, Any], doc: Document | None = None) -> str:
    value = meta.get("description")
    text = as_string(value).strip() if value is not None else ""
    if not text:
        line = doc.meta.key_lines.get("description") if doc is not None and value is not None else 1
        raise Skip("no `description` in the frontmatter; add one that says when to use it", line)
    return text


def agent(doc: Document, stem: str, category: str, scope: str | None = None) -> Converted:
    """A Claude Code agent file as `agents/<name>.yaml` data; `scope` is its plugin's scope."""
    meta = dict(doc.meta)
    name = _name(meta.pop("name", None), stem, doc)
    description = _description(meta, doc)
    meta.pop("description", None)
    data: dict[str, Any] = {"name": name, "description": description}
    if category:
        data["category"] = category
    data["imported"] = True
    if scope:
        data["scopes"] = [scope]
    extra: dict[str, Any] = {}
    model = meta.pop("model", None)
    if model is not None:
        if isinstance(model, str) and _MODEL_RE.match(model) and len(model) <= 100:
            data["model"] = model
        else:
            extra["model"] = plain(model)
    raw_tools = meta.pop("tools", None)
    given = split_tools(raw_tools)
    tools = given if all(registrable(t) for t in given) else []
    if "tools" in doc.meta and not tools:
        # `tools: []`, or a name tools.yaml cannot hold (`*`, `mcp__github`): kept as written
        # and rendered back verbatim, never a validation error that stops every sync
        extra["tools"] = plain(raw_tools)
    set_tools(data, tools)
    skills_value = meta.pop("skills", None)
    skills = split_tools(skills_value)
    if skills and all(name_problem(s) is None for s in skills):
        data["skills"] = skills
    elif skills_value is not None:
        extra["skills"] = plain(skills_value)
    if spawns_agents(given):
        data["role"] = "orchestrator"
    color = meta.pop("color", None)
    if isinstance(color, str) and color in _COLORS:
        data["color"] = color
    elif color is not None:
        extra["color"] = plain(color)
    extra.update({str(k): plain(v) for k, v in meta.items()})
    if extra:
        data["frontmatter_extra"] = extra
    data["prompt"] = _body(without_roster(doc.body))
    return Converted(name, data, tools=tools, kept=sorted(extra), line=name_line(doc))


def skill(
    doc: Document, folder: str, layer: str, provider: str | None, scope: str | None = None
) -> Converted:
    """An Agent Skills `SKILL.md` as `skills/<tier>/<name>.yaml` data (resources added later).

    Raises `Skip` (with the line) when it breaks a hard limit of the Agent Skills spec: the
    rendered copy would fail every client, so it is refused with the fix, never cut.
    """
    meta = dict(doc.meta)
    name = _name(meta.pop("name", None), folder, doc, "folder")
    description = _description(meta, doc)
    _spec_limit(doc, "description", description, DESCRIPTION_MAX)
    meta.pop("description", None)
    metadata: dict[str, Any] = {
        "identifier": name,
        "name": name,
        "description": description,
        "layer": layer,
        "source": "core",
    }
    if provider:
        metadata["provider"] = provider
    metadata["imported"] = True
    extra: dict[str, str] = {}
    spec_meta = meta.pop("metadata", None)
    tags: list[str] = []
    if isinstance(spec_meta, dict):
        tags = _spec_metadata(plain(spec_meta), metadata, extra)
    elif spec_meta is not None:
        extra["metadata"] = as_string(spec_meta)
    for key in ("license", "compatibility"):
        value = meta.pop(key, None)
        if value is not None:
            text = as_string(value)
            if key == "compatibility":
                _spec_limit(doc, key, text, COMPATIBILITY_MAX)
            metadata[key] = text
    version = meta.pop("version", None)
    if version is not None:
        metadata.setdefault("version", as_string(version))
    tools = split_tools(meta.pop("allowed-tools", None))
    odd = [t for t in tools if not registrable(t)]
    if odd:
        raise Skip(
            f"`allowed-tools` names {', '.join(repr(t) for t in odd)}, which tools.yaml cannot "
            "register (a built-in such as `Bash(git:*)`, or one MCP tool `mcp__server__tool`): "
            "list the tools one by one in the source and import again",
            line=doc.meta.key_lines.get("allowed-tools"),
        )
    for key, value in meta.items():
        extra[str(key)] = as_string(value)
    intro, sections = split_sections(_body(doc.body))
    front: dict[str, Any] = {}
    if tags:
        front["tags"] = tags
    if tools:
        front["allowed_tools"] = tools
    if extra:
        front["extra"] = extra
    data: dict[str, Any] = {"metadata": metadata}
    if front:
        data["frontmatter"] = front
    if scope:
        data["scopes"] = [scope]
    if intro:
        data["intro"] = intro
    data["sections"] = sections
    return Converted(name, data, tools=tools, kept=sorted(extra), line=name_line(doc))


def _spec_metadata(
    meta: dict[str, Any], metadata: dict[str, Any], extra: dict[str, str]
) -> list[str]:
    """Spec `metadata` (string -> string): known keys to fields, the rest kept as extra."""
    tags: list[str] = []
    for key, value in meta.items():
        text = as_string(value)
        if key == "type" and text in _TYPES:
            metadata["type"] = text
        elif key == "tags":
            tags = [t.strip() for t in text.split(",") if t.strip() and len(t.strip()) <= 64]
        elif key == "last_updated" and _DATE_RE.match(text):
            metadata["last_updated"] = text
        elif key == "version":
            metadata["version"] = text
        elif key in ("layer", "source"):
            continue  # the import decides the tier; imported skills are core
        else:
            extra[key] = text
    return tags


def _spec_limit(doc: Document, key: str, text: str, limit: int) -> None:
    """Refuse a value over an Agent Skills hard limit, naming its line and the fix."""
    if len(text) > limit:
        raise Skip(
            f"`{key}` is {len(text):,} characters, over the Agent Skills limit of {limit:,}: "
            f"shorten it to at most {limit:,} characters in the source and import again "
            "(entries already imported are skipped as collisions)",
            line=doc.meta.key_lines.get(key),
        )


def _body(body: str) -> str:
    text = body.strip("\n").rstrip()
    return text + "\n" if text else ""


def set_tools(data: dict[str, Any], tools: list[str]) -> None:
    """Split a tool list into the agent's built-in `tools` and its `mcp_tools` (`mcp__…`)."""
    builtin = [t for t in tools if not t.startswith("mcp__")]
    mcp = [t for t in tools if t.startswith("mcp__")]
    if builtin:
        data["tools"] = builtin
    if mcp:
        data["mcp_tools"] = mcp


def command(doc: Document, stem: str) -> Converted:
    """A Claude Code command (`commands/<name>.md`) as `commands/<name>.yaml` data. Without a
    `description` Claude shows the body's first line, so that line becomes the description;
    keys the registry has no field for are returned in `kept` (left out, reported)."""
    meta = dict(doc.meta)
    name = _name(meta.pop("name", None), stem, doc)
    body = _body(doc.body)
    if not body.strip():
        raise Skip(_NO_BODY, doc.body_line)
    value = meta.pop("description", None)
    description = as_string(value).strip() if value is not None else ""
    if not description:
        first = next(line for line in body.splitlines() if line.strip())
        description = first.lstrip("#").strip() or name
    data: dict[str, Any] = {"name": name, "description": description}
    hint = meta.pop("argument-hint", None)
    if hint is not None:
        data["argument_hint"] = as_string(hint)
    tools = split_tools(meta.pop("allowed-tools", None))
    odd = [t for t in tools if not registrable(t)]
    if odd:
        raise Skip(
            f"`allowed-tools` names {', '.join(repr(t) for t in odd)}, which tools.yaml cannot "
            "register: list the tools one by one in the source and import again",
            line=doc.meta.key_lines.get("allowed-tools"),
        )
    if tools:
        data["allowed_tools"] = tools
    model = meta.pop("model", None)
    if isinstance(model, str) and _MODEL_RE.match(model) and len(model) <= 100:
        data["model"] = model
    elif model is not None:
        meta["model"] = model
    data["body"] = body
    kept = sorted(str(k) for k in meta)
    return Converted(name, data, tools=tools, kept=kept, line=name_line(doc))
