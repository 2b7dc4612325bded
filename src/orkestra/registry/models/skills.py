"""Skills (§3.3): core skills as YAML under `skills/<tier>/`, vendor skills as `SKILL.md` folders."""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from orkestra.registry.models import search_fields
from orkestra.registry.models.common import DateStr, Model, Name, NonEmpty, RelPath, ToolName
from orkestra.registry.models.search_fields import SearchFields

Layer = Literal["K0", "K1", "K2", "K3", "K4"]
SkillType = Literal["workflow", "discipline", "checklist"]

#: required section titles per skill type (§3.3), compared case-insensitively
REQUIRED_SECTIONS: dict[str, tuple[str, ...]] = {
    "workflow": ("When to use", "Steps", "Success criteria", "Recovery"),
    "discipline": ("When to use", "Rules"),
    "checklist": ("When to use", "Checklist"),
}
#: a description's trigger phrase: it says when to load the skill ("Use when ...", "Use this
#: when ...", "When you need ...", "Use PROACTIVELY"). The one test, used by `validate` (ORK102)
#: and by `skills intake` (well_structured, depth).
TRIGGER_RE = re.compile(
    r"\b(?:use (?:this (?:skill )?)?(?:when|for|whenever|if|to)\b"
    r"|when (?:you|the user|a user|users|claude|the agent|an agent|working|asked)\b"
    r"|whenever\b|use proactively\b|triggers? (?:on|when)\b|asks? (?:to|for|about)\b)",
    re.IGNORECASE,
)


def trigger_phrase(description: str) -> str | None:
    """The phrase of `description` that says when to use the skill, or None when it has none."""
    found = TRIGGER_RE.search(description)
    return found.group(0) if found else None


#: the only frontmatter keys the Agent Skills specification allows
SPEC_KEYS = ("name", "description", "license", "allowed-tools", "metadata", "compatibility")


def _a_subfolder(value: str) -> str:
    """`resources` names a folder below the skill file's own folder, never that folder itself
    (which would copy the skill's YAML, and every other skill's beside it, into the output)."""
    from orkestra.core.project import folder_parts

    if not folder_parts(value):
        raise ValueError(
            "must name a subfolder beside the skill file (e.g. 'my-skill/'), not the skill's own "
            "folder"
        )
    return value


class SkillMetadata(Model):
    identifier: Name
    name: Name
    description: NonEmpty
    #: an authored skill without a type is a workflow; an imported one keeps what it declared
    type: SkillType | None = None
    layer: Layer
    source: Literal["core", "vendor"] = "core"
    #: who the content comes from (`import --provider`), shown by `skills list`
    provider: Name | None = None
    #: copied in by `orkestra import`: judged by the Agent Skills spec, not the authoring gates
    imported: bool = False
    last_updated: DateStr | None = None
    version: str | None = None
    license: str | None = None
    compatibility: Annotated[str, StringConstraints(max_length=500)] | None = None

    @model_validator(mode="before")
    @classmethod
    def _authored_skill_has_a_type(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("type") is None and data.get("imported") is not True:
            return {**data, "type": "workflow"}
        return data


class SkillFrontmatter(Model):
    tags: list[Annotated[str, StringConstraints(min_length=1, max_length=64)]] = Field(
        default_factory=list
    )
    allowed_tools: list[ToolName] = Field(default_factory=list)
    #: frontmatter outside the spec (`argument-hint`, ...), rendered under `metadata` as strings
    extra: dict[str, str] = Field(default_factory=dict)


class Section(Model):
    title: NonEmpty
    body: str = ""


class SkillFile(Model):
    #: what search indexes of this kind, and how much each field weighs (§7)
    SEARCH_FIELDS: ClassVar[SearchFields] = search_fields.SKILLS
    metadata: SkillMetadata
    frontmatter: SkillFrontmatter = Field(default_factory=SkillFrontmatter)
    scopes: list[Name] = Field(default_factory=list)
    #: markdown rendered before the first section (an imported SKILL.md's text above its `##`s)
    intro: str = ""
    sections: list[Section] = Field(default_factory=list)
    #: a folder beside the skill's file holding its references/, scripts/ and assets/
    resources: Annotated[RelPath, AfterValidator(_a_subfolder)] | None = None


class SkillMd(Model):
    """Frontmatter of a vendor `SKILL.md` (Agent Skills spec), lenient on extension keys."""

    #: what search indexes of this kind, and how much each field weighs (§7)
    SEARCH_FIELDS: ClassVar[SearchFields] = search_fields.SKILLS

    model_config = ConfigDict(extra="allow", frozen=True, populate_by_name=True)

    name: Name
    description: NonEmpty
    license: str | None = None
    allowed_tools: str | list[str] | None = Field(default=None, alias="allowed-tools")
    metadata: dict[str, Any] | None = None
    compatibility: str | None = None

    @field_validator("description")
    @classmethod
    def _one_line_ok(cls, value: str) -> str:
        return value.strip()

    def tools(self) -> list[str]:
        if self.allowed_tools is None:
            return []
        if isinstance(self.allowed_tools, str):
            return [t for t in self.allowed_tools.replace(",", " ").split() if t]
        return list(self.allowed_tools)

    def extension_keys(self) -> list[str]:
        return sorted((self.model_extra or {}).keys())
