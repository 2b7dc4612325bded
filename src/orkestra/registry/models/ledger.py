"""Line formats of the two append-only ledgers (§6.6)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, field_validator, model_validator

from orkestra.registry.models.common import Model
from orkestra.registry.models.decisions import DecisionId, Sha

Category = Literal["added", "changed", "deprecated", "removed", "fixed", "security"]
CATEGORIES: tuple[str, ...] = ("added", "changed", "deprecated", "removed", "fixed", "security")
Domain = Literal["changelog", "decisions"]
Action = Literal["release", "skip", "extract", "pending"]
#: the longest summary or reason a classification may give, in characters: a changelog line, not
#: a document; it keeps every ledger line far below the reader's limit of 1 MiB a line
MAX_TEXT = 2000


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain a NUL character")
    return value


def _filled(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    return value


#: a text field of a ledger line (§13: text fields may not hold NUL)
LedgerText = Annotated[str, AfterValidator(_no_nul)]
#: a text field a ledger line must fill (an empty or blank one is named so, not as "at least 1
#: item", pydantic's words for a length constraint checked after a validator)
Filled = Annotated[str, AfterValidator(_no_nul), AfterValidator(_filled)]
#: a summary or reason given by a classification, and so written to the ledger
RequestText = Annotated[str, Field(max_length=MAX_TEXT), AfterValidator(_no_nul)]
#: the id an entry replaces, or the ids when one entry resolves several current ones at once
Supersedes = Filled | Annotated[list[Filled], Field(min_length=1)]
#: the actions each domain takes
ACTIONS: dict[str, tuple[str, ...]] = {
    "changelog": ("release", "skip"),
    "decisions": ("extract", "pending", "skip"),
}


def _check_action(domain: str, action: str) -> None:
    if action not in ACTIONS[domain]:
        allowed = ", ".join(ACTIONS[domain])
        raise ValueError(f"action {action!r} is not valid in {domain} (use {allowed})")


class ClassificationRequest(Model):
    """One classification asked for (`mine classify` flags or a `mine commit --input` line).

    Stricter than a ledger line: each optional field goes with its action only, a skip gives a
    reason. The sha may be abbreviated (the commit index resolves it).
    """

    sha: str = Field(min_length=1)
    domain: Domain
    action: Action
    category: Category | None = None
    summary: RequestText | None = None
    package: LedgerText | None = None
    decision_id: DecisionId | None = None
    reason: RequestText | None = None

    @field_validator("category", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.lower() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _fields_of_the_action(self) -> ClassificationRequest:
        _check_action(self.domain, self.action)
        if self.action == "release" and self.category is None:
            raise ValueError("a release needs a `category`")
        if self.action != "release" and self.category is not None:
            raise ValueError("`category` only goes with action release")
        if self.action == "extract" and self.decision_id is None:
            raise ValueError("an extract needs a `decision_id`")
        if self.action != "extract" and self.decision_id is not None:
            raise ValueError("`decision_id` only goes with action extract")
        if self.action == "skip" and not (self.reason or "").strip():
            raise ValueError("a skip needs a reason")
        return self


class ClassificationEntry(Model):
    """One line of `changelog/commits_processed.jsonl`."""

    id: Filled
    ts: Filled
    sha: Sha
    domain: Domain
    action: Action
    category: Category | None = None
    summary: LedgerText | None = None
    package: LedgerText | None = None
    decision_id: DecisionId | None = None
    reason: LedgerText | None = None
    supersedes: Supersedes | None = None

    @model_validator(mode="after")
    def _action_fields(self) -> ClassificationEntry:
        _check_action(self.domain, self.action)
        if self.action == "release" and self.category is None:
            raise ValueError("a release needs a `category`")
        if self.action == "extract" and self.decision_id is None:
            raise ValueError("an extract needs a `decision_id`")
        return self


class ReleaseNoteEntry(Model):
    """One line of `changelog/release_notes.jsonl`."""

    id: Filled
    ts: Filled
    sha: Sha
    package: Filled
    category: Category
    summary: Filled
    date: LedgerText | None = None
    supersedes: Supersedes | None = None
    #: id of the classification entry that produced this note (None for a hand-written note)
    classification: LedgerText | None = None
