"""Verdict policy: reject hostile content, review what a person should look at, adopt the rest."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from orkestra.intake.criteria import Criterion
from orkestra.intake.rules import Finding

Verdict = Literal["adopt", "review", "reject"]


def decide(
    findings: Iterable[Finding], criteria: Mapping[str, Criterion]
) -> tuple[Verdict, list[str]]:
    """`reject` on any high finding, `review` on a medium finding or a failed criterion.

    `adopt` needs no high or medium finding and every criterion passed. Reasons name the rule and
    the first place it fired, or the criterion and its evidence.
    """
    high: dict[str, Finding] = {}
    medium: dict[str, Finding] = {}
    for finding in findings:
        if finding.severity == "high":
            high.setdefault(finding.rule, finding)
        elif finding.severity == "medium":
            medium.setdefault(finding.rule, finding)
    failed = [f"{name}: {c.evidence}" for name, c in criteria.items() if not c.passed]
    if high:
        return "reject", [_reason(f) for f in high.values()]
    if medium or failed:
        return "review", [_reason(f) for f in medium.values()] + failed
    return "adopt", ["no trust findings; every adoption criterion passed"]


def _reason(finding: Finding) -> str:
    return (
        f"{finding.rule} ({finding.severity}) at {finding.file}:{finding.line}: {finding.message}"
    )
