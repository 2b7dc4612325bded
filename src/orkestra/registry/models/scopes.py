"""`scopes.yaml` (§3.4): scope -> skills."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from orkestra.registry.models import search_fields
from orkestra.registry.models.common import Model, Name, NonEmpty
from orkestra.registry.models.search_fields import SearchFields


class Scope(Model):
    #: what search indexes of this kind, and how much each field weighs (§7)
    SEARCH_FIELDS: ClassVar[SearchFields] = search_fields.SCOPES
    description: NonEmpty
    primary_skills: list[Name] = Field(default_factory=list)


class ScopesFile(Model):
    scopes: dict[Name, Scope] = Field(default_factory=dict)
