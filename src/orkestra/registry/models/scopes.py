"""`scopes.yaml` (§3.4): scope -> skills."""

from __future__ import annotations

from pydantic import Field

from orkestra.registry.models.common import Model, Name, NonEmpty


class Scope(Model):
    description: NonEmpty
    primary_skills: list[Name] = Field(default_factory=list)


class ScopesFile(Model):
    scopes: dict[Name, Scope] = Field(default_factory=dict)
