"""The five adoption criteria of §9, each with its evidence."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from orkestra.intake.review import Review
from orkestra.intake.rules import RuleSet, Text
from orkestra.intake.spec import SpecResult
from orkestra.registry.models.common import NAME_RE
from orkestra.registry.models.skills import trigger_phrase

CRITERIA = ("fills_real_gap", "well_structured", "actively_maintained", "portable", "tested")
_USAGE = re.compile(
    r"(?:\bargparse\b|\bclick\b|\btyper\b|\bcommander\b|\byargs\b|--help\b|\busage:|"
    r"if __name__ == ['\"]__main__['\"]|\bgetopts\b|^\s*(?:\"\"\"|''')|^#\s+\w)",
    re.IGNORECASE | re.MULTILINE,
)
_EXAMPLE_HEADING = re.compile(
    r"^#{1,4}\s+(?:\S+\s+)?(?:examples?|usage|quick ?start)\b", re.I | re.M
)
_TEST_FILE = re.compile(
    r"(?:^|/)(?:tests?/|test_[^/]+$|[^/]+_test\.\w+$|[^/]+\.(?:test|spec)\.\w+$)"
)


@dataclass
class Criterion:
    """One adoption criterion: passed or not, and the evidence that decided it."""

    passed: bool
    evidence: str
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "evidence": self.evidence, **self.details}


@dataclass(frozen=True)
class Known:
    """An existing skill to compare a candidate with."""

    name: str
    description: str
    source: str
    provider: str | None = None


def fills_real_gap(
    name: str, description: str, known: list[Known], threshold: float, provider: str | None
) -> Criterion:
    """No existing skill is too similar (same name, or name + description similarity)."""
    from rapidfuzz import fuzz, process, utils

    others = [
        k for k in known if not (k.source == "vendor" and k.provider == provider and k.name == name)
    ]
    if not others:
        return Criterion(
            True, "no existing skills to compare with", {"closest": None, "similarity": 0.0}
        )
    for other in others:
        if other.name == name:
            return Criterion(
                False,
                f"a {other.source} skill named '{name}' already exists",
                {"closest": name, "similarity": 100.0},
            )
    query = f"{name.replace('-', ' ')} {description}"
    choices = [f"{k.name.replace('-', ' ')} {k.description}" for k in others]
    best = process.extractOne(
        query, choices, scorer=fuzz.token_sort_ratio, processor=utils.default_process
    )
    closest, score = others[best[2]].name, round(float(best[1]), 1)
    details = {"closest": closest, "similarity": score}
    if score >= threshold:
        return Criterion(False, f"too similar to '{closest}' ({score} >= {threshold})", details)
    return Criterion(
        True, f"closest existing skill is '{closest}' ({score} < {threshold})", details
    )


def well_structured(spec: SpecResult, rules: RuleSet) -> Criterion:
    """A valid SKILL.md per the spec, a registrable name and a description with triggers."""
    if not spec.valid:
        kind = "Claude Code extension keys" if spec.only_extension_keys else "spec errors"
        return Criterion(False, f"{kind}: {'; '.join(spec.errors)}")
    name = str(spec.meta.get("name", "")).strip()
    if not NAME_RE.match(name):
        return Criterion(
            False,
            f"name '{name}' is valid per spec but not ASCII a-z0-9-; Orkestra cannot register it",
        )
    description = str(spec.meta.get("description", ""))
    trigger = trigger_phrase(description)  # the same test as `validate` (ORK102)
    if trigger is None:
        return Criterion(False, "description has no trigger (say when to use it: 'Use when ...')")
    return Criterion(True, f"valid SKILL.md; description says when to use it ('{trigger}')")


def actively_maintained(state: bool | None, since: str, trust: str) -> Criterion:
    """Commits in the last months when in git; a vendor's declared trust lightens this check."""
    if state is True:
        return Criterion(True, f"commits since {since}")
    if state is None:
        if trust == "untrusted":
            return Criterion(
                False, "not in a git repository: no history, and the root is untrusted"
            )
        return Criterion(True, f"not in a git repository; accepted on declared trust '{trust}'")
    if trust == "vendor":
        return Criterion(True, f"no commits since {since}; accepted on declared trust 'vendor'")
    return Criterion(False, f"no commits since {since}")


def portable(review: Review, rules: RuleSet, display: str) -> Criterion:
    """No hard-coded absolute home paths or one machine's volume names."""
    hits: list[str] = []
    for text_file in review.texts:
        body: Text | None = None
        lowered = text_file.text.lower()
        for check in rules.portability:
            if not check.may_match(text_file.text, lowered):
                continue
            for match in check.pattern.finditer(text_file.text):
                body = body or Text(text_file.text)
                hits.append(
                    f"{display}{text_file.rel}:{body.line_no(match.start())}: {match.group(0)}"
                )
    if hits:
        more = f" (+{len(hits) - 3} more)" if len(hits) > 3 else ""
        return Criterion(False, "machine-specific paths: " + "; ".join(hits[:3]) + more)
    return Criterion(True, "no machine-specific absolute paths")


def tested(review: Review, spec: SpecResult) -> Criterion:
    """Evidence of use: examples, tests, or scripts that document their usage."""
    evidence: list[str] = []
    rels = [e.rel for e in review.entries]
    if any(r.startswith(("examples/", "example/")) for r in rels):
        evidence.append("examples/ folder")
    tests = [r for r in rels if _TEST_FILE.search(r)]
    if tests:
        evidence.append(f"tests ({tests[0]})")
    if _EXAMPLE_HEADING.search(spec.body):
        evidence.append("an Examples/Usage section in SKILL.md")
    elif "```" in spec.body:
        evidence.append("worked code examples in SKILL.md")
    documented = [t.rel for t in review.texts if t.kind == "script" and _USAGE.search(t.text)]
    if documented:
        evidence.append(f"scripts with usage ({documented[0]})")
    if evidence:
        return Criterion(True, ", ".join(evidence))
    return Criterion(False, "no examples, tests or documented scripts")
