"""`orkestra sync`: validate, render every target in memory, diff with the disk, write changes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from orkestra.core import gcpause
from orkestra.core.errors import InputError, UsageError, ValidationFailed
from orkestra.registry.findings import Finding
from orkestra.registry.registry import Registry
from orkestra.render import manifest, writer
from orkestra.render.environment import Templates
from orkestra.render.plan import Output, RenderPlan
from orkestra.render.targets import mcp_config

Mode = Literal["write", "dry-run", "check"]
TargetRender = Callable[[Registry, Templates], Iterable[Output]]
KNOWN_TARGETS = ("claude", "agents-md", "codex", "cursor", "gemini", "copilot")


def _targets() -> dict[str, TargetRender]:
    from orkestra.render.targets import (
        agents_md,
        claude,
        codex,
        copilot,
        cursor,
        gemini,
        skills_shared,
    )

    modules = (claude, agents_md, codex, copilot, cursor, gemini, skills_shared)
    return {m.NAME: m.render for m in modules}


def _blocks_removed(reg: Registry, configured: list[str], rendered: set[str]) -> Iterator[Output]:
    """The instruction files of unconfigured targets with Orkestra's managed block taken out,
    and CLAUDE.md's block when the claude target or its `render.claude_md` is off (at the
    configured `render.claude_md_path` and at the default CLAUDE.md, which a block moved
    elsewhere left behind), unless a configured target renders that file (`rendered`:
    `render.claude_md_path` set to AGENTS.md keeps CLAUDE.md's block there, between the same
    markers)."""
    from orkestra.render.targets.shared import without_block

    for name, rel in stale_block_files(reg, configured).items():
        if rel not in rendered:
            out = without_block(reg, rel)
            if out is not None:
                yield replace(out, target=name.partition(":")[0], withdrawn=True)


def _own_blocks_removed(reg: Registry, target: str, rendered: set[str]) -> Iterator[Output]:
    """`_blocks_removed` of `target` alone (`sync --target`): the blocks a full sync takes out
    that are that target's own (CLAUDE.md's for claude), so both leave the same file. A file
    another configured target keeps its block in (`render.claude_md_path: AGENTS.md`) is
    not this run's to change: its render is not in `rendered`."""
    from orkestra.registry.render_lock import BLOCK_FILES

    configured: list[str] = list(dict.fromkeys(reg.config.targets))
    kept = {BLOCK_FILES[t] for t in configured if t in BLOCK_FILES}
    for out in _blocks_removed(reg, configured, rendered | kept):
        if out.target == target:
            yield out


def stale_block_files(reg: Registry, configured: list[str]) -> dict[str, str]:
    """Where a managed block of a target (or setting) no longer configured may be: target ->
    path (CLAUDE.md's as `claude:<path>`, two of them when the path was moved off CLAUDE.md)."""
    from orkestra.registry.render_lock import BLOCK_FILES, CLAUDE_MD

    found = {name: rel for name, rel in BLOCK_FILES.items() if name not in configured}
    render = reg.config.render
    on = "claude" in configured and render.claude_md
    for rel in dict.fromkeys([render.claude_md_path, CLAUDE_MD]):
        if not (on and rel == render.claude_md_path) and rel not in found.values():
            found[f"claude:{rel}"] = rel
    return found


def _rendered(reg: Registry, targets: list[str], target: str | None) -> tuple[list[str], set[str]]:
    """(what to render: `targets` plus the shared skills folder when a configured client needs
    it; what to prune: every known target on a full sync, so a target removed from orkestra.yaml
    loses its files, else the one chosen)."""
    from orkestra.render.targets import skills_shared

    shared = skills_shared.NAME
    readers = skills_shared.READERS
    configured = list(reg.config.targets)
    wants = skills_shared.needed(configured) and (target is None or target in readers)
    rendered = [*targets, shared] if wants else list(targets)
    if target is None:
        return rendered, {*KNOWN_TARGETS, shared}
    return rendered, {target, shared} if target in readers else {target}


