"""The GitHub Copilot target (PRODUCT.md §4): `.github/agents/<name>.agent.md` per agent and the
managed block of `.github/copilot-instructions.md`.

Frontmatter: `name`, `description` (required), `tools` as Copilot's aliases (`read`, `edit`,
`search`, `execute`, `web`, `agent`, `todo`, MCP tools as `server/tool`; table in
`registry.client_rules`), `model` only when the agent names one for Copilot. The body is the full
composed prompt, at most 30,000 characters (Copilot's limit: a longer one stops the sync rather
than being cut). Skills: `.claude/skills/` or the shared `.agents/skills/`, never both by
Orkestra's choice; MCP servers: `.vscode/mcp.json` (`mcp_config`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from orkestra.core.errors import InputError
from orkestra.registry import render_lock
from orkestra.registry.client_rules import map_tools
from orkestra.registry.registry import Registry
from orkestra.render.environment import Templates
from orkestra.render.plan import Output
from orkestra.render.targets.shared import (
    INSTRUCTIONS_TEMPLATE,
    Composer,
    agent_values,
    extra,
    keep_recipe,
    managed_file,
)

NAME = "copilot"
AGENTS = render_lock.TARGET_ROOTS[NAME][0].rstrip("/")
INSTRUCTIONS = render_lock.BLOCK_FILES[NAME]
BODY_LIMIT = 30_000
TEMPLATE = "copilot/agent.md.j2"


def render(reg: Registry, templates: Templates) -> Iterator[Output]:
    """Agent files, then the instructions file with its managed block."""
    composer = Composer(reg, templates)
    for agent in composer.agents(NAME):
        context = composer.context(agent)
        prompt = composer.prompt(context)
        path = f"{AGENTS}/{agent.name}.agent.md"
        if len(prompt) > BODY_LIMIT:
            loc = reg.loc("agent", agent.name)
            raise InputError(
                f"agent '{agent.name}': its composed prompt is {len(prompt)} characters and "
                f"Copilot reads at most {BODY_LIMIT} ({path}); shorten it, or leave copilot out "
                "of the agent's `clients`",
                file=loc.file,
                line=loc.line or None,
            )
        tools, _ = map_tools(NAME, list(context["tools"]))
        kept = extra(agent, NAME)  # an imported file's keys (Copilot ignores unknown ones)
        values = agent_values(agent, NAME, tools, kept, prompt)
        keep_recipe(templates, path, NAME, agent, TEMPLATE, values, prompt)
        text = templates.render(TEMPLATE, values)
        yield Output(path, text.encode("utf-8"))
    yield block_file(reg.root, composer.instructions(markers=True))


def block_file(root: Path, block: str) -> Output:
    """The instructions file with the instruction `block` (between markers) in place."""
    return managed_file(root, INSTRUCTIONS, block, INSTRUCTIONS_TEMPLATE, target=NAME)
