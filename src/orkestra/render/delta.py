"""`sync` after an edit to agents' or skills' own text: their files and the lock rewritten,
nothing else read.

A full sync (`render.sync`) loads the whole registry, validates it, renders every output and
compares each with the disk: on a registry of thousands of entries that is over a second, however
small the edit. Most edits change an agent's description or prompt, which show in that agent's own
file alone (`claude.OWN_FIELDS`; the prompt alone when the CLAUDE.md roster lists descriptions)
and are checked by rules that read nothing else (`validate.own_findings`), or a core skill's text:
the text above its sections and their bodies (`claude.SKILL_OWN_TEXT`), which its SKILL.md alone
shows and no rule reads (its section titles are checked, ORK103: they are not its own text).

So a full sync of the claude target alone that leaves a record (`render.noop`) also keeps each
agent's template context in `CONTEXTS`, and the SKILL.md rendered from each core skill's file,
with its sha256 in the record. The next plain `sync` that is not a no-op takes this path when,
and only when:

- the record's key holds and, by the same stats, the files that changed are agent files whose
  contexts were kept or skill files whose SKILL.md was (and the folders holding them, whose
  names the walk proves unchanged); nothing appeared or went away, and the files the last write
  left still hold what it wrote;
- each such file, loaded as a full load loads it (`loader.entry_file`), raises no load finding,
  still defines the agent or skill kept, and differs from what the parse cache holds for its
  recorded identity in the own fields alone (the rest compared as parsed, in order); no finding
  of the last run is about the file or quotes it, and an agent's own fields raise none now;
- the lock is the recorded one and reads back as `render_lock.dumps` writes it; no killed sync
  left writes pending; each output is still the file the lock records.

Then each agent's output is rendered from its kept context with the own fields replaced, each
skill's SKILL.md from the skill as loaded (it reads nothing else), and they and the lock (those
hashes changed) go through the same plan and writer as a full sync (hand edits found, temporary
files, the pending record, the partial lock on a failure). An output rendered to the text the
lock records for it is not written; when none differs (the same data in another YAML style, a
comment), nothing is, and the answer is the full sync's no-op, recorded with the stats of now.
The answer, the records and the files are what the full sync gives. In any other case, or any doubt, `sync`
returns None and the full sync runs.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orkestra.core.errors import OrkestraError

if TYPE_CHECKING:
    from orkestra.registry.registry import Registry
    from orkestra.render.environment import Templates
    from orkestra.render.plan import Output
    from orkestra.render.sync import SyncReport

#: the kept contexts (derived, like the records beside it)
CONTEXTS = ".orkestra/agent-contexts.bin"
#: bump when the kept contexts' layout or meaning changes
SCHEMA = 2
#: more changed files than this: the full sync (each one here is loaded and rendered on its own)
MAX_FILES = 8
_CHANGES = ("created", "updated", "deleted", "conflicts")
AGENTS = "registries/agents/"
SKILLS = "registries/skills/"


def keep(
    root: Path, reg: Registry, report: SyncReport, kept: dict[str, dict[str, Any]]
) -> dict[str, Any] | None:
    """Before a full sync's record is saved: write the agent contexts it rendered with and the
    SKILL.md rendered from each core skill's file, and return what the record holds of them,
    `{"delta": {"sha256": …}}` (None when this path cannot serve the project: another target
    configured, or nothing kept)."""
    from orkestra.core import safewrite
    from orkestra.render.targets import claude

    if report.targets != [claude.NAME] or report.skipped_targets or not kept:
        return None
    agents: dict[str, list[Any]] = {}
    for path, context in kept.items():
        name = context.get("name")
        file = f"{AGENTS}{name}.yaml"
        if isinstance(name, str) and reg.loc("agent", name).file == file:
            agents[file] = [path, context]
    skills: dict[str, list[str]] = {}
    for skill in reg.skills.values():
        path = f"{claude.SKILLS}/{skill.name}/SKILL.md"
        if skill.core is not None and own_file(skill.loc.file) and path in report.plan.outputs:
            skills[skill.loc.file] = [path, skill.name]
    payload = {"schema": SCHEMA, "template": claude.AGENT_TEMPLATE,
               "own": list(claude.own_fields(reg)), "agents": agents,
               "skill_template": claude.SKILL_TEMPLATE, "skills": skills}  # fmt: skip
    try:
        data = marshal.dumps(payload, 4)
        safewrite.write_file(root, CONTEXTS, data, durable=False)
    except (ValueError, OSError, OrkestraError):  # an object in a context; unwritable
        return None
    return {"delta": {"sha256": hashlib.sha256(data).hexdigest()}}


def own_file(rel: str) -> bool:
    """Whether `rel` may be the file of an agent whose context is kept, or of a core skill
    (`registries/skills/<tier>/<name>.yaml`) whose SKILL.md is."""
    if not rel.endswith(".yaml"):
        return False
    if rel.startswith(AGENTS):
        return "/" not in rel[len(AGENTS) :]
    return rel.startswith(SKILLS) and rel[len(SKILLS) :].count("/") == 1


def sync(root: Path, record: dict[str, Any]) -> dict[str, Any] | None:
    """Plain `sync` after an edit to agents' own fields, as the full sync answers it; None when
    the full sync must run (see the module's rules)."""
    from orkestra.render import manifest, noop, pending, writer
    from orkestra.render.environment import Templates
    from orkestra.render.plan import Output

    stamp, result = record.get("delta"), record["result"]
    if not (isinstance(stamp, dict) and isinstance(stamp.get("sha256"), str) and _settled(result)):
        return None
    if record["key"] != noop.key(root):
        return None
    start = time.time_ns()
    found = noop.changes(root, record)
    if found is None or os.path.lexists(root / pending.PATH):
        return None
    changed, now = found
    kept = _contexts(root, stamp["sha256"])
    if kept is None:
        return None
    agents: dict[str, Any] = kept["agents"]
    skills: dict[str, Any] = kept["skills"]
    files = [rel for rel in changed if not noop.walked_folder(record, rel)]
    if (
        not files
        or len(files) > MAX_FILES
        or any(r not in agents and r not in skills for r in files)
    ):
        return None
    findings = _findings(root, record)
    if findings is None or any(_names(f, files) for f in findings):
        return None
    lock = _lock(root)
    if lock is None:
        return None
    before, servers = lock
    entries = dict(before)  # the lock to write: each rendered output's new hash
    outputs: list[Output] = []
    templates = Templates(root)
    for rel in files:
        stats = (record["files"][rel], now[rel])
        try:  # a template error: the full sync reports it (after validating everything first)
            if rel in agents:
                path, context = agents[rel]
                out = _render_agent(root, templates, rel, path, context, kept, stats)
            else:
                path, name = skills[rel]
                out = _render_skill(root, templates, rel, path, name, kept, stats)
        except OrkestraError:
            return None
        entry = entries.get(path)
        if out is None or entry is None or entry.target != "claude":
            return None
        if entry.sha256 == manifest.digest(out.data):
            continue  # the same text (saved unchanged, another YAML style): nothing to write
        entries[path] = manifest.Entry("claude", manifest.digest(out.data))
        outputs.append(out)
    if not outputs:  # the full sync's no-op: its answer, recorded with the stats of now
        noop.save_delta(root, record, start, now, {}, set(result["unchanged"]), findings)
        return {**result, "mode": "write"}
    written = sorted([*(o.path for o in outputs), manifest.LOCK_PATH])
    unchanged = [p for p in result["unchanged"] if p not in written]
    if len(unchanged) != len(result["unchanged"]) - len(written):
        return None
    outputs.append(Output(manifest.LOCK_PATH, manifest.dumps(entries, servers), target="lock"))
    scanned = {o.path.rpartition("/")[0] for o in outputs if o.path != manifest.LOCK_PATH}
    plan = writer.plan(root, outputs, before, set(), scanned=scanned)
    if plan.created or plan.deleted or plan.conflicts or plan.updated != written:
        return None
    plan.lock_after, plan.lock_servers = entries, servers
    count = writer.apply(root, plan)
    data = {**result, "mode": "write", "written": count, "created": [], "updated": written,
            "deleted": [], "unchanged": unchanged, "conflicts": []}  # fmt: skip
    noop.save_delta(root, record, start, now, plan.outputs, set(result["unchanged"]), findings)
    return data


def _names(finding: dict[str, Any], files: list[str]) -> bool:
    """True when `finding` is about one of `files`, or quotes one (`also defined at …`)."""
    return finding["file"] in files or any(rel in finding["message"] for rel in files)


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
        and isinstance(kept.get("skills"), dict)
        and all(_kept_skill(item) for item in kept["skills"].values())
    ):
        return None
    return kept


