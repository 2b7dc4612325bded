"""`commands/<name>.yaml`: slash commands rendered to `.claude/commands/<name>.md`."""

from __future__ import annotations

from pydantic import Field

from orkestra.registry.models.agents import ModelId
from orkestra.registry.models.common import Model, Name, NonEmpty, ToolName


class Command(Model):
    name: Name
    description: NonEmpty
    argument_hint: str | None = None
    allowed_tools: list[ToolName] = Field(default_factory=list)
    model: ModelId | None = None
    body: NonEmpty