@dataclass
class SyncReport:
    """What a sync did (or would do)."""

    mode: Mode
    targets: list[str]
    plan: RenderPlan
    written: int = 0
    warnings: int = 0
    skipped_targets: list[str] = field(default_factory=list)
    #: validation's findings before the render (what `validate` answers); not in `to_dict`
    findings: list[Finding] = field(default_factory=list)
    #: those of them a write cannot change (`validate.registry_findings`); not in `to_dict`
    known: frozenset[Finding] | None = None

    @property
    def ok(self) -> bool:
        """False when `--check` found drift or conflicts."""
        return not (self.mode == "check" and self.plan.has_changes())

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "mode": self.mode,
            "targets": self.targets,
            "skipped_targets": self.skipped_targets,
            "written": self.written,
            "warnings": self.warnings,
            **self.plan.to_dict(),
        }


def findings_of(reg: Registry, known: frozenset[Finding] | None = None) -> list[Finding]:
    """All validation findings (errors and warnings); `known`: those of the registry's own
    rules, taken already for this load (`validate.registry_findings`): not made again."""
    from orkestra.registry.validate import validate

    return list(validate(reg, known).findings)


def checked(reg: Registry, known: frozenset[Finding] | None = None) -> list[Finding]:
    """Every finding, all of them warnings: ValidationFailed is raised on any error (`known`:
    as `findings_of`)."""
    found = findings_of(reg, known)
    from orkestra.registry.unloaded import causes_first

    errors = causes_first(reg, sorted(f for f in found if f.severity == "error"))
    if errors:
        first = errors[0]
        raise ValidationFailed(
            f"sync refused: {len(errors)} validation error(s), first {first.code}: "
            f"{first.message}; run `orkestra validate` to see them all",
            file=first.file,
            line=first.line or None,
        )
    return found


def choose_targets(reg: Registry, target: str | None) -> tuple[list[str], list[str]]:
    """(targets to render, configured targets not implemented yet)."""
    available = _targets()
    if target is not None:
        if target not in KNOWN_TARGETS:
            raise UsageError(f"unknown target '{target}'; use one of: {', '.join(KNOWN_TARGETS)}")
        if target not in available:
            raise UsageError(
                f"target '{target}' is not implemented yet; available: {', '.join(available)}"
            )
        return [target], []
    configured = list(dict.fromkeys(reg.config.targets))
    return [t for t in configured if t in available], [t for t in configured if t not in available]


def render_outputs(reg: Registry, targets: list[str], templates: Templates) -> list[Output]:
    """Every output of the chosen targets; two outputs for one path is an error."""
    available = _targets()
    seen: dict[str, Output] = {}
    templates.shared = {}  # the targets compose each agent once between them (`Composer`)
    try:
        for name in targets:
            for out in _tagged(available[name](reg, templates), name):
                if out.path in seen:
                    raise InputError(
                        f"two rendered files want the path '{out.path}' "
                        f"(targets {seen[out.path].target} and {name}); rename one source",
                        file=out.path,
                    )
                seen[out.path] = out
    finally:
        templates.shared = None
    if manifest.LOCK_PATH in seen:
        raise InputError(
            f"a rendered file wants the render lock's path '{manifest.LOCK_PATH}'; rename it",
            file=manifest.LOCK_PATH,
        )
    return list(seen.values())


def owned_entries(reg: Registry) -> dict[str, manifest.Entry]:
    """The lock's entries sync may act on: those inside their target's output roots (the others
    are ignored here and reported by `validate`), and the files a sync killed during its renames
    put in place (`render.pending`), by the same rule."""
    from orkestra.registry.render_lock import entry_problem, linked_problems
    from orkestra.render import pending

    truths = [t.metadata.render.output for t in reg.truth_files.values()]
    protected = [reg.config.knowledge.path]
    entries, problems = manifest.problems(reg.root, truth_outputs=truths, protected=protected)
    problems.update(linked_problems(reg.root, entries, problems))
    owned = {rel: entry for rel, entry in entries.items() if rel not in problems}

    def allowed(rel: str, entry: manifest.Entry) -> bool:
        problem = entry_problem(rel, entry, truth_outputs=truths, protected=protected,
                                listed=entries)  # fmt: skip
        return problem is None

    return pending.adopt(reg.root, owned, allowed)


