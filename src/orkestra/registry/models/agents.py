"""`agents/<name>.yaml` (§3.2): one specialist or orchestrator per file."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, StringConstraints, model_validator

from orkestra.registry.models import search_fields
from orkestra.registry.models.common import DomainRef, Model, Name, NonEmpty, ToolName
from orkestra.registry.models.config import Target
from orkestra.registry.models.search_fields import SearchFields

ModelId = Annotated[
    str,
    StringConstraints(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9._\-\[\]]*$"),
]
Color = Literal["red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan"]


class Agent(Model):
    #: what search indexes of this kind, and how much each field weighs (§7)
    SEARCH_FIELDS: ClassVar[SearchFields] = search_fields.AGENTS
    name: Name
    description: NonEmpty
    category: str = ""
    model: ModelId = "inherit"
    identity: list[Name] = Field(default_factory=list)
    mindset: Name | None = None
    style: Name | None = None
    domains: list[DomainRef] = Field(default_factory=list)
    scopes: list[Name] = Field(default_factory=list)
    skills: list[Name] = Field(default_factory=list)
    tools: list[ToolName] = Field(default_factory=list)
    mcp_tools: list[ToolName] = Field(default_factory=list)
    role: Literal["specialist", "orchestrator"] = "specialist"
    color: Color | None = None
    #: the targets this agent is rendered for (None: every configured target)
    clients: list[Target] | None = None
    #: a model per client (`codex: gpt-5-codex`); a client not named gets its own default
    models: dict[Target, ModelId] = Field(default_factory=dict)
    status: Literal["active", "deprecated"] = "active"
    replaced_by: Name | None = None
    reason: str | None = None
    #: copied in by `orkestra import`: judged by the client's format, not the authoring gates
    imported: bool = False
    #: client frontmatter Orkestra has no field for (kept on import, rendered back verbatim)
    frontmatter_extra: dict[str, Any] = Field(default_factory=dict)
    #: another client's frontmatter kept on import (`gemini: {temperature: 0.2}`), rendered
    #: back into that client's file only
    client_frontmatter: dict[Target, dict[str, Any]] = Field(default_factory=dict)
    prompt: str = ""

    @model_validator(mode="after")
    def _deprecation_has_reason(self) -> Agent:
        if self.status == "deprecated" and not (self.replaced_by or self.reason):
            raise ValueError("a deprecated agent needs `replaced_by` or `reason`")
        return self

    def rendered_for(self, target: str) -> bool:
        """Whether this agent is rendered by `target` (its `clients`, else every target)."""
        return self.clients is None or target in self.clients

    def all_tools(self) -> list[str]:
        """Built-ins then MCP tools, each once, in declared order."""
        seen: dict[str, None] = {}
        for tool in [*self.tools, *self.mcp_tools]:
            seen.setdefault(tool, None)
        return list(seen)
