"""Characters (identities, mindsets, styles) and the shared values (§3.1)."""

from __future__ import annotations

from pydantic import Field

from orkestra.registry.models.common import Model, NonEmpty


class Character(Model):
    """One identity, mindset or style: `name -> {description, guidance}`."""

    description: NonEmpty
    guidance: str = ""


class ValueItem(Model):
    name: NonEmpty
    statement: NonEmpty


class ValuesFile(Model):
    values: list[ValueItem] = Field(default_factory=list)
