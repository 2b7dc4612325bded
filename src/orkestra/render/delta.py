"""`sync` after an edit to agents' or skills' own text: their files and the lock rewritten,
nothing else read.

A full sync (`render.sync`) loads the whole registry, validates it, renders every output and
compares each with the disk: on a registry of thousands of entries that is over a second, however
small the edit. Most edits change an agent's description or prompt, which show in that agent's own
files (`claude.OWN_FIELDS`) and, for the description, in the rosters (below), and are checked by
rules that read nothing else (`validate.own_findings`), or a core skill's text:
the text above its sections and their bodies (`claude.SKILL_OWN_TEXT`), which its SKILL.md alone
shows and no rule reads (its section titles are checked, ORK103: they are not its own text), or
a core skill's description (`claude.SKILL_DESCRIPTION`), which its SKILL.md shows, each agent
that has the skill lists (a line of the agent's kept context), and only the skill's own checks
read (`validate.skill_own_findings`).

So a full sync of the claude target that leaves a record (`render.noop`) also keeps each
agent's template context in `CONTEXTS`, and the SKILL.md rendered from each core skill's file
(and where the same text goes in `.agents/skills/`), with its sha256 in the record. With the
other targets too (`SERVED`), it keeps how each of their agent files is made
(`targets.shared.keep_recipe`): its template's values (Codex: its TOML items), into which the
agent's description and composed prompt (`shared/prompt.md.j2`, rendered from the agent's
Claude context) are put; an agent whose file there holds something else in their place (an
imported file's own description) is never rendered on its own. The instruction block of
`agents-md`, `copilot` and `cursor` lists every agent's and active skill's description, and
CLAUDE.md's block every agent's: with one of them, the roster they are made of
(`targets.shared.roster`) and the files made of it are kept too, and a description edit renders
those files again from it (the user's files read now, their block replaced), the roster kept
anew. The one finding made of an output's text (ORK113, AGENTS.md's size) is made again with the
size written; one that would come or go takes the full sync. An agent whose skill list changed
is rendered from its kept context, its other targets' files too (their composed prompt, which
lists its skills, is made of that context). The next plain `sync` that is not a no-op takes
this path when, and only when:

- the record's key holds and, by the same stats, the files that changed are agent files whose
  contexts were kept or skill files whose SKILL.md was (and the folders holding them, whose
  names the walk proves unchanged); nothing appeared or went away, and the files the last write
  left still hold what it wrote;
- each such file, loaded as a full load loads it (`loader.entry_file`), raises no load finding,
  still defines the agent or skill kept, and differs from what the parse cache holds for its
  recorded identity in the own fields alone (the rest compared as parsed, in order; that entry
  may be the one another command's load replaced, `ParseCache.entry_for`); no finding of the
  last run, or of a `validate` run since while nothing it read changed after it, is about the
  file or quotes it, and an agent's own fields or a skill's description raise none now;
- at most `MAX_LISTING` agents list a skill whose line in their list now reads otherwise; each
  renders from its kept context, own fields included, unless a run since the contexts were kept
  changed its own fields (the record's stamp lists it as `edited`): that one is loaded as above
  and must be the recorded version (its findings, unchanged, are the recorded ones);
- the lock is the recorded one and reads back as `render_lock.dumps` writes it; no killed sync
  left writes pending; each output is still the file the lock records.

Then each agent's output is rendered from its kept context with the own fields replaced (and
the skill lines that changed), its other targets' files from their kept values with its
description and composed prompt now (a prompt over Copilot's limit: the full sync, which
reports it), each skill's SKILL.md from the skill as loaded (it reads nothing else), and they
and the lock (those hashes changed) go through the same plan and writer as a full sync (hand
edits found, temporary files, the pending record, the partial lock on a failure). An output
rendered to the text the lock records for it is not written; when none differs (the same data
in another YAML style, a comment), nothing is, and the answer is the full sync's no-op,
recorded with the stats of now. When a skill line changed, the kept contexts are written again
with it after the write, and the record names them; when they cannot be, nothing is recorded
(the next run finds the writes and takes the full sync). The answer, the records and the files
are what the full sync gives. In any other case, or any doubt, `sync` returns None and the
full sync runs.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import marshal
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from orkestra.core.clock import Reading
from orkestra.core.errors import OrkestraError

if TYPE_CHECKING:
    from orkestra.registry.registry import Registry
    from orkestra.render.environment import Templates
    from orkestra.render.plan import Output
    from orkestra.render.sync import SyncReport

#: the kept contexts (derived, like the records beside it)
CONTEXTS = ".orkestra/agent-contexts.bin"
#: bump when the kept contexts' layout or meaning changes
SCHEMA = 5
#: the targets whose files of an agent are all rendered here (with claude configured): each
#: other target's agent file is its template (Codex: its TOML) with the agent's description
#: and composed prompt put in
SERVED = ("claude", "agents-md", "codex", "copilot", "cursor", "gemini")
#: more changed files than this: the full sync (each one here is loaded and rendered on its own)
MAX_FILES = 8
#: more agents than this listing a skill whose description changed: the full sync (each one is
#: loaded and rendered on its own; a K0 skill is in every agent's list)
MAX_LISTING = 64
_CHANGES = ("created", "updated", "deleted", "conflicts")
AGENTS = "registries/agents/"
SKILLS = "registries/skills/"


def keep(
    root: Path, reg: Registry, report: SyncReport, kept: dict[str, Any]
) -> dict[str, Any] | None:
    """Before a full sync's record is saved: write the agent contexts it rendered with (and how
    the other targets' agent files are made of each agent's composed prompt) and the SKILL.md
    rendered from each core skill's file, and return what the record holds of them,
    `{"delta": {"sha256": …}}` (None when this path cannot serve the project: the claude target
    not configured, a target skipped, or nothing kept)."""
    from orkestra.render.targets import claude, shared

    targets = set(report.targets)
    if not targets <= set(SERVED) or report.skipped_targets:
        return None
    contexts = {path: item for path, item in kept.items() if type(item) is dict}
    if not contexts:  # the claude target not configured, or no agent rendered for it
        return None
    recipes: dict[str, list[list[Any]]] = {}
    for path, item in kept.items():
        if type(item) is list:  # [target, agent name, template, values]
            recipes.setdefault(item[1], []).append([item[0], path, item[2], item[3]])
    agents: dict[str, list[Any]] = {}
    for path, context in contexts.items():
        name = context.get("name")
        file = reg.loc("agent", name).file if isinstance(name, str) and name in reg.agents else ""
        if not (isinstance(name, str) and file.startswith(AGENTS) and own_file(file)):
            return None  # an agent this path could not find again: its skill list would go stale
        agents[file] = [path, context, recipes.get(name, [])]  # a None template: never alone
    skills = _skills(reg, report)
    blocks = _blocks(reg, report)
    if blocks is None:
        return None
    # an agent rendered for other targets but not for claude has no kept context: its skill
    # lines would not be found, so no skill's description is its own then
    unlisted = recipes.keys() - {context.get("name") for context in contexts.values()}
    payload = {"schema": SCHEMA, "template": claude.AGENT_TEMPLATE,
               "own": list(claude.OWN_FIELDS), "agents": agents,
               "skill_template": claude.SKILL_TEMPLATE, "skills": skills,
               "skill_description": not unlisted, "item_template": claude.SKILL_ITEM_TEMPLATE,
               "roster": shared.roster(reg) if blocks else None, "blocks": blocks}  # fmt: skip
    stamp = _write_contexts(root, payload)
    return None if stamp is None else {"delta": stamp}


def _skills(reg: Registry, report: SyncReport) -> dict[str, list[Any]]:
    """Each core skill file whose SKILL.md the sync rendered: [its path, the skill's name, the
    same SKILL.md's other paths (`.agents/skills/`, [target, path])]."""
    from orkestra.render.targets import claude, skills_shared

    shared = skills_shared.needed(report.targets)
    skills: dict[str, list[Any]] = {}
    for skill in reg.skills.values():
        path = f"{claude.SKILLS}/{skill.name}/SKILL.md"
        if skill.core is None or not own_file(skill.loc.file) or path not in report.plan.outputs:
            continue
        # the same text: rendered from the skill alone, wherever it goes (a path the lock
        # does not record for that target is refused by `sync`, as any output is)
        others = [[skills_shared.NAME, f"{skills_shared.BASE}/{skill.name}/SKILL.md"]]
        skills[skill.loc.file] = [path, skill.name, others if shared else []]
    return skills


def _blocks(reg: Registry, report: SyncReport) -> list[list[str]] | None:
    """The files the sync rendered that list every agent's or skill's description (the
    instruction block of `agents-md`, `copilot` and `cursor`, CLAUDE.md's block): [target,
    path] each; None when one is not among its outputs."""
    from orkestra.render.targets import claude

    blocks = [[target, path] for target, path in _block_paths().items() if target in report.targets]
    if claude.NAME in report.targets and reg.config.render.claude_md:
        blocks.append([claude.NAME, reg.config.render.claude_md_path])
    return blocks if all(path in report.plan.outputs for _, path in blocks) else None


def _block_paths() -> dict[str, str]:
    """Where each target's instruction block is (target -> path), CLAUDE.md's aside (its path
    is the project's setting)."""
    from orkestra.registry.render_lock import BLOCK_FILES, TARGET_FILES

    (rule,) = TARGET_FILES["cursor"]  # the rule is all Cursor's, the block files the user's
    return {**BLOCK_FILES, "cursor": rule}


def _write_contexts(root: Path, payload: dict[str, Any]) -> dict[str, str] | None:
    """Write the kept contexts; the stamp a record names them by, `{"sha256": …}` (None when
    they cannot be written)."""
    from orkestra.core import safewrite

    try:
        data = marshal.dumps(payload, 4)
        safewrite.write_file(root, CONTEXTS, data, durable=False)
    except (ValueError, OSError, OrkestraError):  # an object in a context; unwritable
        return None
    return {"sha256": hashlib.sha256(data).hexdigest()}


def own_file(rel: str) -> bool:
    """Whether `rel` may be the file of an agent whose context is kept
    (`registries/agents/<name>.yaml`, or `.yml`), or of a core skill
    (`registries/skills/<tier>/<name>.yaml`) whose SKILL.md is."""
    if not rel.endswith((".yaml", ".yml")):
        return False
    if rel.startswith(AGENTS):
        return "/" not in rel[len(AGENTS) :]
    return rel.startswith(SKILLS) and rel[len(SKILLS) :].count("/") == 1


def sync(root: Path, record: dict[str, Any], first: str) -> dict[str, Any] | None:
    """Plain `sync` after an edit to agents' own fields or core skills' own text or
    descriptions, as the full sync answers it; None when the full sync must run (see the
    module's rules). `first`: the first changed file the record's check met, looked at before
    the stats of every other file (an edit beyond its own text costs the full sync little)."""
    from orkestra.render import manifest, noop, pending, writer
    from orkestra.render.environment import Templates
    from orkestra.render.plan import Output

    stamp, result = record.get("delta"), record["result"]
    if not (_stamp_ok(stamp) and _settled(result)):
        return None
    if record["key"] != noop.key(root):
        return None
    kept = _contexts(root, stamp["sha256"])
    stale = set(stamp.get("edited", []))  # agents whose kept own fields an edit left behind
    if kept is None or not stale <= kept["agents"].keys():
        return None
    early = _own_edit(root, record["files"], kept, first)
    if early is None:
        return None
    start = Reading(root).seen()  # by the file clock
    found = noop.changes(root, record)
    if found is None or pending.exists(root):
        return None
    changed, now = found
    agents: dict[str, Any] = kept["agents"]
    skills: dict[str, Any] = kept["skills"]
    files = [rel for rel in changed if not noop.walked_folder(record, rel)]
    if (
        not files
        or len(files) > MAX_FILES
        or any(r not in agents and r not in skills for r in files)
    ):
        return None
    findings = _findings(root, record, now)
    if findings is None or any(_names(f, files) for f in findings):
        return None
    lock = _lock(root)
    if lock is None:
        return None
    before, servers, unmarked = lock
    templates = Templates(root)
    try:  # a template error: the full sync reports it (after validating everything first)
        rendered = _render(root, templates, record["files"], now, kept, files, stale, early)
    except OrkestraError:
        return None
    if rendered is None:
        return None
    made, contexts, roster = rendered
    top: dict[str, list[str]] = {}  # the names of the folders written into, before the write

    def save(written: Mapping[str, Output], validated: list[dict[str, Any]]) -> None:
        """Record the run (its contexts written first, when a skill line or the roster
        changed), unless they cannot be written: then the last record stays, and the next run
        finds the writes."""
        edited = {rel for rel in files if rel in agents}
        new = _new_stamp(root, stamp, kept, contexts, edited, roster)
        if new is not None:
            rendered_paths = set(result["unchanged"])
            noop.save_delta(root, record, start, now, written, rendered_paths, validated, new, top)

    entries = dict(before)  # the lock to write: each rendered output's new hash
    outputs: list[Output] = []
    for out in made:
        entry = entries.get(out.path)
        if out.shared:  # the user's file with Orkestra's block: proven by what was read
            if entry is not None:  # never in a lock a full sync wrote: not one known here
                return None
            if out.base != manifest.digest(out.data):
                outputs.append(out)
            continue
        if entry is None or entry.target != out.target:
            return None
        if entry.sha256 == manifest.digest(out.data):
            continue  # the same text (saved unchanged, another YAML style): nothing to write
        entries[out.path] = manifest.Entry(out.target, manifest.digest(out.data))
        outputs.append(out)
    after = _sized(findings, outputs)  # validate's, once the outputs are written
    if after is None:
        return None
    if not outputs:  # the full sync's no-op: its answer, recorded with the stats of now
        save({}, after)
        return {**result, "mode": "write"}
    folders = noop.listings_before(root, {"", *noop.ways(o.path for o in outputs)}, now, start)
    if folders is None:
        return None
    top.update(folders)
    written = sorted([*(o.path for o in outputs), manifest.LOCK_PATH])
    unchanged = [p for p in result["unchanged"] if p not in written]
    if len(unchanged) != len(result["unchanged"]) - len(written):
        return None
    lock_text = manifest.dumps(entries, servers, unmarked)
    outputs.append(Output(manifest.LOCK_PATH, lock_text, target="lock"))
    scanned = {o.path.rpartition("/")[0] for o in outputs if o.path != manifest.LOCK_PATH}
    plan = writer.plan(root, outputs, before, set(), scanned=scanned)
    if plan.created or plan.deleted or plan.conflicts or plan.updated != written:
        return None
    plan.lock_after, plan.lock_servers, plan.servers_before = entries, servers, servers
    plan.unmarked_before = unmarked  # a partial lock after a failure keeps the list
    count = writer.apply(root, plan)
    data = {**result, "mode": "write", "written": count, "created": [], "updated": written,
            "deleted": [], "unchanged": unchanged, "conflicts": [], "released": []}  # fmt: skip
    save(plan.outputs, after)
    return data


def _render(
    root: Path,
    templates: Templates,
    was: dict[str, Any],
    now: dict[str, Any],
    kept: dict[str, Any],
    files: list[str],
    stale: set[str],
    early: _Loads,
) -> tuple[list[Output], dict[str, dict[str, Any]], dict[str, Any] | None] | None:
    """The outputs of the edited `files` (each skill's SKILL.md and each agent's file), and of
    the agents that list an edited skill whose description changed, and of the roster (when a
    description it lists changed); with the kept context of each agent whose skill list now
    reads otherwise (rel -> context), and the roster now (None: none kept). None when anything about
    them is not as the module's rules need (`was`, `now`: each file's identity as recorded, the
    parse cache keeping those entries, and as stat'ed now). An agent rendered for its list alone
    is loaded only when it is one whose own fields a run since the contexts were kept changed
    (`stale`); the others' are the kept ones, their files the version they were kept from
    (`early`: the files loaded already)."""
    from orkestra.render.plan import Output
    from orkestra.render.targets.claude import skill_line

    agents: dict[str, Any] = kept["agents"]
    skills: dict[str, Any] = kept["skills"]
    made: list[Output] = []
    skill_files = [rel for rel in files if rel in skills]
    loaded = _loads(root, skill_files, was, early)
    lines: dict[str, str] = {}  # each edited skill's line in its agents' lists, as it reads now
    described: dict[str, dict[str, str]] = {"agents": {}, "skills": {}}  # name -> now
    for rel in skill_files:
        path, name, others = skills[rel]
        found = (loaded[rel], (was.get(rel), now.get(rel)))
        done = _render_skill(templates, path, name, kept, found)
        if done is None:
            return None
        made.append(done[0])
        made.extend(Output(other, done[0].data, target=target) for target, other in others)
        lines[name] = skill_line(templates, name, done[1], kept["item_template"])
        described["skills"][name] = done[1]
    contexts = _listing(agents, lines)
    if contexts is None or len(contexts) > MAX_LISTING:
        return None
    listed = sorted({*(r for r in files if r in agents), *contexts})
    loaded = _loads(root, [rel for rel in listed if rel in files or rel in stale], was, early)
    for rel in listed:
        path, context, recipes = agents[rel]
        if any(r[2] is None for r in recipes):  # a file not made of its template alone
            return None
        context = contexts.get(rel, context)
        if rel not in loaded:  # as kept: its own fields too
            text = templates.render(kept["template"], context)
            made.append(Output(path, text.encode("utf-8")))
            others = _other_targets(templates, context, recipes) if recipes else []
            if others is None:
                return None
            made.extend(others)  # their composed prompt lists its skills too
            continue
        found = (loaded[rel], (was.get(rel), now.get(rel)))
        own = _render_agent(templates, path, context, recipes, kept, found)
        if own is None:
            return None
        made.extend(own[0])
        described["agents"][context["name"]] = own[1]
    roster = kept["roster"]
    if roster is not None:
        roster = _described(roster, described)
        if roster is None:
            return None
        if roster != kept["roster"]:  # a description the blocks list changed
            made.extend(_block_files(root, templates, roster, kept["blocks"]))
    return made, contexts, roster


def _described(roster: dict[str, Any], now: dict[str, dict[str, str]]) -> dict[str, Any] | None:
    """The kept `roster` with the descriptions `now` of the agents and skills loaded (part ->
    name -> description); None when an agent is not listed in it (each is)."""
    if not now["agents"].keys() <= {item["name"] for item in roster["agents"]}:
        return None
    described = dict(roster)
    for part in ("agents", "skills"):
        put = now[part]
        described[part] = [
            {**item, "description": put[item["name"]]} if item["name"] in put else item
            for item in roster[part]
        ]
    return described


def _block_files(
    root: Path, templates: Templates, roster: dict[str, Any], blocks: list[list[str]]
) -> list[Output]:
    """The files made of the `roster` (`blocks`: [target, path] each), as their targets make
    them: the user's files with Orkestra's block in place (read now), Cursor's rule."""
    from orkestra.render.targets import agents_md, claude, copilot, cursor
    from orkestra.render.targets.shared import instructions

    made: dict[bool, str] = {}  # the instruction block, with and without its markers

    def block(markers: bool) -> str:
        if markers not in made:
            made[markers] = instructions(templates, roster, markers=markers)
        return made[markers]

    files: list[Output] = []
    for target, path in blocks:
        if target == agents_md.NAME:
            out = agents_md.block_file(root, block(True))
        elif target == copilot.NAME:
            out = copilot.block_file(root, block(True))
        elif target == cursor.NAME:
            out = cursor.rule(templates, block(False))
        else:
            out = claude.claude_md_file(root, path, templates, roster)
        files.append(dataclasses.replace(out, target=target))
    return files


def _own_edit(root: Path, was: dict[str, Any], kept: dict[str, Any], rel: str) -> _Loads | None:
    """`rel` loaded as `_render` loads it (`loader.entry_files`), when it is a kept agent's or
    skill's file whose parsed data beyond its own text is still the recorded version's, as far
    as the parse cache tells (`_render` checks it all again, against the stats); None when it
    is not: the full sync, without the stats and the rest of this path first."""
    from orkestra.registry.loader import entry_files

    if rel not in kept["agents"] and rel not in kept["skills"]:
        return None
    rest = _beyond(kept, agent=rel in kept["agents"])
    try:
        loaded = entry_files(root, [rel], was)
    except OrkestraError:
        return None
    _reg, before, after = loaded[rel]
    if before is None or after is None:
        return None
    mine = rest(after[7])
    return loaded if mine is not None and rest(before[7]) == mine else None


def _loads(root: Path, rels: list[str], was: dict[str, Any], early: _Loads) -> _Loads:
    """`loader.entry_files` of `rels`, those loaded already (`early`) taken as they are."""
    from orkestra.registry.loader import entry_files

    rest = [rel for rel in rels if rel not in early]
    return {**{rel: early[rel] for rel in rels if rel in early},
            **(entry_files(root, rest, was) if rest else {})}  # fmt: skip


def _listing(agents: dict[str, Any], lines: dict[str, str]) -> dict[str, dict[str, Any]] | None:
    """The kept context of each agent whose skill list has a line of `lines` (skill name ->
    its line now) that reads otherwise, with its list as it reads now (rel -> context); None
    when a kept skill list is not a list beside one line each, or one listing a skill of
    `lines` is not a list of names."""
    contexts: dict[str, dict[str, Any]] = {}
    if not lines:
        return contexts
    for rel, (_path, context, _recipes) in agents.items():
        names, listed = context.get("skills"), context.get("skill_lines")
        if type(names) is not list or type(listed) is not list or len(names) != len(listed):
            return None
        try:
            if lines.keys().isdisjoint(names):  # the usual: no edited skill listed
                continue
        except TypeError:  # an unhashable name
            return None
        if not all(type(n) is str for n in names):
            return None
        now = [lines.get(n, line) for n, line in zip(names, listed, strict=True)]
        if now != listed:
            contexts[rel] = {**context, "skill_lines": now}
    return contexts


def _new_stamp(
    root: Path,
    stamp: dict[str, Any],
    kept: dict[str, Any],
    contexts: dict[str, dict[str, Any]],
    edited: set[str],
    roster: dict[str, Any] | None,
) -> dict[str, Any] | None:
    """The stamp of the kept contexts once `contexts` replace theirs and `roster` the kept
    one (the record's own, `stamp`, when none differs, else that of the contexts written
    again), listing the agents whose own fields changed since they were kept (`edited` now,
    and before); None when they cannot be written."""
    sha256, stale = stamp["sha256"], sorted({*stamp.get("edited", []), *edited})
    if contexts or roster != kept["roster"]:
        agents = {
            rel: [item[0], contexts.get(rel, item[1]), item[2]]
            for rel, item in kept["agents"].items()
        }
        written = _write_contexts(root, {**kept, "agents": agents, "roster": roster})
        if written is None:
            return None
        sha256 = written["sha256"]
    return {"sha256": sha256, "edited": stale} if stale else {"sha256": sha256}


def _stamp_ok(stamp: Any) -> TypeGuard[dict[str, Any]]:
    """A record's stamp of the kept contexts as `_new_stamp` makes it."""
    if not (isinstance(stamp, dict) and isinstance(stamp.get("sha256"), str)):
        return False
    edited = stamp.get("edited", [])
    return isinstance(edited, list) and all(isinstance(rel, str) for rel in edited)


def _names(finding: dict[str, Any], files: list[str]) -> bool:
    """True when `finding` is about one of `files`, or quotes one (`also defined at …`)."""
    return finding["file"] in files or any(rel in finding["message"] for rel in files)


def _sized(findings: list[dict[str, Any]], outputs: list[Output]) -> list[dict[str, Any]] | None:
    """`findings` once `outputs` are written: ORK113 tells AGENTS.md's size (the only finding
    made of an output's text). None when it would come or go: the count the answer gives
    changes, which the full sync tells."""
    data = next((out.data for out in outputs if out.path == _block_paths()["agents-md"]), None)
    if data is None:
        return findings
    from orkestra.registry.client_rules import AGENTS_MD_SIZE, agents_md_finding
    from orkestra.render.noop import finding_records

    new = agents_md_finding(len(data))
    at = [i for i, finding in enumerate(findings) if finding["code"] == AGENTS_MD_SIZE]
    if len(at) != (new is not None):
        return None
    if new is None:
        return findings
    return [*findings[: at[0]], *finding_records([new]), *findings[at[0] + 1 :]]


def _settled(result: Any) -> bool:
    """The recorded answer says sync had nothing to change, and lists what it rendered."""
    return (
        isinstance(result, dict)
        and result.get("ok") is True
        and result.get("mode") in ("write", "check")
        and type(result.get("warnings")) is int
        and isinstance(result.get("unchanged"), list)
        and all(result.get(k) == [] for k in _CHANGES)
    )


def _contexts(root: Path, sha256: str) -> dict[str, Any] | None:
    """The kept contexts, when they are the ones the record names and well formed."""
    full = root / CONTEXTS
    try:  # never through a symlink planted there
        fd = os.open(full, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if hashlib.sha256(data).hexdigest() != sha256:
        return None
    try:
        kept = marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None
    if not (
        isinstance(kept, dict)
        and kept.get("schema") == SCHEMA
        and isinstance(kept.get("template"), str)
        and isinstance(kept.get("own"), list)
        and all(isinstance(f, str) for f in kept["own"])
        and isinstance(kept.get("agents"), dict)
        and all(_kept_agent(item) for item in kept["agents"].values())
        and isinstance(kept.get("skill_template"), str)
        and isinstance(kept.get("item_template"), str)
        and _kept_skills(kept.get("skills"))
        and type(kept.get("skill_description")) is bool
        and _kept_blocks(kept.get("roster"), kept.get("blocks"))
    ):
        return None
    return kept


def _kept_blocks(roster: Any, blocks: Any) -> bool:
    """The roster (`targets.shared.roster`) and the files made of it ([target, path] each) as
    `keep` writes them: no roster when there are none."""
    if roster is None:
        return type(blocks) is list and not blocks
    from orkestra.render.targets import claude

    fixed = _block_paths()

    def block(item: Any) -> bool:  # CLAUDE.md's path is the project's setting: held to its rules
        return _shaped(item, lambda target: target in (*fixed, claude.NAME), _is(str)) and (
            fixed[item[0]] == item[1] if item[0] in fixed else _output_path(item[1])
        )

    if type(blocks) is not list or not all(map(block, blocks)):
        return False
    keys = {"values": ("name", "statement"), "truths": ("path", "title"),
            "agents": ("name", "role", "description"), "skills": ("name", "description")}  # fmt: skip
    return (
        bool(blocks)
        and type(roster) is dict
        and roster.keys() == keys.keys()
        and all(
            type(roster[part]) is list and all(_record(item, fields) for item in roster[part])
            for part, fields in keys.items()
        )
    )


def _output_path(rel: str) -> bool:
    """`rel` may be a configured output path (§4): inside the project, outside `.git/`,
    `registries/`, `knowledge/` and `.orkestra/`, a markdown file (kept files are derived data:
    never trusted to widen what a sync touches)."""
    from orkestra.core import safewrite
    from orkestra.registry.render_lock import output_problem

    try:
        safewrite.check_relative(rel)
    except OrkestraError:
        return False
    return output_problem(rel) is None


def _record(item: Any, fields: tuple[str, ...]) -> bool:
    """`item` is a dict of `fields`, each a string."""
    return (
        type(item) is dict
        and tuple(item) == fields
        and all(type(value) is str for value in item.values())
    )


def _kept_agent(item: Any) -> bool:
    """One agent as `keep` writes it: [output path, context, recipes]."""
    return _shaped(item, _is(str), _is(dict), lambda r: type(r) is list and all(map(_recipe, r)))


def _recipe(item: Any) -> bool:
    """[target served, output path, template (None: never rendered alone; "" for Codex's
    TOML), values] as `keep` writes one."""

    def served(target: Any) -> bool:
        return target in SERVED and target != "claude"

    def template(name: Any) -> bool:
        return name is None or type(name) is str

    return _shaped(item, served, _is(str), template, _is(dict))


def _kept_skills(skills: Any) -> bool:
    """The skills as `keep` writes them: path -> [SKILL.md's path, skill name, other paths: each
    [the shared skills target, path]]. Written out, not with `_shaped`: a large registry keeps
    thousands, and each is checked on every read."""
    from orkestra.render.targets import skills_shared

    shared = skills_shared.NAME
    return type(skills) is dict and all(
        type(item) is list
        and len(item) == 3
        and type(item[0]) is str
        and type(item[1]) is str
        and type(item[2]) is list
        and all(
            type(place) is list and len(place) == 2 and place[0] == shared and type(place[1]) is str
            for place in item[2]
        )
        for item in skills.values()
    )


def _is(kind: type) -> Callable[[Any], bool]:
    return lambda value: type(value) is kind


def _shaped(item: Any, *parts: Callable[[Any], bool]) -> bool:
    """`item` is a list of as many values as `parts`, each passing its own."""
    return (
        type(item) is list
        and len(item) == len(parts)
        and all(part(value) for part, value in zip(parts, item, strict=True))
    )


def _findings(
    root: Path, record: dict[str, Any], now: dict[str, Any]
) -> list[dict[str, Any]] | None:
    """`validate`'s findings as the record's run left them (none when it counted no warning),
    or as a `validate` run since left them while nothing it read changed after (the identities
    `now`): as many as the record counted; None when they are not known. A finding about an
    edited file then is there still (the caller refuses it), or is gone and the count differs."""
    from orkestra.render import noop

    count = record["result"]["warnings"]
    if count == 0:
        return []
    found = noop.recorded_findings(root, record, now)
    return found if found is not None and len(found) == count else None


def _lock(
    root: Path,
) -> tuple[dict[str, Any], dict[str, dict[str, str]], frozenset[str] | None] | None:
    """(entries, MCP servers, targets waiting for their mark) of the lock, when it reads back as
    `dumps` writes them."""
    from orkestra.core import jsonio
    from orkestra.core.errors import InputError
    from orkestra.render import manifest

    try:
        text = jsonio.read_text(root / manifest.LOCK_PATH, follow=False)
        entries, servers = manifest.load(root), manifest.load_servers(root)
        unmarked = manifest.load_unmarked(root)
    except (OSError, InputError):
        return None
    if manifest.dumps(entries, servers, unmarked) != text.encode("utf-8"):
        return None
    return entries, servers, unmarked


#: a file as `loader.entry_file` loaded it, with its identities (as recorded, as stat'ed)
_Found = tuple[tuple["Registry", Any, Any], tuple[Any, Any]]
#: files as `loader.entry_files` loads them: path -> (registry, entry before, entry after)
_Loads = dict[str, tuple["Registry", Any, Any]]


def _loaded(found: _Found, rest: Callable[[Any], str | None]) -> Registry | None:
    """The registry a file makes on its own (`found`), when it loads without a finding, its
    parse cache entry before is the recorded version, stored once the file had settled, the
    one after is the version stat'ed, and the two differ in the file's own text alone (`rest`:
    the parsed data beyond it, as text; None when it cannot tell)."""
    from orkestra.registry.cache import vouched

    (reg, before, after), stats = found
    if reg.findings or before is None or after is None:
        return None
    if before[:5] != stats[0] or after[:5] != stats[1]:  # the recorded version, and the one stat'ed
        return None
    if not vouched(before):  # stored within a tick of its change: another content may share it
        return None
    kept = rest(before[7])
    return reg if kept is not None and kept == rest(after[7]) else None


def _render_agent(
    templates: Templates,
    path: str,
    context: dict[str, Any],
    recipes: list[list[Any]],
    kept: dict[str, Any],
    found: _Found,
) -> tuple[list[Output], str] | None:
    """An agent file's output at `path`, rendered from its kept `context` with its own fields
    as the file holds them now (`found`), and its files of the other targets (`recipes`) with
    its description and composed prompt now; with that description. None when anything else
    about it changed, or its own fields raise a finding."""
    from orkestra.registry.validate import own_findings
    from orkestra.render.plan import Output
    from orkestra.render.targets.claude import own_context

    reg = _loaded(found, _beyond(kept, agent=True))
    if reg is None or list(reg.agents) != [context.get("name")]:  # the agent kept, by its name
        return None
    (agent,) = reg.agents.values()
    if own_findings(agent, reg.loc("agent", agent.name)):
        return None
    values = {**context, **own_context(agent)}
    text = templates.render(kept["template"], values)
    made = [Output(path, text.encode("utf-8"))]
    if recipes:
        others = _other_targets(templates, values, recipes)
        if others is None:
            return None
        made.extend(others)
    return made, agent.description


def _other_targets(
    templates: Templates, values: dict[str, Any], recipes: list[list[Any]]
) -> list[Output] | None:
    """The agent's files of the other targets, made as each target makes them of the agent's
    Claude context `values` (its own fields as they are now): the composed prompt, then each
    file's kept values with the description and that prompt put in. None when Copilot's file
    would be over its limit (the full sync reports that)."""
    from orkestra.render.plan import Output
    from orkestra.render.targets import codex, copilot
    from orkestra.render.targets.shared import PROMPT_TEMPLATE

    prompt = templates.render(PROMPT_TEMPLATE, values, part=True)
    description = values["description"]
    made: list[Output] = []
    for target, path, template, kept in recipes:
        if target == codex.NAME:
            items = {**kept, "description": description, "developer_instructions": prompt}
            text = codex.document(items)
        else:
            if target == copilot.NAME and len(prompt) > copilot.BODY_LIMIT:
                return None
            put = {**kept, "description": description, "prompt": prompt.rstrip("\n")}
            text = templates.render(template, put)
        made.append(Output(path, text.encode("utf-8"), target=target))
    return made


def _render_skill(
    templates: Templates, path: str, name: str, kept: dict[str, Any], found: _Found
) -> tuple[Output, str] | None:
    """A core skill file's SKILL.md at `path`, rendered from the skill as the file holds it
    now (`found`; the context reads the skill alone), and its description now; None when
    anything but its own text and description changed, or its description raises a finding."""
    from orkestra.registry.validate import skill_own_findings
    from orkestra.render.plan import Output
    from orkestra.render.targets.claude import skill_context

    reg = _loaded(found, _beyond(kept, agent=False))
    if reg is None or list(reg.skills) != [name]:
        return None
    skill = reg.skills[name]
    if skill_own_findings(skill):
        return None
    text = templates.render(kept["skill_template"], skill_context(skill))
    return Output(path, text.encode("utf-8")), skill.description


def _beyond(kept: dict[str, Any], *, agent: bool) -> Callable[[Any], str | None]:
    """How a kept agent's (`agent`) or skill's file is compared beyond its own text, as the
    kept contexts say what is its own (`own`; `skill_description`)."""
    own, described = set(kept["own"]), kept["skill_description"]
    return (lambda raw: _rest(raw, own)) if agent else (lambda raw: _skill_rest(raw, described))


def _rest(raw: Any, own: set[str]) -> str | None:
    """An agent file's parsed data beyond its own fields, as text (keys in their order)."""
    if not isinstance(raw, dict):
        return None
    try:
        return json.dumps({k: v for k, v in raw.items() if k not in own}, ensure_ascii=False)
    except (TypeError, ValueError):
        return None


def _skill_rest(raw: Any, described: bool = True) -> str | None:
    """A skill file's parsed data beyond its own text (`claude.SKILL_OWN_TEXT`: `intro` and
    each section's `body`) and, when `described`, its description (`claude.SKILL_DESCRIPTION`;
    not when an instruction block lists every description), as text (keys in their order, each
    section's title kept)."""
    from orkestra.render.targets.claude import SKILL_DESCRIPTION, SKILL_OWN_TEXT

    intro, body = SKILL_OWN_TEXT
    holder, description = SKILL_DESCRIPTION
    if not isinstance(raw, dict):
        return None
    sections = raw.get("sections", [])
    if not isinstance(sections, list) or not all(isinstance(s, dict) for s in sections):
        return None
    rest: list[Any] = []
    for key, value in raw.items():
        if key == intro:
            continue
        if key == "sections":
            rest.append([key, [{k: v for k, v in s.items() if k != body} for s in sections]])
        elif key == holder and isinstance(value, dict) and described:
            rest.append([key, {k: v for k, v in value.items() if k != description}])
        else:
            rest.append([key, value])
    try:
        return json.dumps(rest, ensure_ascii=False)
    except (TypeError, ValueError):
        return None
