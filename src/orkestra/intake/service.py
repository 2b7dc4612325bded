"""The two entry points the CLI calls: `intake` (evaluate, optionally apply) and `audit`."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from orkestra.core import yamlio
from orkestra.core.errors import InputError, NotFound, UsageError
from orkestra.intake import apply as applying
from orkestra.intake.criteria import Known
from orkestra.intake.evaluate import Candidate, Options, evaluate_tree, summary
from orkestra.intake.normalise import digest
from orkestra.intake.rules import RuleSet, default_rules
from orkestra.registry.models.common import LAYERS
from orkestra.registry.registry import Registry, SkillEntry


def known_skills(reg: Registry | None) -> list[Known]:
    """Every registered skill (core and vendor) to compare candidates with."""
    if reg is None:
        return []
    return [
        Known(s.name, s.description, s.source, s.provider)
        for s in sorted(reg.skills.values(), key=lambda s: s.name)
    ]


def resolve_options(
    reg: Registry | None,
    path: Path,
    *,
    provider: str | None,
    layer: str | None,
    scopes: tuple[str, ...],
    trust: str | None,
    today: dt.date,
) -> Options:
    """Options from the flags, defaulting to the configured vendor root holding `path`."""
    root = applying.find_root(reg, path) if reg is not None else None
    layer = layer or (root.layer if root else "K3")
    if layer not in LAYERS:
        raise UsageError(f"--layer must be one of {', '.join(LAYERS)}, not '{layer}'")
    trust = trust or (root.trust if root else "vendor")
    if trust not in ("vendor", "community", "untrusted"):
        raise UsageError(f"--trust must be vendor, community or untrusted, not '{trust}'")
    return Options(
        provider=provider or (root.provider if root else None),
        layer=layer,
        scopes=scopes,
        trust=trust,
        today=today,
    )


def intake(
    path: Path,
    reg: Registry | None,
    options: Options,
    *,
    apply: bool = False,
    rules: RuleSet | None = None,
) -> dict[str, Any]:
    """Evaluate every candidate below `path`; with `apply`, register the adopted ones.

    Nothing in the candidate folders is executed. Returns `{candidates, summary, applied}`.
    """
    base = reg.root if reg is not None else (path.parent if path.is_dir() else path.parent.parent)
    candidates = evaluate_tree(path, base, known_skills(reg), options, rules or default_rules())
    applied = None
    if apply:
        if reg is None:
            raise NotFound(
                "--apply needs a project (a folder with registries/); run `orkestra init`"
            )
        plan = applying.plan(reg, path, candidates, options)
        applying.write(reg.root, plan)
        applied = plan.to_dict()
    return {
        "candidates": [c.to_dict() for c in candidates],
        "summary": summary(candidates),
        "applied": applied,
    }


def audit(reg: Registry, today: dt.date, rules: RuleSet | None = None) -> dict[str, Any]:
    """Re-run the review over every vendor skill already registered; report drift since adoption."""
    rules = rules or default_rules()
    known = known_skills(reg)
    groups: dict[tuple[str, str | None], list[SkillEntry]] = {}
    for entry in sorted(reg.skills.values(), key=lambda s: s.name):
        if entry.source == "vendor" and entry.folder is not None:
            root_path = entry.vendor_root.path if entry.vendor_root else entry.folder
            groups.setdefault((root_path, entry.provider), []).append(entry)
    results: list[Candidate] = []
    drift: dict[str, bool | None] = {}
    for (root_path, provider), entries in groups.items():
        root = entries[0].vendor_root
        options = Options(
            provider=provider,
            layer=entries[0].layer,
            trust=root.trust if root else "vendor",
            today=today,
        )
        folders = [reg.root / str(e.folder) for e in entries]
        found = evaluate_tree(reg.root / root_path, reg.root, known, options, rules, folders)
        for candidate in found:
            recorded = _recorded_digest(reg, provider, candidate.name)
            current = digest(candidate.review.entries, 1 << 20)
            drift[candidate.name] = None if recorded is None else recorded != current
        results.extend(found)
    results.sort(key=lambda c: c.name)
    rows = []
    for candidate in results:
        row = candidate.to_dict()
        row["changed_since_adoption"] = drift.get(candidate.name)
        rows.append(row)
    return {"candidates": rows, "summary": summary(results)}


def _recorded_digest(reg: Registry, provider: str | None, name: str) -> str | None:
    path = reg.registries / "vendor" / f"{provider}.yaml"
    if provider is None or not path.is_file():
        return None
    try:
        data = yamlio.load_mapping(path)
    except InputError:  # a broken overlay adopts nothing; `orkestra validate` reports it
        return None
    skills = data.get("skills")
    item = skills.get(name) if isinstance(skills, dict) else None
    value = item.get("digest") if isinstance(item, dict) else None
    return value if isinstance(value, str) else None
