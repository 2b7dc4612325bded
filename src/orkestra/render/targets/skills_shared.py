"""`.agents/skills/`: the skills folder Codex, Gemini, Copilot and Cursor read, written once for all
of them (PRODUCT.md §4). Copilot and Cursor also read `.claude/skills/`, so with the claude target
on and neither Codex nor Gemini configured, nothing is written here (a client never sees a skill
twice from Orkestra's hand)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from orkestra.registry import render_lock
from orkestra.registry.registry import Registry
from orkestra.render.environment import Templates
from orkestra.render.plan import Output
from orkestra.render.resolve import SkillIndex

NAME = render_lock.SHARED_SKILLS
BASE = render_lock.TARGET_ROOTS[NAME][0].rstrip("/")
#: clients that read only `.agents/skills/` (of the folders Orkestra writes)
_ONLY_SHARED = ("codex", "gemini")
#: clients that read `.claude/skills/` too
_EITHER = ("copilot", "cursor")
#: the targets a `sync --target` of which renders this folder too
READERS = (*_ONLY_SHARED, *_EITHER)


def readers(targets: Iterable[str]) -> list[str]:
    """Those of `targets` whose sync writes this folder too (a file in the way here blocks them)."""
    return [t for t in targets if t in READERS]


def needed(configured: Iterable[str]) -> bool:
    """Whether the configured targets need the shared folder."""
    chosen = set(configured)
    if chosen & set(_ONLY_SHARED):
        return True
    return bool(chosen & set(_EITHER)) and "claude" not in chosen


def render(reg: Registry, templates: Templates) -> Iterator[Output]:
    """Every active skill below `.agents/skills/`, exactly as the Claude target writes it."""
    from orkestra.render.targets import claude

    for name in sorted(SkillIndex(reg).active()):
        yield from claude.skill_outputs(reg, reg.skills[name], templates, base=BASE)
