"""The Codex CLI target (PRODUCT.md §4): `.codex/agents/<name>.toml` per agent.

An agent file holds `name`, `description` and `developer_instructions` (the full composed prompt),
plus `model` when the agent names one for Codex (`models: {codex: …}`; otherwise Codex's default,
never a Claude model) and `sandbox_mode` from its tools: `read-only` when it holds no tool that
writes or runs commands, else `workspace-write` (an imported agent's own `sandbox_mode`, or its
absence, recorded as null, wins). Codex has no per-agent tool list (see
`registry.client_rules`). Skills go to the shared `.agents/skills/`, MCP servers to
`.codex/config.toml` (`mcp_config`), hooks to `.codex/hooks.json` (`orkestra hooks install`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from orkestra.registry import render_lock
from orkestra.registry.client_rules import client_model, read_only
from orkestra.registry.models import Agent
from orkestra.registry.registry import Registry
from orkestra.registry.render_lock import mark_line
from orkestra.render.environment import Templates
from orkestra.render.plan import Output
from orkestra.render.targets import toml_out
from orkestra.render.targets.shared import Composer, extra, keep_recipe

NAME = "codex"
AGENTS = render_lock.TARGET_ROOTS[NAME][0].rstrip("/")
REQUIRED = ("name", "description", "developer_instructions")
#: keys Orkestra itself writes besides the required ones. An agent file is a Codex config layer:
#: an imported file's other keys (`approval_policy`, `[mcp_servers.x]`, `model_provider`, ...)
#: are kept in `client_frontmatter.codex` and written back as they were
OPTIONAL = ("model", "model_reasoning_effort", "sandbox_mode", "nickname_candidates")


def render(reg: Registry, templates: Templates) -> Iterator[Output]:
    """One TOML file per agent rendered for Codex."""
    composer = Composer(reg, templates)
    for agent in composer.agents(NAME):
        path = f"{AGENTS}/{agent.name}.toml"
        items = agent_items(agent, composer)
        prompt = items["developer_instructions"]
        own = "description" not in extra(agent, NAME)  # an imported file's own one wins
        keep_recipe(templates, path, NAME, agent, "", items, prompt, own_description=own)
        yield Output(path, document(items).encode("utf-8"))


def document(items: dict[str, Any]) -> str:
    """The TOML document of an agent's `items` (`agent_items`; no template)."""
    mark = mark_line(f"agent {items['name']}")  # its first line
    return f"# {mark}\n" + toml_out.table(None, items)


def agent_items(agent: Agent, composer: Composer) -> dict[str, Any]:
    """The agent's TOML keys and values, in their order (`developer_instructions` last)."""
    context = composer.context(agent)
    tools = list(context["tools"])
    items: dict[str, Any] = {
        "name": agent.name,
        "description": agent.description.strip(),
        "model": client_model(agent.models, NAME),
        "sandbox_mode": "read-only" if read_only(tools) else "workspace-write",
    }
    for key, value in extra(agent, NAME).items():
        items[key] = value  # an imported file's own choice wins
    items = {k: v for k, v in items.items() if v is not None}  # null: leave the key out
    items["developer_instructions"] = composer.prompt(context)
    return items
