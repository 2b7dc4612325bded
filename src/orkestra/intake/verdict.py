"""Verdict policy: reject hostile content, review what a person should look at, adopt the rest."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
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
    findings = escalate(list(findings))
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


#: a held-for-review installer is rejected when the same skill also shows one of these, unlowered
_SIGNALS = frozenset({"prompt-injection", "obfuscation", "exfiltration", "persistence"})
_INSTALLER_RULES = frozenset({"remote-code-pipe", "download-then-run"})


def escalate(findings: list[Finding]) -> list[Finding]:
    """An official installer is review-level on its own; with another trust signal, a reject."""
    lowered = [
        f
        for f in findings
        if f.rule in _INSTALLER_RULES
        and f.severity == "medium"
        and "official installer" in f.reason
    ]
    others = [
        f
        for f in findings
        if f.category in _SIGNALS and f.severity != "low" and "lowered" not in f.reason
    ]
    if not lowered or not others:
        return findings
    signal = others[0]
    out = []
    for finding in findings:
        if finding in lowered:
            finding = replace(
                finding,
                severity="high",
                reason=f"{finding.reason}; combined with {signal.rule} at "
                f"{signal.file}:{signal.line}: rejected",
            )
        out.append(finding)
    return out


def deciding(findings: Iterable[Finding], verdict: Verdict) -> list[str]:
    """The findings that decided the verdict, as `file:line: rule: excerpt` lines."""
    wanted = {"reject": "high", "review": "medium"}.get(verdict)
    chosen = [f for f in escalate(list(findings)) if f.severity == wanted]
    return [f.format() for f in chosen]


def _reason(finding: Finding) -> str:
    text = (
        f"{finding.rule} ({finding.severity}) at {finding.file}:{finding.line}: {finding.message}"
    )
    return f"{text} ({finding.reason})" if finding.reason else text
