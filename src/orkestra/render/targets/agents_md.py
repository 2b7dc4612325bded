"""The `agents-md` target (PRODUCT.md §4): Orkestra's managed block in the root `AGENTS.md`, read by
Codex, Copilot, Cursor and others: values, ground truths, the agents and skills rosters."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from orkestra.registry import client_rules, render_lock
from orkestra.registry.registry import Registry
from orkestra.render.environment import Templates
from orkestra.render.plan import Output
from orkestra.render.targets.shared import INSTRUCTIONS_TEMPLATE, Composer, managed_file

NAME = "agents-md"
PATH = render_lock.BLOCK_FILES[NAME]
#: Codex reads at most this much of the project docs by default (validate warns: ORK113)
CODEX_LIMIT = client_rules.CODEX_DOC_LIMIT


def render(reg: Registry, templates: Templates) -> Iterator[Output]:
    """The AGENTS.md with its managed block."""
    yield block_file(reg.root, Composer(reg, templates).instructions(markers=True))


def block_file(root: Path, block: str) -> Output:
    """AGENTS.md with the instruction `block` (between markers) in place."""
    return managed_file(root, PATH, block, INSTRUCTIONS_TEMPLATE, target=NAME)