def _render_reusing(
    root: Path, reg: Registry, targets: list[str], kept: dict[str, Any] | None = None
) -> list[Output]:
    """`render_outputs`, reusing the text of every template render whose inputs are unchanged
    since the last sync (`render.reuse`); `kept` receives the agent renders (`Templates.kept`)."""
    from orkestra.render import helper, reuse
    from orkestra.render.template_paths import template_folders

    cache = reuse.open_cache(root, template_folders(root))
    try:
        templates = Templates(root, reuse=cache, fork=True)
        templates.kept = kept
        with helper.helped(templates):  # a helper forked in there ends there
            outputs = render_outputs(reg, targets, templates)
        cache.save()
    finally:
        cache.close()
    return outputs


def _tagged(outputs: Iterable[Output], target: str) -> Iterator[Output]:
    for out in outputs:
        yield out if out.target == target else replace(out, target=target)


def sync(
    root: Path,
    *,
    mode: Mode = "write",
    target: str | None = None,
    force: bool = False,
    registry: Registry | None = None,
    proven: Mapping[str, tuple[list[int], str]] | None = None,
    kept: dict[str, Any] | None = None,
    waiting: Callable[[], None] | None = None,
    vouched: Mapping[str, Any] | None = None,
) -> SyncReport:
    """Validate, render, diff and (in write mode) apply. Check/dry-run never write; a write
    holds the project's sync lock throughout (`render.exclusive`; `waiting` is called when it
    waits for another sync first). `proven`: identities with the sha256 of the bytes they hold,
    `vouched`: identities of folders that held no temporary file (`writer.plan`); `kept`
    receives the context of each agent render (`render.delta`)."""
    root = root.resolve()
    if mode != "write":
        return _sync(root, mode, target, force, registry, proven, kept, vouched)
    from orkestra.render import exclusive

    with exclusive.held(root, waiting):
        return _sync(root, mode, target, force, registry, proven, kept, vouched)


@gcpause.paused()
def _sync(
    root: Path,
    mode: Mode,
    target: str | None,
    force: bool,
    registry: Registry | None,
    proven: Mapping[str, tuple[list[int], str]] | None,
    kept: dict[str, Any] | None,
    vouched: Mapping[str, Any] | None,
) -> SyncReport:
    from orkestra.registry.loader import load
    from orkestra.registry.validate import registry_findings

    reg = registry if registry is not None else load(root)
    known = registry_findings(reg)
    found = checked(reg, known)
    targets, skipped = choose_targets(reg, target)
    if target is not None and mode == "write" and target not in reg.config.targets:
        raise UsageError(
            f"target '{target}' is not in the `targets` of registries/orkestra.yaml, so the next "
            "full sync would delete what this writes; add it there first (or preview it with "
            "--dry-run)"
        )
    rendered, pruned = _rendered(reg, targets, target)
    outputs = _render_reusing(root, reg, rendered, kept)
    servers_before = manifest.load_servers(root)
    configs = [*targets, *skipped]
    outputs.extend(mcp_config.outputs(reg, configs, servers_before))  # shared files, merged
    paths = {mcp_config.FILES[t].path for t in configs if t in mcp_config.FILES}
    if target is None:  # a target removed from orkestra.yaml leaves no block, no server behind
        outputs.extend(_blocks_removed(reg, [*targets, *skipped], {o.path for o in outputs}))
        gone = [t for t in mcp_config.FILES if t not in configs]
        outputs.extend(mcp_config.withdrawn(reg, gone, servers_before))
        paths |= {mcp_config.FILES[t].path for t in gone}
    else:  # the chosen target's own stale block (CLAUDE.md's, `render.claude_md` turned off)
        outputs.extend(_own_blocks_removed(reg, target, {o.path for o in outputs}))
    servers = {p: n for p, n in servers_before.items() if p not in paths}
    servers.update(mcp_config.managed(reg, configs, servers_before))
    owned = owned_entries(reg)
    new_owned = {p: e for p, e in owned.items() if e.target not in pruned}
    new_owned.update(
        {
            o.path: manifest.Entry(o.target, manifest.digest(o.data, link=o.link))
            for o in outputs
            if not o.shared
        }
    )
    # the targets an earlier version wrote that wait for their mark: a lock from before the
    # mark lists none (every target of its entries), and each sync renders some of them
    listed = manifest.load_unmarked(root)
    upgrading = listed if listed is not None else frozenset(e.target for e in owned.values())
    lock = manifest.dumps(new_owned, servers, upgrading - pruned - set(rendered))
    outputs.append(Output(manifest.LOCK_PATH, lock, target="lock"))
    plan = writer.plan(root, outputs, owned, pruned, proven=proven, vouched=vouched,
                       upgrading=upgrading)  # fmt: skip
    plan.unmarked_before = listed
    plan.lock_after = new_owned
    plan.lock_servers, plan.servers_before = servers, servers_before
    found = _as_written(found, plan)
    report = SyncReport(mode, targets, plan, warnings=len(found), skipped_targets=skipped,
                        findings=found, known=known)  # fmt: skip
    plan.blocking = _blocked_targets(plan, owned, targets, target)
    if mode == "write":
        report.written = writer.apply(root, plan, force=force)
    return report