def _kept_agent(item: Any) -> bool:
    """One agent as `keep` writes it: [output path, context]."""
    return type(item) is list and len(item) == 2 and type(item[0]) is str and type(item[1]) is dict


def _kept_skill(item: Any) -> bool:
    """One skill as `keep` writes it: [SKILL.md's path, skill name]."""
    return type(item) is list and len(item) == 2 and all(type(i) is str for i in item)


def _findings(root: Path, record: dict[str, Any]) -> list[dict[str, Any]] | None:
    """`validate`'s findings as the record's run left them (none when it counted no warning);
    None when they are not known."""
    from orkestra.render import noop

    count = record["result"]["warnings"]
    if count == 0:
        return []
    found = noop.recorded_findings(root, record)
    return found if found is not None and len(found) == count else None


def _lock(root: Path) -> tuple[dict[str, Any], dict[str, dict[str, str]]] | None:
    """(entries, MCP servers) of the lock, when it reads back as `dumps` writes them."""
    from orkestra.core import jsonio
    from orkestra.core.errors import InputError
    from orkestra.render import manifest

    try:
        text = jsonio.read_text(root / manifest.LOCK_PATH, follow=False)
        entries, servers = manifest.load(root), manifest.load_servers(root)
    except (OSError, InputError):
        return None
    if manifest.dumps(entries, servers) != text.encode("utf-8"):
        return None
    return entries, servers


