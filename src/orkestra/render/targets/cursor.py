"""The Cursor target (PRODUCT.md §4): `.cursor/agents/<name>.md` per agent and one always-applied
rule, `.cursor/rules/orkestra.mdc`, holding the values, ground truths and rosters.

Agent frontmatter: `name`, `description`, `model` (only when the agent names one for Cursor) and
`readonly: true` for an agent holding no tool that writes or runs commands (Cursor has no
per-agent tool list). The rule has `description` and `alwaysApply: true` and no `globs` (never
`globs: **/*` with `alwaysApply`). Skills: Cursor reads `.claude/skills/` and `.agents/skills/`;
MCP servers: `.cursor/mcp.json` (`mcp_config`).
"""

from __future__ import annotations

from collections.abc import Iterator

from orkestra.registry import render_lock
from orkestra.registry.client_rules import client_model, read_only
from orkestra.registry.registry import Registry
from orkestra.render.environment import Templates
from orkestra.render.plan import Output
from orkestra.render.targets.shared import Composer, dump_extra, extra, keep_recipe

NAME = "cursor"
AGENTS = render_lock.TARGET_ROOTS[NAME][0].rstrip("/")
(RULE,) = render_lock.TARGET_FILES[NAME]
TEMPLATE = "cursor/agent.md.j2"
#: documented agent frontmatter keys (cursor.com/docs/context/subagents)
KEYS = ("name", "description", "model", "readonly", "is_background")
RULE_KEYS = ("description", "globs", "alwaysApply")


def render(reg: Registry, templates: Templates) -> Iterator[Output]:
    """Agent files, then the rule."""
    composer = Composer(reg, templates)
    for agent in composer.agents(NAME):
        context = composer.context(agent)
        kept = extra(agent, NAME)  # an imported file's own keys
        prompt = composer.prompt(context)
        values = {
            "name": agent.name,
            "description": agent.description.strip(),
            "model": client_model(agent.models, NAME),
            "readonly": kept.pop("readonly", read_only(list(context["tools"]))),
            "extra_frontmatter": dump_extra(kept),
            "prompt": prompt.rstrip("\n"),
        }
        path = f"{AGENTS}/{agent.name}.md"
        keep_recipe(templates, path, NAME, agent, TEMPLATE, values, prompt)
        text = templates.render(TEMPLATE, values)
        yield Output(path, text.encode("utf-8"))
    yield rule(templates, composer.instructions(markers=False))


def rule(templates: Templates, block: str) -> Output:
    """The rule holding the instruction `block` (without markers)."""
    body = block.rstrip("\n")
    return Output(RULE, templates.render("cursor/rule.mdc.j2", {"body": body}).encode("utf-8"))
