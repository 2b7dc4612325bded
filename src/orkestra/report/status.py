"""Level 1: `orkestra system status` — is everything healthy, and how much is there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.core import jsonio
from orkestra.core.errors import InputError
from orkestra.registry.findings import Finding
from orkestra.registry.registry import Registry
from orkestra.registry.unloaded import causes_first
from orkestra.registry.validate import validate

NOTE_TYPES = ("glossary", "repos", "conventions", "decisions", "recipes", "gotchas")
#: errors listed in the report (the first ones, as `validate` prints them); the count has them all
MAX_SHOWN = 10


def _knowledge_counts(root: Path, folder: str) -> tuple[int, int]:
    base = root / folder
    notes = sum(1 for t in NOTE_TYPES for _ in (base / t).glob("*.md")) if base.is_dir() else 0
    claims = 0
    for path in sorted((base / "claims").glob("*.json")) if base.is_dir() else []:
        try:
            data = jsonio.read_json(path)
        except (OSError, InputError):  # counted by `notes check`, which reports the file
            continue
        insights = data.get("insights", []) if isinstance(data, dict) else []
        claims += len(insights) if isinstance(insights, list) else 0
    return notes, claims


def system_status(reg: Registry) -> dict[str, Any]:
    """Health and counts (§5 level 1): every kind's count at the top level (`.skills_total`),
    beside the nested sections: validation result, ledger coverage, last sync and drift."""
    from orkestra.codemap.summary import code_status
    from orkestra.mining.report import coverage

    report = validate(reg)
    vendor = sum(1 for s in reg.skills.values() if s.source == "vendor")
    notes, claims = _knowledge_counts(reg.root, reg.config.knowledge.path)
    return {
        "project": reg.config.project,
        "root": str(reg.root),
        "healthy": not report.errors,
        "agents": len(reg.agents),
        "skills_internal": len(reg.skills) - vendor,
        "skills_vendor": vendor,
        "skills_total": len(reg.skills),
        "dormant_skills": len(reg.dormant_skills()),
        "scopes": len(reg.scopes),
        "dormant_scopes": len(reg.dormant_scopes()),
        "commands": len(reg.commands),
        "truths": len(reg.truths),
        "decisions": len(reg.decisions),
        "domains": len(reg.domains),
        "notes": notes,
        "claims": claims,
        "validation": _validation(causes_first(reg, report.errors), len(report.warnings)),
        "ledger": coverage(reg),
        "render": render_status(reg, valid=not report.errors),
        "code_map": code_status(reg.root),
    }


def _validation(errors: list[Finding], warnings: int) -> dict[str, Any]:
    """The validation counts and what is wrong: the first errors with file and line, and the
    command that lists them all (an unhealthy project must say why, not only that it is)."""
    out: dict[str, Any] = {
        "errors": len(errors),
        "warnings": warnings,
        "findings": [f.to_dict() for f in errors[:MAX_SHOWN]],
    }
    if errors:
        shown = "" if len(errors) <= MAX_SHOWN else f" (these are {MAX_SHOWN} of {len(errors)})"
        out["hint"] = f"fix these and run `orkestra validate`{shown}"
    return out


def render_status(reg: Registry, *, valid: bool) -> dict[str, Any]:
    """Last sync (the lock file's time) and drift: what `sync --check` would change now."""
    import datetime as dt

    from orkestra.core.errors import OrkestraError
    from orkestra.render import manifest
    from orkestra.render.sync import sync

    lock = reg.root / manifest.LOCK_PATH
    last = (
        dt.datetime.fromtimestamp(lock.stat().st_mtime, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        if lock.is_file()
        else None
    )
    if not valid:
        return {"last_sync": last, "drift": None, "reason": "validation errors: sync would refuse"}
    try:
        plan = sync(reg.root, mode="check", registry=reg).plan.to_dict()
    except OrkestraError as exc:  # what sync would stop on, and where (as its error names it)
        where = {"file": exc.file, "line": exc.line}
        return {"last_sync": last, "drift": None, "reason": exc.message, **where}
    changes = {k: len(plan[k]) for k in ("created", "updated", "deleted", "conflicts")}
    return {"last_sync": last, "drift": any(changes.values()), **changes}
