"""Vendor overlays: `registries/vendor/<provider>.yaml`, written by `orkestra skills intake --apply`.

A vendor skill's SKILL.md is vendor content and stays verbatim, so what Orkestra decides about it
(layer, type, tags, allowed tools, scopes) lives in an overlay. When a provider has an overlay, it
is also the allow-list: only the skills it lists are loaded from that provider's vendor roots.
Without an overlay every `<root>/*/SKILL.md` is loaded, as before.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from orkestra.registry.models.common import DateStr, Model, Name, RelPath, ToolName
from orkestra.registry.models.skills import Layer, SkillType


class AdoptedSkill(Model):
    """One adopted vendor skill and its normalised registry metadata."""

    path: RelPath  # the skill folder, relative to the project root
    layer: Layer
    type: SkillType = "workflow"
    tags: list[Name] = Field(default_factory=list)
    allowed_tools: list[ToolName] = Field(default_factory=list)
    scopes: list[Name] = Field(default_factory=list)
    verdict: Literal["adopt"] = "adopt"
    adopted: DateStr | None = None
    #: sha256 over the folder's files at adoption; `skills audit` reports drift from it
    digest: str | None = None


class VendorOverlay(Model):
    """`registries/vendor/<provider>.yaml`: the adopted skills of one provider."""

    provider: Name
    skills: dict[Name, AdoptedSkill] = Field(default_factory=dict)
