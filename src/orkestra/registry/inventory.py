"""Levels 2-3 of the CLI: what exists (lists) and everything about one entry (info).

Every function returns plain dicts/lists with a fixed key order, documented in docs/cli.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from orkestra.core.choices import choices, values
from orkestra.core.errors import NotFound, UsageError
from orkestra.registry.registry import Registry, SkillEntry
from orkestra.registry.unloaded import hiding

#: a list filter's value(s): one, a comma-separated string or several (any of them is kept)
Filter = str | Iterable[str] | None


def _lookup(reg: Registry, kind: str, name: str, known: Iterable[str]) -> None:
    """Raise `NotFound` unless `name` is known; when a registry file that may hold it failed to
    load, the error points at that file rather than only at the names that did load."""
    names = list(known)
    if name in names:
        return
    from orkestra.registry.references import closest

    close = closest(name, names)
    hint = (
        f"; did you mean {', '.join(close)}?" if close else f"; `orkestra {kind}s list` shows them"
    )
    failed = hiding(reg, kind, name)
    if failed is None:
        raise NotFound(f"no {kind} named '{name}'{hint}")
    raise NotFound.maybe_in(f"no {kind} named '{name}'{hint}", failed, "orkestra validate")


# --- agents ------------------------------------------------------------------------------------


def agents_list(reg: Registry) -> list[dict[str, Any]]:
    """One row per agent: name, description, category, role, model, status, skill count."""
    return [
        {
            "name": a.name,
            "description": a.description,
            "category": a.category,
            "role": a.role,
            "model": a.model,
            "status": a.status,
            "skills": len(reg.agent_skills(a)),
            "path": reg.loc("agent", a.name).file,
        }
        for a in sorted(reg.agents.values(), key=lambda a: a.name)
    ]


def agent_info(reg: Registry, name: str) -> dict[str, Any]:
    """The resolved view of an agent: characters, domains, full tool list, skills with origins,
    and its file for each configured client with what is there now (`agent_outputs`)."""
    from orkestra.registry.agent_outputs import agent_outputs

    _lookup(reg, "agent", name, reg.agents)
    agent = reg.agents[name]
    loc = reg.loc("agent", name)
    domains = []
    for ref in agent.domains:
        domain = reg.domains.get(ref)
        domains.append(
            {
                "name": ref,
                "folder": domain.folder if domain else None,
                "files": list(domain.files) if domain else [],
            }
        )
    skills = [
        {
            "name": skill,
            "from": origins,
            "layer": reg.skills[skill].layer if skill in reg.skills else None,
            "description": reg.skills[skill].description if skill in reg.skills else None,
            "exists": skill in reg.skills,
        }
        for skill, origins in reg.skill_origins(agent).items()
    ]
    tools = agent.all_tools()
    return {
        "name": agent.name,
        "description": agent.description,
        "category": agent.category,
        "role": agent.role,
        "model": agent.model,
        "color": agent.color,
        "status": agent.status,
        "replaced_by": agent.replaced_by,
        "identity": [{"name": i, "description": _desc(reg.identities, i)} for i in agent.identity],
        "mindset": agent.mindset
        and {"name": agent.mindset, "description": _desc(reg.mindsets, agent.mindset)},
        "style": agent.style
        and {"name": agent.style, "description": _desc(reg.styles, agent.style)},
        "values": [v.name for v in reg.values],
        "domains": domains,
        "scopes": list(agent.scopes),
        "tools": tools,
        "tool_guides": [t for t in tools if t in reg.tools.guides],
        "skills": skills,
        "outputs": agent_outputs(reg, agent),
        "path": loc.file,
        "line": loc.line or None,
    }


def _desc(table: dict[str, Any], name: str) -> str | None:
    item = table.get(name)
    return item.description if item is not None else None


# --- skills ------------------------------------------------------------------------------------


def _skill_row(reg: Registry, skill: SkillEntry, dormant: set[str]) -> dict[str, Any]:
    return {
        "name": skill.name,
        "description": skill.description,
        "layer": skill.layer,
        "type": skill.type or None,  # an imported skill may declare none
        "source": skill.source,
        "provider": skill.provider,
        "dormant": skill.name in dormant,
        "path": skill.loc.file,
    }


SKILL_LAYERS = ("K0", "K1", "K2", "K3", "K4")
SKILL_SOURCES = ("core", "vendor")


def skills_list(
    reg: Registry,
    *,
    layer: Filter = None,
    source: Filter = None,
    dormant: bool | None = None,
) -> list[dict[str, Any]]:
    """Skills, optionally filtered by layer (K0-K4), source (core|vendor) or dormancy; a filter
    keeps the skills with any of its values (`core.choices`)."""
    layers = choices("layer", layer, SKILL_LAYERS, shown="K0..K4")
    sources = choices("source", source, SKILL_SOURCES)
    asleep = set(reg.dormant_skills())
    rows = []
    for skill in sorted(reg.skills.values(), key=lambda s: (s.layer, s.name)):
        if (layers and skill.layer not in layers) or (sources and skill.source not in sources):
            continue
        if dormant is not None and (skill.name in asleep) != dormant:
            continue
        rows.append(_skill_row(reg, skill, asleep))
    return rows


def skill_info(reg: Registry, name: str) -> dict[str, Any]:
    """A skill with its tags, tools, scopes, sections, resources and the agents that load it."""
    _lookup(reg, "skill", name, reg.skills)
    skill = reg.skills[name]
    asleep = set(reg.dormant_skills())
    agents = sorted(a.name for a in reg.agents.values() if name in reg.skill_origins(a))
    sections = [s.title for s in skill.core.sections] if skill.core else []
    return {
        **_skill_row(reg, skill, asleep),
        "tier": skill.tier,
        "tags": list(skill.tags),
        "allowed_tools": list(skill.allowed_tools),
        "scopes": list(skill.scopes),
        "sections": sections,
        "resources": skill.folder,
        "agents": agents if skill.layer != "K0" else sorted(reg.agents),
        "line": skill.loc.line or None,
    }


# --- scopes ------------------------------------------------------------------------------------


def scopes_list(reg: Registry) -> list[dict[str, Any]]:
    """Scopes with their skill and agent counts; a scope no agent activates is dormant."""
    return [
        {
            "name": name,
            "description": scope.description,
            "skills": len(reg.scope_skills(name)),
            "agents": len(reg.scope_agents(name)),
            "dormant": not reg.scope_agents(name),
        }
        for name, scope in sorted(reg.scopes.items())
    ]


def scope_info(reg: Registry, name: str) -> dict[str, Any]:
    """A scope's skills (primary and self-declared) and the agents that activate it."""
    _lookup(reg, "scope", name, reg.scopes)
    scope = reg.scopes[name]
    loc = reg.loc("scope", name)
    primary = set(scope.primary_skills)
    return {
        "name": name,
        "description": scope.description,
        "dormant": not reg.scope_agents(name),
        "skills": [
            {
                "name": s,
                "via": "primary_skills" if s in primary else "skill.scopes",
                "exists": s in reg.skills,
            }
            for s in reg.scope_skills(name)
        ],
        "agents": reg.scope_agents(name),
        "path": loc.file,
        "line": loc.line or None,
    }


