"""`GROUND_TRUTHS.md` (§3.5): statements grouped by status, then by the registry's tag groups."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from orkestra.registry.models import TruthRegistry, TruthStatement
from orkestra.registry.registry import Registry
from orkestra.render.environment import Templates
from orkestra.render.plan import Output

_STATUS_TITLES = {"current": "Current", "tentative": "Tentative", "deprecated": "Deprecated"}


def truth_outputs(reg: Registry, templates: Templates) -> Iterator[Output]:
    """One file per configured output path; registries sharing a path are rendered together."""
    by_output: dict[str, list[tuple[str, TruthRegistry]]] = {}
    for file, registry in sorted(reg.truth_files.items()):
        by_output.setdefault(registry.metadata.render.output, []).append((file, registry))
    for output, items in sorted(by_output.items()):
        context = {
            "sources": [file for file, _ in items],
            "registries": [registry_context(r) for _, r in items],
        }
        text = templates.render("claude/ground_truths.md.j2", context)
        yield Output(output, text.encode("utf-8"))


def shown_statuses(registry: TruthRegistry) -> list[str]:
    """include_statuses in order, plus `deprecated` when show_deprecated (and only then)."""
    render = registry.metadata.render
    statuses: list[str] = [s for s in render.include_statuses if s != "deprecated"]
    if render.show_deprecated:
        statuses.append("deprecated")
    return statuses


def registry_context(registry: TruthRegistry) -> dict[str, Any]:
    meta = registry.metadata
    statuses = []
    for status in shown_statuses(registry):
        chosen = [s for s in registry.statements if s.status == status]
        groups = _groups(registry, chosen)
        if groups:
            statuses.append({"title": _STATUS_TITLES[status], "groups": groups})
    return {"title": meta.title, "summary": meta.summary, "statuses": statuses}


def _groups(registry: TruthRegistry, statements: list[TruthStatement]) -> list[dict[str, Any]]:
    """Each statement goes to the first group sharing a tag; the rest to `Other`."""
    configured = registry.metadata.render.groups
    buckets: list[list[dict[str, Any]]] = [[] for _ in configured]
    other: list[dict[str, Any]] = []
    for statement in sorted(statements, key=lambda s: s.id):
        tags = set(statement.tags)
        for index, group in enumerate(configured):
            if tags & set(group.tags):
                buckets[index].append(_statement(statement))
                break
        else:
            other.append(_statement(statement))
    out: list[dict[str, Any]] = [
        {"title": group.title, "truths": bucket}
        for group, bucket in zip(configured, buckets, strict=True)
        if bucket
    ]
    if other:
        out.append({"title": "Other" if configured else None, "truths": other})
    return out


def _statement(s: TruthStatement) -> dict[str, Any]:
    return {
        "id": s.id,
        "statement": s.statement,
        "rationale": s.rationale,
        "do": list(s.agent_guidance.do),
        "avoid": list(s.agent_guidance.avoid),
        "evidence": list(s.evidence),
        "superseded_by": s.superseded_by,
        "last_verified": s.last_verified,
    }
