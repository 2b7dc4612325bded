"""The `model` of agents and commands against what each render target accepts (ORK110).

Only the Claude target constrains it today: Claude Code takes `inherit`, a family alias (`sonnet`,
`opus`, `haiku`, optionally with the `[1m]` long-context suffix) or a full Claude model id
(`claude-…`). Anything else (`gpt-4`) would be passed through and fail in the client, so it is a
warning naming the accepted values, and an error under `--strict`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from orkestra.registry.findings import Finding
from orkestra.registry.registry import Registry

CLAUDE_ALIASES = ("inherit", "sonnet", "opus", "haiku")
_CLAUDE = re.compile(r"(?:sonnet|opus|haiku)\[1m\]|claude-[a-z0-9][a-z0-9.\-]*(?:\[1m\])?")
CLAUDE_ACCEPTED = ", ".join(CLAUDE_ALIASES) + " (or a full Claude model id such as claude-opus-4-5)"


def claude_accepts(model: str) -> bool:
    """Whether Claude Code accepts `model` in an agent's or a command's frontmatter."""
    return model in CLAUDE_ALIASES or _CLAUDE.fullmatch(model) is not None


def target_models(reg: Registry) -> Iterator[Finding]:
    """A warning for each agent or command whose model a configured target does not accept."""
    from orkestra.registry.references import LineFinder

    if "claude" not in reg.config.targets:
        return
    lines = LineFinder(reg.root)
    entries: list[tuple[str, str, str | None]] = [
        ("agent", a.name, a.model) for a in reg.agents.values()
    ]
    entries += [("command", c.name, c.model) for c in reg.commands.values()]
    for kind, name, model in entries:
        if model is None or claude_accepts(model):
            continue
        loc = reg.loc(kind, name)
        yield Finding.make(
            "ORK110",
            f"{kind} '{name}' has model '{model}', which the claude target does not accept; "
            f"use {CLAUDE_ACCEPTED}",
            loc.file,
            lines.line(loc, model),
        )
