"""The Gemini CLI target (PRODUCT.md §4): `.gemini/agents/<name>.md` per agent.

The client validates the frontmatter strictly (unknown keys are rejected): `name`, `description`,
`tools` (a YAML list of Gemini tool names: table in `registry.client_rules`; MCP tools as
`mcp_<server>_<tool>`), `model` only when the agent names one for Gemini, and from an import
`display_name`, `temperature`, `max_turns`, `timeout_mins`, `mcp_servers`. The body is the full
composed prompt. Skills: the shared `.agents/skills/`; MCP servers: `.gemini/settings.json`.
"""

from __future__ import annotations

from collections.abc import Iterator

from orkestra.registry import render_lock
from orkestra.registry.client_rules import map_tools
from orkestra.registry.registry import Registry
from orkestra.render.environment import Templates
from orkestra.render.plan import Output
from orkestra.render.targets.shared import Composer, agent_values, extra, keep_recipe

NAME = "gemini"
AGENTS = render_lock.TARGET_ROOTS[NAME][0].rstrip("/")
TEMPLATE = "gemini/agent.md.j2"
#: every key the client's local agent schema accepts (gemini-cli 0.61 `localAgentSchema`)
SCHEMA_KEYS = (
    "kind", "name", "description", "display_name", "tools", "mcp_servers", "model",
    "temperature", "max_turns", "timeout_mins",
)  # fmt: skip
_KEPT = ("kind", "display_name", "tools", "mcp_servers", "temperature", "max_turns", "timeout_mins")


def render(reg: Registry, templates: Templates) -> Iterator[Output]:
    """One markdown file per agent rendered for Gemini."""
    composer = Composer(reg, templates)
    for agent in composer.agents(NAME):
        context = composer.context(agent)
        tools, _ = map_tools(NAME, list(context["tools"]))
        kept = extra(agent, NAME, _KEPT)
        prompt = composer.prompt(context)
        values = agent_values(agent, NAME, tools, kept, prompt)
        path = f"{AGENTS}/{agent.name}.md"
        keep_recipe(templates, path, NAME, agent, TEMPLATE, values, prompt)
        text = templates.render(TEMPLATE, values)
        yield Output(path, text.encode("utf-8"))
