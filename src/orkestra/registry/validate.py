"""Validation: every rule is a small function over the Registry that yields findings.

Errors make the registry unreadable, ambiguous or unsafe; quality gates are warnings
(`--strict` turns them into errors). Codes are listed once, in `findings.CODES`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from orkestra.core import gcpause
from orkestra.core.clock import today
from orkestra.registry.client_rules import (
    agents_md_size,
    client_mcp_refs,
    client_models,
    client_tools,
    unrendered_agents,
)
from orkestra.registry.evidence import split as evidence_target
from orkestra.registry.evidence import target as evidence_file
from orkestra.registry.findings import Finding, Report
from orkestra.registry.model_rules import target_models
from orkestra.registry.models.common import bidi_controls
from orkestra.registry.models.skills import REQUIRED_SECTIONS, SPEC_KEYS, trigger_phrase
from orkestra.registry.package_rules import package_patterns
from orkestra.registry.registry import Location, Registry, SkillEntry
from orkestra.registry.render_rules import (
    claude_md_target,
    lock_entries,
    managed_blocks,
    outputs_outside_knowledge,
    vendor_links,
)
from orkestra.registry.unloaded import hidden

if TYPE_CHECKING:
    from orkestra.registry.models import Agent

Rule = Callable[[Registry], Iterable[Finding]]


def _at(code: str, message: str, loc: Location) -> Finding:
    return Finding.make(code, message, loc.file, loc.line)


def _missing(
    reg: Registry,
    kind: str,
    names: Iterable[str],
    known: Collection[str],
    code: str,
    owner: str,
    loc: Location,
) -> Iterator[Finding]:
    """A finding per unknown name, at the line the name is written on, with the closest names
    (none for a name whose file failed to load: its load error is the finding)."""
    from orkestra.registry.references import LineFinder, hint

    for name in names:
        # a tool may carry a permission specifier: `Bash(git diff:*)` is registered as `Bash`
        if name not in known and name.split("(", 1)[0].strip() not in known:
            if hidden(reg, kind, name):
                continue
            line = LineFinder(reg.root).line(loc, name)
            message = f"{owner} refers to unknown {kind} '{name}'{hint(name, known, kind)}"
            yield Finding.make(code, message, loc.file, line)


def _repeated(
    reg: Registry, kind: str, key: str, names: Iterable[str], owner: str, loc: Location
) -> Iterator[Finding]:
    """ORK117 per name written again in the list under `key`, at the line of the repeat: the
    output would repeat it (an identity's guidance twice), and nothing would say why."""
    from orkestra.registry.references import LineFinder

    seen: set[str] = set()
    told: set[str] = set()
    for name in names:
        if name in seen and name not in told:
            told.add(name)
            line = LineFinder(reg.root).repeat_line(loc, key, name)
            message = (
                f"{owner} lists {kind} '{name}' more than once in `{key}`: remove the repeat "
                "(the output would repeat it)"
            )
            yield Finding.make("ORK117", message, loc.file, line)
        seen.add(name)


def agent_references(reg: Registry) -> Iterator[Finding]:
    """Every identity, mindset, style, scope, skill, tool, domain and agent an agent names exists."""
    tools = reg.tools.all_names()
    for agent in reg.agents.values():
        loc = reg.loc("agent", agent.name)
        owner = f"agent '{agent.name}'"
        yield from _missing(reg, "identity", agent.identity, reg.identities, "ORK020", owner, loc)
        yield from _missing(
            reg, "mindset", filter(None, [agent.mindset]), reg.mindsets, "ORK021", owner, loc
        )
        yield from _missing(
            reg, "style", filter(None, [agent.style]), reg.styles, "ORK022", owner, loc
        )
        yield from _missing(reg, "scope", agent.scopes, reg.scopes, "ORK023", owner, loc)
        yield from _missing(reg, "skill", agent.skills, reg.skills, "ORK024", owner, loc)
        yield from _missing(reg, "tool", agent.all_tools(), tools, "ORK025", owner, loc)
        yield from _missing(reg, "domain", agent.domains, reg.domains, "ORK026", owner, loc)
        for kind, key, names in (
            ("identity", "identity", agent.identity),
            ("domain", "domains", agent.domains),
            ("scope", "scopes", agent.scopes),
            ("skill", "skills", agent.skills),
            ("tool", "tools", agent.tools),
            ("tool", "mcp_tools", agent.mcp_tools),
        ):
            yield from _repeated(reg, kind, key, names, owner, loc)
        if agent.replaced_by:
            yield from _missing(reg, "agent", [agent.replaced_by], reg.agents, "ORK031", owner, loc)
        if agent.role != "orchestrator":
            for tool in agent.all_tools():
                if reg.is_agent_tool(tool.split("(", 1)[0].strip()):
                    yield _at(
                        "ORK042",
                        f"{owner} is a specialist but holds '{tool}'; orchestration is flat: "
                        "remove the tool or set `role: orchestrator`",
                        loc,
                    )
        yield from _agent_description(agent, loc)


def _agent_description(agent: Agent, loc: Location) -> Iterator[Finding]:
    if not agent.imported and ("\n" in agent.description.strip() or len(agent.description) > 1024):
        message = f"agent '{agent.name}' description should be one line under 1024 characters"
        yield _at("ORK108", message, loc)


def own_findings(agent: Agent, loc: Location) -> list[Finding]:
    """What an agent's description and prompt raise on their own (ORK108, ORK109), the only
    checks that read them: an edit to those fields alone changes no other finding."""
    what = f"agent '{agent.name}' description"
    return [*_agent_description(agent, loc), *_bidi(what, agent.description, loc)]


def scope_references(reg: Registry) -> Iterator[Finding]:
    """Scopes name existing skills; skills and vendor roots name existing scopes."""
    for name, scope in reg.scopes.items():
        loc = reg.loc("scope", name)
        yield from _missing(
            reg, "skill", scope.primary_skills, reg.skills, "ORK024", f"scope '{name}'", loc
        )
        owner = f"scope '{name}'"
        yield from _repeated(reg, "skill", "primary_skills", scope.primary_skills, owner, loc)
    for skill in reg.skills.values():
        yield from _missing(
            reg, "scope", skill.scopes, reg.scopes, "ORK023", f"skill '{skill.name}'", skill.loc
        )
        if skill.source == "core":
            owner = f"skill '{skill.name}'"
            yield from _repeated(reg, "scope", "scopes", skill.scopes, owner, skill.loc)
    tools = reg.tools.all_names()
    for skill in reg.skills.values():
        if skill.source == "core":
            owner = f"skill '{skill.name}'"
            yield from _missing(reg, "tool", skill.allowed_tools, tools, "ORK025", owner, skill.loc)
    for command in reg.commands.values():
        loc = reg.loc("command", command.name)
        owner = f"command '{command.name}'"
        yield from _missing(reg, "tool", command.allowed_tools, tools, "ORK025", owner, loc)


def skill_resources(reg: Registry) -> Iterator[Finding]:
    """A core skill's `resources` folder exists and stays inside the project."""
    for skill in reg.skills.values():
        if skill.source != "core" or not skill.folder:
            continue
        folder = (reg.root / skill.folder).resolve()
        if not folder.is_relative_to(reg.root.resolve()):
            yield _at("ORK045", f"skill '{skill.name}' resources leave the project", skill.loc)
        elif not folder.is_dir():
            yield _at(
                "ORK041",
                f"skill '{skill.name}' resources folder '{skill.folder}' does not exist",
                skill.loc,
            )


def skill_quality(reg: Registry) -> Iterator[Finding]:
    """Description limits and triggers, required sections, spec-only vendor frontmatter."""
    for skill in reg.skills.values():
        yield from _description_gates(skill)
        if skill.core is not None and skill.type in REQUIRED_SECTIONS and not skill.imported:
            titles = {s.title.strip().lower() for s in skill.core.sections}
            for required in REQUIRED_SECTIONS[skill.type]:
                if required.lower() not in titles:
                    yield _at(
                        "ORK103",
                        f"skill '{skill.name}' ({skill.type}) lacks the section '{required}'",
                        skill.loc,
                    )
        if skill.vendor is not None:
            extra = [k for k in skill.vendor.extension_keys() if k not in SPEC_KEYS]
            if extra:
                keys = ", ".join(extra)
                yield _at(
                    "ORK106", f"SKILL.md frontmatter keys outside the spec: {keys}", skill.loc
                )


def skill_own_findings(skill: SkillEntry) -> list[Finding]:
    """What a skill's description raises on its own (ORK044, ORK101, ORK102, ORK109), the only
    checks that read it: an edit to it alone changes no other finding."""
    what = f"skill '{skill.name}' description"
    return [*_description_gates(skill), *_bidi(what, skill.description, skill.loc)]


def _description_gates(skill: SkillEntry) -> Iterator[Finding]:
    size = len(skill.description)
    if size > 1024:
        yield _at(
            "ORK044",
            f"skill '{skill.name}' description is {size} characters (limit 1024)",
            skill.loc,
        )
    if skill.imported:
        return  # imported content is judged by the Agent Skills spec, not the authoring gates
    if size <= 1024 and not 50 <= size <= 400:
        yield _at(
            "ORK101",
            f"skill '{skill.name}' description is {size} characters (aim for 50-400)",
            skill.loc,
        )
    if trigger_phrase(skill.description) is None:
        yield _at(
            "ORK102",
            f"skill '{skill.name}' description has no trigger phrase ('Use when ...', 'Use for ...')",
            skill.loc,
        )


def truth_rules(reg: Registry) -> Iterator[Finding]:
    """superseded_by resolves, evidence exists, last_verified is fresh."""
    from orkestra.registry.references import LineFinder, hint

    finder = LineFinder(reg.root)
    limit = dt.timedelta(days=reg.config.truths.stale_after_days)
    now = today()
    for truth_id, truth in reg.truths.items():
        loc = reg.loc("truth", truth_id)
        successor = truth.superseded_by
        if successor and successor not in reg.truths and not hidden(reg, "truth", successor):
            yield Finding.make(
                "ORK027",
                f"truth {truth_id} superseded_by unknown truth {successor}"
                f"{hint(successor, reg.truths, 'truth')}",
                loc.file,
                finder.line(loc, successor, "superseded_by"),
            )
        for evidence in truth.evidence:
            path, _needle = evidence_target(evidence, reg.root)
            if not path.strip():  # '' or '#x' would name the project itself: nothing is checked
                yield _at(
                    "ORK105",
                    f"truth {truth_id} evidence '{evidence}' names no file (empty path)",
                    loc,
                )
            elif evidence_file(reg.root, path) is None:
                yield _at(
                    "ORK105",
                    f"truth {truth_id} evidence '{evidence}' does not exist in the project",
                    loc,
                )
        if truth.status != "deprecated" and truth.last_verified:
            age = now - dt.date.fromisoformat(truth.last_verified)
            if age > limit:
                yield _at("ORK104", f"truth {truth_id} last verified {age.days} days ago", loc)


def decision_rules(reg: Registry) -> Iterator[Finding]:
    """Domains and id codes are registered; related and superseded_by resolve."""
    from orkestra.registry.references import LineFinder, hint

    finder = LineFinder(reg.root)
    codes = reg.decisions_registry.domains
    for dec_id, record in reg.decisions.items():
        loc = reg.loc("decision", dec_id)
        code = dec_id.split("-")[1]
        if record.domain not in codes:
            if hidden(reg, "decision domain", record.domain):
                continue
            yield _at(
                "ORK029",
                f"decision {dec_id} domain '{record.domain}' is not in decisions/registry.yaml",
                loc,
            )
        elif codes[record.domain] != code:
            yield _at(
                "ORK029",
                f"decision {dec_id} uses code {code} but domain '{record.domain}' has code {codes[record.domain]}",
                loc,
            )
        refs = [("related", ref) for ref in record.related]
        if record.superseded_by:
            refs.append(("superseded_by", record.superseded_by))
        for key, ref in refs:
            if ref not in reg.decisions and not hidden(reg, "decision", ref):
                line = (
                    finder.list_line(loc, key, ref)
                    if key == "related"
                    else finder.line(loc, ref, key)
                )
                message = (
                    f"decision {dec_id} refers to unknown decision {ref}"
                    f"{hint(ref, reg.decisions, 'decision')}"
                )
                yield Finding.make("ORK028", message, loc.file, line)


def supersession_loops(reg: Registry) -> Iterator[Finding]:
    """A superseded_by (decisions, truths) or replaced_by (agents) chain ends at an entry that is
    not replaced; one that loops back leaves nothing current: an error once per loop, at its
    first entry, on the line its looping reference is written on."""
    from orkestra.registry.references import LineFinder

    finder = LineFinder(reg.root)
    chains: tuple[tuple[str, str, dict[str, str | None]], ...] = (
        ("decision", "superseded_by", {k: r.superseded_by for k, r in reg.decisions.items()}),
        ("truth", "superseded_by", {k: t.superseded_by for k, t in reg.truths.items()}),
        ("agent", "replaced_by", {k: a.replaced_by for k, a in reg.agents.items()}),
    )
    for kind, key, successor in chains:
        looped: set[str] = set()
        for start in sorted(successor):
            path: list[str] = []
            node: str | None = start
            while node is not None and node in successor and node not in path:
                path.append(node)
                node = successor[node]
            if node is None or node not in path or node in looped:
                continue
            loop = path[path.index(node) :]
            looped.update(loop)
            first = min(loop)
            loc = reg.loc(kind, first)
            nxt = successor[first] or first
            if len(loop) == 1:
                told = f"{kind} {first} has {key}: {first}, itself, so it is never current"
            else:
                at = loop.index(first)
                ring = " -> ".join([*loop[at:], *loop[:at], first])
                told = (
                    f"{kind} {first} has a {key} chain that loops back ({ring}), so none is current"
                )
            message = f"{told}: point {key} at the {kind} that replaces it, or remove it"
            yield Finding.make("ORK032", message, loc.file, finder.line(loc, nxt, key))


def vendor_roots(reg: Registry) -> Iterator[Finding]:
    """Vendor roots' default scopes exist."""
    for root in reg.config.vendor_roots:
        loc = reg.loc("config", "orkestra")
        owner = f"vendor root '{root.path}'"
        yield from _missing(reg, "scope", root.default_scopes, reg.scopes, "ORK023", owner, loc)


def _texts(reg: Registry) -> Iterator[tuple[str, str, Location]]:
    """(what, text, where) for every name, title and description a reader sees in a list."""
    for agent in reg.agents.values():
        loc = reg.loc("agent", agent.name)
        yield f"agent '{agent.name}' description", agent.description, loc
        yield f"agent '{agent.name}' category", agent.category, loc
    for skill in reg.skills.values():
        yield f"skill '{skill.name}' description", skill.description, skill.loc
    for command in reg.commands.values():
        loc = reg.loc("command", command.name)
        yield f"command '{command.name}' description", command.description, loc
    for kind, table in (
        ("identity", reg.identities),
        ("mindset", reg.mindsets),
        ("style", reg.styles),
    ):
        for name, item in table.items():
            yield f"{kind} '{name}' description", item.description, reg.loc(kind, name)
    for name, scope in reg.scopes.items():
        yield f"scope '{name}' description", scope.description, reg.loc("scope", name)
    values = Location("registries/values.yaml")
    for value in reg.values:
        yield f"value '{value.name}' name", value.name, values
    for dec_id, record in reg.decisions.items():
        yield f"decision {dec_id} title", record.title, reg.loc("decision", dec_id)
        yield f"decision {dec_id} summary", record.summary, reg.loc("decision", dec_id)
    for truth_id, truth in reg.truths.items():
        yield f"truth {truth_id} statement", truth.statement, reg.loc("truth", truth_id)


def bidi_text(reg: Registry) -> Iterator[Finding]:
    """Names, titles and descriptions hold no bidirectional controls (they can make the text
    display differently from what it says: a warning, §13)."""
    for what, text, loc in _texts(reg):
        yield from _bidi(what, text, loc)


def _bidi(what: str, text: str, loc: Location) -> Iterator[Finding]:
    found = bidi_controls(text)
    if found:
        yield _at(
            "ORK109",
            f"{what} holds bidirectional control character(s) {', '.join(found)}, which "
            "change how the text displays; remove them",
            loc,
        )


def hooks_config(reg: Registry) -> Iterator[Finding]:
    """orkestra.yaml says what the hooks' plain reader (`core.project.read_light`) can read for
    certain: a value it cannot (`commit: 1`, a block scalar) leaves the knowledge hooks off, and
    their log sends the user here. Only for a config that loaded (else its error says it)."""
    from orkestra.core.project import CONFIG, NotLight, read_light

    if any(f.file == CONFIG and f.severity == "error" for f in reg.findings):
        return
    try:
        read_light(reg.root)
    except NotLight as exc:
        message = (
            f"the hooks cannot read this for certain ({exc.message}), so the knowledge hooks "
            "stay off; write the value plainly (true/false, a whole number, a one-line string)"
        )
        yield Finding.make("ORK114", message, CONFIG, exc.line)


def ledger_rules(reg: Registry) -> Iterable[Finding]:
    """Ledger line checks that need no git (§6.6); an unreadable ledger is a finding naming it."""
    from orkestra.core.errors import InputError
    from orkestra.registry import ledger_check

    try:
        return list(ledger_check.findings(reg))
    except InputError as exc:
        file = exc.file or "registries/changelog"
        if Path(file).is_absolute() and Path(file).is_relative_to(reg.root):
            file = Path(file).relative_to(reg.root).as_posix()
        return [Finding.make("ORK001", exc.message, file, exc.line)]


#: the rules that read the loaded registry alone, and the input files it was loaded from (a
#: finding's line is looked up in its file: a registry file, or a vendor skill's SKILL.md; the
#: ledger's files): a sync's write changes none of their findings (a write into an input folder
#: leaves no record, `noop._after_write`)
REGISTRY_RULES: tuple[Rule, ...] = (
    agent_references,
    scope_references,
    skill_quality,
    decision_rules,
    supersession_loops,
    vendor_roots,
    bidi_text,
    hooks_config,
    ledger_rules,
    target_models,
    client_tools,
    client_models,
    client_mcp_refs,
    unrendered_agents,
)
#: the rules that read what lies beside the registry (the render lock, CLAUDE.md, AGENTS.md,
#: truth evidence, skills' resource folders, vendor roots' links, the tracked files): a sync's
#: write may change their findings
DISK_RULES: tuple[Rule, ...] = (
    skill_resources,
    truth_rules,
    lock_entries,
    claude_md_target,
    managed_blocks,
    outputs_outside_knowledge,
    vendor_links,
    package_patterns,
    agents_md_size,
)


def registry_findings(reg: Registry) -> frozenset[Finding]:
    """The load's findings and those of `REGISTRY_RULES`: they hold for this load whatever a
    sync writes."""
    found: set[Finding] = set(reg.findings)
    for rule in REGISTRY_RULES:
        found.update(rule(reg))
    return frozenset(found)


@gcpause.paused()
def validate(reg: Registry, known: frozenset[Finding] | None = None) -> Report:
    """Run every rule; return load findings plus rule findings, sorted and de-duplicated.
    `known`: `registry_findings(reg)` of this very load, taken before a write: then only the
    `DISK_RULES` run again."""
    found = set(registry_findings(reg) if known is None else known)
    for rule in DISK_RULES:
        found.update(rule(reg))
    return Report(tuple(sorted(found)))