# --- truths ------------------------------------------------------------------------------------

TRUTH_STATUSES = ("current", "tentative", "deprecated")


def truths_list(reg: Registry, *, status: Filter = None) -> list[dict[str, Any]]:
    """Ground truths, optionally of some statuses (any of them, whatever their case)."""
    statuses = choices("status", status, TRUTH_STATUSES)
    return [
        {
            "id": t.id,
            "status": t.status,
            "scope": t.scope,
            "statement": t.statement,
            "tags": list(t.tags),
            "last_verified": t.last_verified,
            "path": reg.loc("truth", t.id).file,
        }
        for t in sorted(reg.truths.values(), key=lambda t: t.id)
        if not statuses or t.status in statuses
    ]


def truth_info(reg: Registry, truth_id: str) -> dict[str, Any]:
    """Everything about one ground truth, with its location."""
    _lookup(reg, "truth", truth_id, reg.truths)
    truth = reg.truths[truth_id]
    loc = reg.loc("truth", truth_id)
    return {**truth.model_dump(mode="json"), "path": loc.file, "line": loc.line or None}


# --- decisions ---------------------------------------------------------------------------------

DECISION_STATUSES = ("proposed", "active", "superseded", "deprecated")


def decisions_list(
    reg: Registry, *, status: Filter = None, domain: Filter = None
) -> list[dict[str, Any]]:
    """Decision records, newest first (by created date, then id); every match (a caller's
    limit cuts the list, not the total it reports). A filter keeps the records with any of its
    values (`core.choices`), a domain named whatever its case."""
    statuses = choices("status", status, DECISION_STATUSES)
    domains = {known_decision_domain(reg, name).casefold() for name in values(domain)}
    records = sorted(reg.decisions.values(), key=lambda d: (d.created, d.id), reverse=True)
    rows = [
        {
            "id": d.id,
            "title": d.title,
            "domain": d.domain,
            "status": d.status,
            "created": d.created,
            "path": reg.loc("decision", d.id).file,
        }
        for d in records
        if (not statuses or d.status in statuses)
        and (not domains or str(d.domain).casefold() in domains)
    ]
    return rows


def known_decision_domain(reg: Registry, domain: str) -> str:
    """A `--domain` filter (`decisions list`, `decisions search`) must name a domain of
    decisions/registry.yaml (or of a record), whatever its case: a typo or a two-letter code
    would otherwise list nothing, as if the domain had no records. Returns the domain as the
    registry spells it."""
    codes = reg.decisions_registry.domains
    known = [*codes, *(str(d.domain) for d in reg.decisions.values())]
    for name in known:
        if name.casefold() == domain.casefold():
            return name
    if not codes and hiding(reg, "decision domain", domain) is not None:
        return domain  # registry.yaml failed to load: its load error says why, the filter stands
    by_code = [name for name, code in codes.items() if code == domain.upper()]
    from orkestra.registry.references import closest

    close = by_code or closest(domain, codes)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    listed = ", ".join(f"{name} ({code})" for name, code in sorted(codes.items())) or "none"
    raise UsageError(
        f"unknown decision domain '{domain}'{hint} (registries/decisions/registry.yaml "
        f"knows: {listed})"
    )


def decision_info(reg: Registry, decision_id: str) -> dict[str, Any]:
    """Everything about one decision record, with its location."""
    _lookup(reg, "decision", decision_id, reg.decisions)
    record = reg.decisions[decision_id]
    loc = reg.loc("decision", decision_id)
    return {**record.model_dump(mode="json"), "path": loc.file, "line": loc.line or None}