def _as_written(found: list[Finding], plan: RenderPlan) -> list[Finding]:
    """`found` with ORK113 (AGENTS.md's size, the one finding made of an output's text) told
    for the AGENTS.md this plan writes: the run that takes the file over Codex's limit (or back
    under it) says so, not only the next one. A plan with conflicts writes nothing."""
    from orkestra.registry.client_rules import AGENTS_MD_SIZE, agents_md_finding
    from orkestra.registry.render_lock import BLOCK_FILES

    path = BLOCK_FILES["agents-md"]
    out = plan.outputs.get(path)
    if out is None or out.data is None or out.remove or plan.conflicts:
        return found
    if path not in plan.created and path not in plan.updated:
        return found
    new = agents_md_finding(len(out.data))
    kept = [f for f in found if f.code != AGENTS_MD_SIZE]
    return kept if new is None else sorted([*kept, new])


def _blocked_targets(
    plan: RenderPlan, owned: Mapping[str, manifest.Entry], targets: list[str], target: str | None
) -> str:
    """For a plan with conflicts, which target each conflicting file blocks (the shared skills
    folder blocks every client reading it), that nothing was written, and the `sync --target`
    that renders each target it does not block ("" without conflicts). The whole plan is
    refused (§4: every precondition is checked before the first write); a target alone is the
    user's choice to make."""
    from orkestra.registry.render_lock import SHARED_SKILLS
    from orkestra.render.targets import skills_shared

    if not plan.conflicts:
        return ""
    blocked: dict[str, list[str]] = {}
    for path in plan.conflicts:
        out = plan.outputs.get(path)
        name = out.target if out is not None else owned[path].target if path in owned else None
        readers = skills_shared.readers(targets) if name == SHARED_SKILLS else [name]
        for reader in readers:
            if reader is not None:
                blocked.setdefault(reader, []).append(path)
    free = [t for t in targets if t not in blocked] if target is None else []
    if not free:  # no other target to write: the message says all there is
        return ""
    said = "; ".join(f"{_listed(paths)} blocks target {name}" for name, paths in blocked.items())
    others = ", ".join(f"`orkestra sync --target {t}`" for t in free)
    return (
        f" ({said}; nothing was written for any target; to write the other targets now, "
        f"leaving these files alone: {others})"
    )


def _listed(paths: list[str]) -> str:
    more = f" and {len(paths) - 3} more" if len(paths) > 3 else ""
    return ", ".join(paths[:3]) + more
