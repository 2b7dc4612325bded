"""Depth level 1-5: how much a skill brings beyond a bare SKILL.md (§9)."""

from __future__ import annotations

from typing import Any

from orkestra.intake.review import Review
from orkestra.intake.rules import RuleSet
from orkestra.registry.models.skills import trigger_phrase

SIGNALS = ("strong_description", "references", "scripts", "assets")
_ASSET_DIRS = ("assets/", "examples/", "example/", "templates/", "template/")


def depth(review: Review, description: str, rules: RuleSet) -> dict[str, Any]:
    """Level = 1 (SKILL.md) + one per signal: strong description, references/, scripts/, assets."""
    minimum = int(rules.criteria.get("description_min", 50))
    rels = [e.rel for e in review.entries if e.kind == "file"]
    scripts = [t.rel for t in review.texts if t.kind == "script" and t.rel.startswith("scripts/")]
    signals = {
        "skill_md": True,
        "strong_description": len(description.strip()) >= minimum
        and trigger_phrase(description) is not None,
        "references": any(r.startswith(("references/", "reference/")) for r in rels)
        or any(r.endswith(".md") and "/" not in r and r != "SKILL.md" for r in rels),
        "scripts": bool(scripts),
        "assets": any(r.startswith(_ASSET_DIRS) for r in rels),
    }
    level = 1 + sum(1 for name in SIGNALS if signals[name])
    return {"level": level, "signals": signals}