def _loaded(
    root: Path, rel: str, stats: tuple[Any, Any], rest: Callable[[Any], str | None]
) -> Registry | None:
    """The registry file `rel` makes on its own, when it loads without a finding, its parse
    cache entry before is the recorded version (`stats[0]`), stored once the file had settled,
    the one after is the version stat'ed (`stats[1]`), and the two differ in the file's own
    text alone (`rest`: the parsed data beyond it, as text; None when it cannot tell)."""
    from orkestra.registry.cache import vouched
    from orkestra.registry.loader import entry_file

    reg, before, after = entry_file(root, rel)
    if reg.findings or before is None or after is None:
        return None
    if before[:5] != stats[0] or after[:5] != stats[1]:  # the recorded version, and the one stat'ed
        return None
    if not vouched(before):  # stored within a tick of its change: another content may share it
        return None
    kept = rest(before[7])
    return reg if kept is not None and kept == rest(after[7]) else None


def _render_agent(
    root: Path,
    templates: Templates,
    rel: str,
    path: str,
    context: dict[str, Any],
    kept: dict[str, Any],
    stats: tuple[Any, Any],
) -> Output | None:
    """Agent file `rel`'s output at `path`, rendered from its kept `context` with its own
    fields as the file holds them now; None when anything else about it changed."""
    from orkestra.registry.validate import own_findings
    from orkestra.render.plan import Output
    from orkestra.render.targets.claude import own_context

    own = set(kept["own"])
    reg = _loaded(root, rel, stats, lambda raw: _rest(raw, own))
    if reg is None or list(reg.agents) != [context.get("name")]:  # the agent kept, by its name
        return None
    (agent,) = reg.agents.values()
    if own_findings(agent, reg.loc("agent", agent.name)):
        return None
    values = {**context, **own_context(agent)}
    text = templates.render(kept["template"], values)
    return Output(path, text.encode("utf-8"))


def _render_skill(
    root: Path,
    templates: Templates,
    rel: str,
    path: str,
    name: str,
    kept: dict[str, Any],
    stats: tuple[Any, Any],
) -> Output | None:
    """Core skill file `rel`'s SKILL.md at `path`, rendered from the skill as the file holds it
    now (the context reads the skill alone); None when anything but its own text changed."""
    from orkestra.render.plan import Output
    from orkestra.render.targets.claude import skill_context

    reg = _loaded(root, rel, stats, _skill_rest)
    if reg is None or list(reg.skills) != [name]:
        return None
    text = templates.render(kept["skill_template"], skill_context(reg.skills[name]))
    return Output(path, text.encode("utf-8"))


def _rest(raw: Any, own: set[str]) -> str | None:
    """An agent file's parsed data beyond its own fields, as text (keys in their order)."""
    if not isinstance(raw, dict):
        return None
    try:
        return json.dumps({k: v for k, v in raw.items() if k not in own}, ensure_ascii=False)
    except (TypeError, ValueError):
        return None


def _skill_rest(raw: Any) -> str | None:
    """A skill file's parsed data beyond its own text (`claude.SKILL_OWN_TEXT`: `intro` and
    each section's `body`), as text (keys in their order, each section's title kept)."""
    from orkestra.render.targets.claude import SKILL_OWN_TEXT

    intro, body = SKILL_OWN_TEXT
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
        else:
            rest.append([key, value])
    try:
        return json.dumps(rest, ensure_ascii=False)
    except (TypeError, ValueError):
        return None
