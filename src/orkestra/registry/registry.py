"""The `Registry`: every kind loaded from one project root, references resolvable in one object."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orkestra.registry.findings import Finding

if TYPE_CHECKING:  # pydantic loads with the first model built (list commands may need none)
    from orkestra.registry.models import (
        Agent,
        Character,
        Command,
        Config,
        DecisionRecord,
        DecisionsRegistry,
        McpServer,
        Scope,
        SkillFile,
        SkillMd,
        ToolsFile,
        TruthRegistry,
        TruthStatement,
        ValueItem,
        VendorRoot,
    )

DOMAIN_FILES = ("decisions.md", "patterns.md", "anti-patterns.md", "evolution.md")


def _empty(name: str) -> Any:
    """A default model, its class imported on first use."""
    from orkestra.registry import models

    return getattr(models, name)()


@dataclass(frozen=True)
class Location:
    """Where an entry is defined: a path relative to the project root and a 1-based line."""

    file: str
    line: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass(frozen=True)
class SkillEntry:
    """A core or vendor skill seen the same way by validation, search and rendering."""

    name: str
    description: str
    layer: str
    type: str
    source: str  # core | vendor
    tags: tuple[str, ...]
    allowed_tools: tuple[str, ...]
    scopes: tuple[str, ...]
    loc: Location
    #: folder holding resources (core) or the skill folder itself (vendor), relative to the root
    folder: str | None
    tier: str | None = None
    provider: str | None = None
    #: copied in by `orkestra import`: judged by the Agent Skills spec, not the authoring gates
    imported: bool = False
    core: SkillFile | None = None
    vendor: SkillMd | None = None
    vendor_root: VendorRoot | None = None
    vendor_body: str = ""


@dataclass(frozen=True)
class Domain:
    """A domain knowledge folder with its four files (§3.7)."""

    name: str
    folder: str
    files: tuple[str, ...]


@dataclass
class Registry:
    """Every registry kind of one project, with source locations and load findings.

    Built once by `loader.load`; treat it as read-only afterwards (skill resolution is cached).
    """

    root: Path
    config: Config = field(default_factory=lambda: _empty("Config"))
    identities: dict[str, Character] = field(default_factory=dict)
    mindsets: dict[str, Character] = field(default_factory=dict)
    styles: dict[str, Character] = field(default_factory=dict)
    values: list[ValueItem] = field(default_factory=list)
    tools: ToolsFile = field(default_factory=lambda: _empty("ToolsFile"))
    agents: dict[str, Agent] = field(default_factory=dict)
    skills: dict[str, SkillEntry] = field(default_factory=dict)
    scopes: dict[str, Scope] = field(default_factory=dict)
    truth_files: dict[str, TruthRegistry] = field(default_factory=dict)
    truths: dict[str, TruthStatement] = field(default_factory=dict)
    decisions_registry: DecisionsRegistry = field(
        default_factory=lambda: _empty("DecisionsRegistry")
    )
    decisions: dict[str, DecisionRecord] = field(default_factory=dict)
    domains: dict[str, Domain] = field(default_factory=dict)
    commands: dict[str, Command] = field(default_factory=dict)
    #: MCP servers declared once in registries/mcp.yaml (name -> server), rendered per target
    mcp_servers: dict[str, McpServer] = field(default_factory=dict)
    #: (kind, name) -> where it is defined; kind is agent|skill|scope|truth|decision|command|...
    locations: dict[tuple[str, str], Location] = field(default_factory=dict)
    #: problems found while loading (syntax, schema, duplicates, layout)
    findings: list[Finding] = field(default_factory=list)

    @property
    def registries(self) -> Path:
        return self.root / "registries"

    def loc(self, kind: str, name: str) -> Location:
        """Where an entry is defined (file relative to the root, line)."""
        return self.locations.get((kind, name), Location("registries"))

    # --- skill resolution (§3.4) -------------------------------------------------------------

    @cached_property
    def _scope_index(self) -> dict[str, list[str]]:
        """scope -> its skills: primary_skills first, then skills declaring the scope themselves."""
        index: dict[str, dict[str, None]] = {}
        for name, definition in self.scopes.items():
            index[name] = dict.fromkeys(definition.primary_skills)
        for skill in sorted(self.skills.values(), key=lambda s: s.name):
            for scope in skill.scopes:
                index.setdefault(scope, {}).setdefault(skill.name, None)
        return {scope: list(names) for scope, names in index.items()}

    @cached_property
    def _foundations(self) -> list[str]:
        return sorted(s.name for s in self.skills.values() if s.layer == "K0")

    def scope_skills(self, scope: str) -> list[str]:
        """A scope's skills: its primary_skills plus skills that declare the scope themselves."""
        return list(self._scope_index.get(scope, []))

    def skill_origins(self, agent: Agent) -> dict[str, list[str]]:
        """An agent's resolved skill set with where each came from: `K0`, `scope:X`, `explicit`."""
        origins: dict[str, list[str]] = {name: ["K0"] for name in self._foundations}
        for scope in agent.scopes:
            for name in self._scope_index.get(scope, []):
                origins.setdefault(name, []).append(f"scope:{scope}")
        for name in agent.skills:
            origins.setdefault(name, []).append("explicit")
        return origins

    def agent_skills(self, agent: Agent) -> list[str]:
        """Names of the skills an agent resolves to that exist, in a stable order."""
        return [name for name in self.skill_origins(agent) if name in self.skills]

    def skill_scopes(self) -> dict[str, set[str]]:
        """skill -> every scope it belongs to (listed in `primary_skills` or declared by itself)."""
        member: dict[str, set[str]] = {}
        for scope, names in self._scope_index.items():
            for name in names:
                member.setdefault(name, set()).add(scope)
        return member

    def dormant_skills(self) -> list[str]:
        """Skills that are registered, validated and searchable but not rendered (§3.4): not K0,
        in at least one scope, every one of their scopes dormant (no agent declares it), and no
        agent lists them explicitly. A skill in no scope is rendered, never dormant."""
        declared: set[str] = set()
        explicit: set[str] = set()
        for agent in self.agents.values():
            declared.update(agent.scopes)
            explicit.update(agent.skills)
        member = self.skill_scopes()
        return sorted(
            name
            for name, skill in self.skills.items()
            if skill.layer != "K0"
            and name not in explicit
            and member.get(name)
            and not member[name] & declared
        )

    def active_skills(self) -> set[str]:
        """Skills that are rendered: every registered skill that is not dormant."""
        return set(self.skills) - set(self.dormant_skills())

    def scope_agents(self, scope: str) -> list[str]:
        return sorted(a.name for a in self.agents.values() if scope in a.scopes)

    def dormant_scopes(self) -> list[str]:
        return sorted(s for s in self.scopes if not self.scope_agents(s))

    def is_agent_tool(self, tool: str) -> bool:
        from orkestra.registry.models.tools import AGENT_TOOLS

        return tool in AGENT_TOOLS
