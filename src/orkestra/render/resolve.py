"""Skill resolution for rendering, indexed once (the Registry's own methods rescan every skill
per agent, which is too slow for thousands of agents). Same results, same order."""

from __future__ import annotations

from orkestra.registry.models import Agent
from orkestra.registry.registry import Registry


class SkillIndex:
    """K0 skills and each scope's skills, computed once for a registry."""

    def __init__(self, reg: Registry) -> None:
        self.reg = reg
        ordered = sorted(reg.skills.values(), key=lambda s: s.name)
        self.k0 = [s.name for s in ordered if s.layer == "K0"]
        self.declared: dict[str, list[str]] = {}
        for skill in ordered:
            for scope in skill.scopes:
                self.declared.setdefault(scope, []).append(skill.name)
        self._scope_cache: dict[str, list[str]] = {}
        self._combo_cache: dict[tuple[str, ...], dict[str, None]] = {}

    def scope_skills(self, scope: str) -> list[str]:
        """Like `Registry.scope_skills`: primary_skills, then skills that declare the scope."""
        cached = self._scope_cache.get(scope)
        if cached is None:
            names: dict[str, None] = {}
            definition = self.reg.scopes.get(scope)
            if definition is not None:
                names.update(dict.fromkeys(definition.primary_skills))
            names.update(dict.fromkeys(self.declared.get(scope, [])))
            cached = self._scope_cache[scope] = list(names)
        return cached

    def agent_skills(self, agent: Agent) -> list[str]:
        """Like `Registry.agent_skills`: K0, then each scope's, then explicit; existing only."""
        key = tuple(agent.scopes)
        base = self._combo_cache.get(key)
        if base is None:
            names: dict[str, None] = dict.fromkeys(self.k0)
            for scope in agent.scopes:
                names.update(dict.fromkeys(self.scope_skills(scope)))
            base = self._combo_cache[key] = {n: None for n in names if n in self.reg.skills}
        if not agent.skills:
            return list(base)
        out = dict(base)
        out.update((n, None) for n in agent.skills if n in self.reg.skills)
        return list(out)

    def active(self) -> set[str]:
        """The skills to render: every skill that is not dormant (§3.4, `Registry.active_skills`)."""
        return self.reg.active_skills()
