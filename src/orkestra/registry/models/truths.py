"""Ground-truth registries `truths/<owner>.yaml` (§3.5)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, StringConstraints, model_validator

from orkestra.registry.models import search_fields
from orkestra.registry.models.common import DateStr, Model, NonEmpty
from orkestra.registry.models.config import TruthsOutputPath
from orkestra.registry.models.search_fields import SearchFields

TruthId = Annotated[str, StringConstraints(pattern=r"^GT-[A-Z]{2,5}-[0-9]{3}$")]
TruthStatus = Literal["current", "tentative", "deprecated"]
_DEFAULT_STATUSES: tuple[TruthStatus, ...] = ("current", "tentative")


class Guidance(Model):
    do: list[str] = Field(default_factory=list)
    avoid: list[str] = Field(default_factory=list)


class RenderGroup(Model):
    title: NonEmpty
    tags: list[str] = Field(default_factory=list)


class TruthRender(Model):
    include_statuses: list[TruthStatus] = Field(default_factory=lambda: list(_DEFAULT_STATUSES))
    show_deprecated: bool = True
    groups: list[RenderGroup] = Field(default_factory=list)
    #: where GROUND_TRUTHS.md is written, relative to the project root
    output: TruthsOutputPath = "GROUND_TRUTHS.md"


class TruthMetadata(Model):
    title: NonEmpty
    summary: str = ""
    owner: NonEmpty
    last_updated: DateStr | None = None
    render: TruthRender = Field(default_factory=TruthRender)


class TruthStatement(Model):
    #: what search indexes of this kind, and how much each field weighs (§7)
    SEARCH_FIELDS: ClassVar[SearchFields] = search_fields.TRUTHS
    id: TruthId
    status: TruthStatus
    source: str = ""
    scope: Literal["platform", "package", "domain"] = "package"
    statement: NonEmpty
    rationale: str = ""
    evidence: list[str] = Field(default_factory=list)
    last_verified: DateStr | None = None
    tags: list[str] = Field(default_factory=list)
    agent_guidance: Guidance = Field(default_factory=Guidance)
    superseded_by: TruthId | None = None

    @model_validator(mode="after")
    def _deprecated_needs_successor(self) -> TruthStatement:
        if self.status == "deprecated" and not self.superseded_by:
            raise ValueError("a deprecated truth needs `superseded_by`")
        return self


class TruthRegistry(Model):
    metadata: TruthMetadata
    statements: list[TruthStatement] = Field(default_factory=list)
