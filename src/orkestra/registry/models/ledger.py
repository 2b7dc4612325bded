"""Line formats of the two append-only ledgers (§6.6)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from orkestra.registry.models.common import Model
from orkestra.registry.models.decisions import DecisionId, Sha

Category = Literal["added", "changed", "deprecated", "removed", "fixed", "security"]
CATEGORIES: tuple[str, ...] = ("added", "changed", "deprecated", "removed", "fixed", "security")


class ClassificationEntry(Model):
    """One line of `changelog/commits_processed.jsonl`."""

    id: str = Field(min_length=1)
    ts: str = Field(min_length=1)
    sha: Sha
    domain: Literal["changelog", "decisions"]
    action: Literal["release", "skip", "extract", "pending"]
    category: Category | None = None
    summary: str | None = None
    package: str | None = None
    decision_id: DecisionId | None = None
    reason: str | None = None
    supersedes: str | None = None

    @model_validator(mode="after")
    def _action_fields(self) -> ClassificationEntry:
        if self.domain == "changelog" and self.action not in ("release", "skip"):
            raise ValueError("changelog entries take action release or skip")
        if self.domain == "decisions" and self.action not in ("extract", "skip", "pending"):
            raise ValueError("decisions entries take action extract, pending or skip")
        if self.action == "release" and self.category is None:
            raise ValueError("a release needs a `category`")
        if self.action == "extract" and self.decision_id is None:
            raise ValueError("an extract needs a `decision_id`")
        return self


class ReleaseNoteEntry(Model):
    """One line of `changelog/release_notes.jsonl`."""

    id: str = Field(min_length=1)
    ts: str = Field(min_length=1)
    sha: Sha
    package: str = Field(min_length=1)
    category: Category
    summary: str = Field(min_length=1)
    date: str | None = None
    supersedes: str | None = None
    #: id of the classification entry that produced this note (None for a hand-written note)
    classification: str | None = None
