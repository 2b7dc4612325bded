"""Plugins to scopes (§3.4): a folder with its own `agents/` and `skills/` becomes a scope of its
name that its agents declare and its skills belong to, so a marketplace keeps its structure and
every imported skill renders for the agents of its own plugin, not for everyone."""

from __future__ import annotations

import re
from pathlib import Path

from orkestra.registry.models.common import name_problem

_NOT_NAME = re.compile(r"[^a-z0-9]+")


def agent_plugin(path: Path) -> Path | None:
    """`P/agents/x.md` -> P, and `P/agents/team/x.md` -> P (an agent in a subfolder)."""
    if path.parent.name == "agents":
        return path.parent.parent
    return next((f.parent for f in path.parents if f.name == "agents"), None)


def nested_agent(path: Path, base: Path) -> bool:
    """True for a markdown file in a subfolder of a Claude Code `agents/` folder (`.claude/` or
    a plugin's): Claude Code finds those too, by their `name` (anthropics/claude-code#58950).
    Other clients' folders and an `agents/` of documentation pages are read one level only."""
    for folder in path.parents:
        if folder == base:
            return False
        if folder.name == "agents":
            owner = folder.parent
            if owner.name.startswith("."):
                return owner.name == ".claude"
            return is_plugin_folder(owner)
    return False


def skill_plugin(path: Path) -> Path | None:
    """`P/skills/<name>/SKILL.md` -> P."""
    return path.parent.parent.parent if path.parent.parent.name == "skills" else None


def is_plugin_folder(folder: Path) -> bool:
    """A client's own folder (`.claude/`, `.github/`, ...) or a plugin's: its `agents/` and
    `commands/` hold entries (elsewhere, say `docs/agents/`, they may be documentation pages)."""
    if folder.name.startswith(".") or (folder / ".claude-plugin").is_dir():
        return True
    return sum((folder / kind).is_dir() for kind in ("agents", "skills", "commands")) >= 2


def scope_name(folder: Path) -> str | None:
    """The scope a plugin folder maps to: its name as an Orkestra name; None for a client's own
    folder (`.claude`, `.codex`, ...) or a name that cannot be made valid."""
    if folder.name.startswith("."):
        return None
    name = _NOT_NAME.sub("-", folder.name.lower()).strip("-")
    return name if name and name_problem(name) is None else None


class PluginScopes:
    """Which plugin scope each agent and skill of an import gets."""

    def __init__(self, agent_files: list[Path], skill_files: list[Path]) -> None:
        with_agents = {agent_plugin(p) for p in agent_files} - {None}
        with_skills = {skill_plugin(p) for p in skill_files} - {None}
        self._scopes = {p: scope_name(p) for p in with_agents & with_skills if p is not None}
        #: scope -> the plugin folder it came from, for the scopes an imported agent declares
        self.declared: dict[str, Path] = {}
        #: scopes the project's agents already declare (a re-import after fixing a refused skill)
        self.live: set[str] = set()

    def for_agent(self, path: Path) -> str | None:
        plugin = agent_plugin(path)
        return self._scopes.get(plugin) if plugin is not None else None

    def declare(self, scope: str, path: Path) -> None:
        """An agent of `scope`'s plugin was imported: the scope is live."""
        plugin = agent_plugin(path)
        if plugin is not None:
            self.declared.setdefault(scope, plugin)

    def for_skill(self, path: Path) -> str | None:
        """The skill's plugin scope, when an imported agent of that plugin declares it."""
        plugin = skill_plugin(path)
        scope = self._scopes.get(plugin) if plugin is not None else None
        live = scope is not None and (scope in self.declared or scope in self.live)
        return scope if live else None
