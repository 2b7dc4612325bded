"""Decisions (§3.6): `decisions/registry.yaml` and `decisions/records/DEC-XX-NNN.yaml`."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, StringConstraints, model_validator

from orkestra.registry.models import search_fields
from orkestra.registry.models.common import DateStr, Model, Name, NonEmpty
from orkestra.registry.models.search_fields import SearchFields
from orkestra.registry.models.truths import Guidance

#: ASCII digits: `\d` would take fullwidth or Arabic-Indic look-alikes (`DEC-AR-００１`)
DECISION_ID_PATTERN = r"^DEC-[A-Z]{2}-[0-9]{3,}$"
DecisionId = Annotated[str, StringConstraints(pattern=DECISION_ID_PATTERN)]
DomainCode = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
Sha = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{7,40}$")]


class DecisionsRegistry(Model):
    domains: dict[Name, DomainCode] = Field(default_factory=dict)


def shared_codes(domains: dict[str, str]) -> dict[str, list[str]]:
    """Code -> the domains (in file order) of every code more than one domain has: their ids
    `DEC-<code>-NNN` would be ambiguous. The one rule `validate` and `decisions new` apply."""
    holders: dict[str, list[str]] = {}
    for name, code in domains.items():
        holders.setdefault(code, []).append(name)
    return {code: names for code, names in holders.items() if len(names) > 1}


class Impact(Model):
    positive: list[str] = Field(default_factory=list)
    negative: list[str] = Field(default_factory=list)


class SourceCommit(Model):
    sha: Sha
    message: str = ""
    date: DateStr | None = None
    role: Literal["primary", "supporting", "related", "revert"] = "primary"


class DecisionRecord(Model):
    #: what search indexes of this kind, and how much each field weighs (§7)
    SEARCH_FIELDS: ClassVar[SearchFields] = search_fields.DECISIONS
    id: DecisionId
    title: NonEmpty
    domain: Name
    status: Literal["proposed", "active", "superseded", "deprecated"]
    created: DateStr
    summary: str = ""
    context: str = ""
    rationale: list[str] = Field(default_factory=list)
    alternatives: list[str] = Field(default_factory=list)
    impact: Impact = Field(default_factory=Impact)
    agent_guidance: Guidance = Field(default_factory=Guidance)
    source_commits: list[SourceCommit] = Field(default_factory=list)
    files: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    related: list[DecisionId] = Field(default_factory=list)
    superseded_by: DecisionId | None = None

    @model_validator(mode="after")
    def _superseded_needs_successor(self) -> DecisionRecord:
        if self.status == "superseded" and not self.superseded_by:
            raise ValueError("a superseded decision needs `superseded_by`")
        return self
