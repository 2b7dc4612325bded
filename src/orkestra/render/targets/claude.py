"""The Claude Code target (PRODUCT.md §4): agents, flat skills, commands, ground truths and the
optional CLAUDE.md managed block."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from orkestra.core.errors import InputError
from orkestra.core.filenames import VCS_DIRS, is_utf8, printable
from orkestra.registry import render_lock
from orkestra.registry.models import Agent, Command
from orkestra.registry.registry import Registry, SkillEntry
from orkestra.render.environment import Templates
from orkestra.render.plan import Output
from orkestra.render.resolve import SkillIndex
from orkestra.render.targets.shared import Composer, managed_file
from orkestra.render.text import frontmatter_lines, with_mark
from orkestra.render.truths import truth_outputs

NAME = "claude"
# the output roots are declared once, in the lock module (a lock entry outside them is ignored)
AGENTS, SKILLS, COMMANDS = (r.rstrip("/") for r in render_lock.TARGET_ROOTS[NAME])
BEGIN, END = render_lock.BEGIN, render_lock.END

#: frontmatter keys the agent template writes itself; extras with these names fill gaps only
_AGENT_KEYS = ("name", "description", "tools", "model", "color", "skills")
_DOMAIN_PURPOSE = {
    "decisions.md": "key choices and why they were made",
    "patterns.md": "how to do it right",
    "anti-patterns.md": "failure modes and their remedies",
    "evolution.md": "dated log of how it changed",
}
#: the agent fields its own files show, beside the rosters of every description (the
#: instruction block, CLAUDE.md's): an edit to these alone changes those (`render.delta`)
OWN_FIELDS = ("description", "prompt")
AGENT_TEMPLATE = "claude/agent.md.j2"
#: the block of CLAUDE.md (`render.claude_md_path`)
BLOCK_TEMPLATE = "claude/claude_md_block.md.j2"
SKILL_TEMPLATE = "claude/skill.md.j2"
#: a core skill's text that its own SKILL.md alone shows and no check reads (`render.delta`):
#: the text above its sections (`intro`) and each section's `body`; section titles are checked
#: (ORK103)
SKILL_OWN_TEXT = ("intro", "body")
#: where a core skill's file holds its description, which its SKILL.md shows, every agent that
#: has the skill lists (`skill_line`), and only its own checks read
#: (`validate.skill_own_findings`): `render.delta` renders those agents again
SKILL_DESCRIPTION = ("metadata", "description")
SKILL_ITEM_TEMPLATE = "claude/skill_item.md.j2"
_SAFE_KEY = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")


def render(reg: Registry, templates: Templates) -> Iterator[Output]:
    """Every output of the Claude Code target, in a stable order."""
    context = _Shared.of(reg, templates)
    index = context.index
    for agent in sorted(reg.agents.values(), key=lambda a: a.name):
        if not agent.rendered_for(NAME):
            continue  # its `clients` leave Claude Code out
        values = context.context(agent)
        path = f"{AGENTS}/{agent.name}.md"
        if templates.kept is not None:  # `render.delta` renders this agent again on its own
            templates.kept[path] = values
        text = templates.render(AGENT_TEMPLATE, values)
        yield Output(path, text.encode("utf-8"))
    for name in sorted(index.active()):
        yield from skill_outputs(reg, reg.skills[name], templates)
    for command in sorted(reg.commands.values(), key=lambda c: c.name):
        text = templates.render("claude/command.md.j2", command_context(command))
        yield Output(f"{COMMANDS}/{command.name}.md", text.encode("utf-8"))
    yield from truth_outputs(reg, templates)
    if reg.config.render.claude_md:
        yield claude_md(reg, templates)


class _Shared:
    """Per-registry lookups reused by every agent, and by every target of one render: each
    agent's context is made once (`context`), as is the composed prompt and the instruction
    block of the other targets (`targets.shared.Composer`)."""

    def __init__(self, reg: Registry, index: SkillIndex, templates: Templates) -> None:
        self.reg = reg
        self.index = index
        self.templates = templates
        self._skill_lines: dict[str, str] = {}
        #: agent name -> (the agent, its context); the agent object is checked on use
        self._contexts: dict[str, tuple[Agent, dict[str, Any]]] = {}
        #: the texts made of one context or one registry: (name, context id) -> (context, text)
        self._texts: dict[tuple[str, int], tuple[Any, str]] = {}
        #: what the rosters are made of (`targets.shared.roster`), once made
        self.roster: dict[str, Any] | None = None
        self.values = [{"name": v.name, "statement": v.statement} for v in reg.values]
        self.truths: dict[str, list[dict[str, str]]] = {}
        for file, truth_registry in sorted(reg.truth_files.items()):
            meta = truth_registry.metadata
            entry = {"path": meta.render.output, "title": meta.title}
            for key in {meta.owner, Path(file).stem}:
                self.truths.setdefault(key, []).append(entry)

    @classmethod
    def of(cls, reg: Registry, templates: Templates) -> _Shared:
        """The lookups of `reg`: those the targets of the current render share
        (`Templates.shared`, set by `render.sync.render_outputs`), else new ones."""
        memo = templates.shared
        found = None if memo is None else memo.get(NAME)
        if not isinstance(found, cls) or found.reg is not reg:
            found = cls(reg, SkillIndex(reg), templates)
            if memo is not None:
                memo[NAME] = found
        return found

    def context(self, agent: Agent) -> dict[str, Any]:
        """`agent_context(agent)`, made once per agent (never changed by its users)."""
        item = self._contexts.get(agent.name)
        if item is None or item[0] is not agent:
            item = self._contexts[agent.name] = (agent, agent_context(agent, self))
        return item[1]

    def text(self, name: str, context: Any, make: Callable[[], str]) -> str:
        """`make()`, the text `name` made of `context` (this very object), made once."""
        item = self._texts.get((name, id(context)))
        if item is None or item[0] is not context:
            item = self._texts[(name, id(context))] = (context, make())  # keeps `context` alive
        return item[1]

    def skill_line(self, name: str) -> str:
        """One skill's line in an agent's skill list, rendered once per skill."""
        line = self._skill_lines.get(name)
        if line is None:
            line = skill_line(self.templates, name, self.reg.skills[name].description)
            self._skill_lines[name] = line
        return line


def skill_line(
    templates: Templates, name: str, description: str, template: str = SKILL_ITEM_TEMPLATE
) -> str:
    """A skill's line in the skill list of each agent that has it."""
    skill = {"name": name, "description": description.strip()}
    return templates.render(template, skill, part=True).rstrip("\n")


def agent_context(agent: Agent, shared: _Shared) -> dict[str, Any]:
    """The template variables of one agent (§3.2 composition order)."""
    reg = shared.reg
    tools = agent.all_tools()
    if agent.role != "orchestrator":
        # flat orchestration, always: a specialist never gets the agent-spawning tool
        tools = [t for t in tools if not reg.is_agent_tool(t.split("(", 1)[0].strip())]
    skills = shared.index.agent_skills(agent)
    identities = [_character(n, reg.identities.get(n)) for n in agent.identity]
    context: dict[str, Any] = {
        "name": agent.name,
        **own_context(agent),
        "tools": tools,
        "model": agent.model,
        "color": agent.color,
        "skills": skills,
        "extra_frontmatter": _extra(agent, tools, skills),
        "identities": [i for i in identities if i["guidance"]],
        "mindset": _character(agent.mindset, reg.mindsets.get(agent.mindset or "")),
        "style": _character(agent.style, reg.styles.get(agent.style or "")),
        "values": shared.values,
        "domains": _domains(reg, agent),
        "truths": _truths(shared, agent),
        "skill_lines": [shared.skill_line(n) for n in skills],
        "tool_guides": [
            {"tool": t, "guide": reg.tools.guides[t]} for t in tools if t in reg.tools.guides
        ],
    }
    if not (context["mindset"] and context["mindset"]["guidance"]):
        context["mindset"] = None
    if not (context["style"] and context["style"]["guidance"]):
        context["style"] = None
    composed = ("identities", "mindset", "style", "values", "domains", "truths", "skill_lines")
    context["composed"] = any(context[k] for k in (*composed, "tool_guides"))
    return context


def own_context(agent: Agent) -> dict[str, Any]:
    """The template variables made of `OWN_FIELDS` alone (nothing else in the context depends
    on them)."""
    return {"description": agent.description.strip(), "prompt": agent.prompt}


def _character(name: str | None, item: Any) -> dict[str, str]:
    if name is None or item is None:
        return {}
    return {"name": name, "description": item.description, "guidance": item.guidance}


def _extra(agent: Agent, tools: list[str], skills: list[str]) -> str:
    written = {"tools": bool(tools), "color": agent.color is not None, "skills": bool(skills)}
    extra = {
        k: v
        for k, v in agent.frontmatter_extra.items()
        if k not in _AGENT_KEYS or (k in written and not written[k])
    }
    return frontmatter_lines(extra)


def _domains(reg: Registry, agent: Agent) -> list[dict[str, Any]]:
    out = []
    for name in agent.domains:
        domain = reg.domains.get(name)
        if domain is None:
            continue
        files = [
            {"path": f"{domain.folder}/{f}", "purpose": _DOMAIN_PURPOSE.get(f, f)}
            for f in domain.files
        ]
        out.append({"name": name, "files": files})
    return out


def _truths(shared: _Shared, agent: Agent) -> list[dict[str, str]]:
    seen: dict[str, dict[str, str]] = {}
    for name in agent.domains:
        for entry in shared.truths.get(name, []):
            seen.setdefault(entry["path"], entry)
    return list(seen.values())


# --- skills ------------------------------------------------------------------------------------


def skill_outputs(
    reg: Registry, skill: SkillEntry, templates: Templates, base: str = SKILLS
) -> Iterator[Output]:
    """SKILL.md plus resources of a core skill, or a vendor skill linked or copied verbatim,
    below `base` (Claude's skills folder, or the `.agents/skills/` other clients share)."""
    folder = f"{base}/{skill.name}"
    if skill.vendor is not None:
        source = reg.root / (skill.folder or "")
        if skill.vendor_root is not None and skill.vendor_root.link == "symlink":
            link = os.path.relpath(source, reg.root / base)
            yield Output(folder, link=link)
        elif _spec_only(skill):  # verbatim, with Orkestra's mark first in the frontmatter
            yield from _marked_copy(
                source / "SKILL.md", f"{folder}/SKILL.md", f"skill {skill.name}"
            )
            yield from _copy_tree(source, folder, skip=("SKILL.md",))
        else:
            # keys outside the spec move under `metadata`, so the copy passes the validator
            text = templates.render(SKILL_TEMPLATE, vendor_context(skill))
            yield Output(f"{folder}/SKILL.md", text.encode("utf-8"))
            yield from _copy_tree(source, folder, skip=("SKILL.md",))
        return
    text = templates.render(SKILL_TEMPLATE, skill_context(skill))
    yield Output(f"{folder}/SKILL.md", text.encode("utf-8"))
    if skill.folder:
        yield from _copy_tree(reg.root / skill.folder, folder, skip=("SKILL.md",))


def skill_context(skill: SkillEntry) -> dict[str, Any]:
    """Template variables of a core skill: spec-only keys, the rest under `metadata`."""
    core = skill.core
    assert core is not None
    meta = core.metadata
    metadata: dict[str, str] = {"layer": meta.layer, "type": meta.type or "", "source": meta.source}
    if not meta.type:  # an imported skill that declared no type gets none
        del metadata["type"]
    if meta.provider:
        metadata["provider"] = meta.provider
    if core.frontmatter.tags:
        metadata["tags"] = ",".join(core.frontmatter.tags)
    if meta.last_updated:
        metadata["last_updated"] = meta.last_updated
    if meta.version:
        metadata["version"] = meta.version
    for key, value in core.frontmatter.extra.items():
        metadata.setdefault(key, value)
    return {
        "name": meta.name,
        "description": meta.description.strip(),
        "license": meta.license,
        "compatibility": meta.compatibility,
        "allowed_tools": list(core.frontmatter.allowed_tools),
        "metadata": [(_key(k), v) for k, v in metadata.items()],
        "intro": core.intro,
        "sections": [{"title": s.title, "body": s.body} for s in core.sections],
    }


def _spec_only(skill: SkillEntry) -> bool:
    """True when a vendor SKILL.md uses only spec keys, with string metadata values."""
    md = skill.vendor
    assert md is not None
    metadata_ok = all(isinstance(v, str) for v in (md.metadata or {}).values())
    return not md.extension_keys() and metadata_ok and not isinstance(md.allowed_tools, list)


def vendor_context(skill: SkillEntry) -> dict[str, Any]:
    """Template variables of a copied vendor skill whose frontmatter needs normalising."""
    from orkestra.registry.frontmatter_values import as_string, split_tools

    md = skill.vendor
    assert md is not None
    metadata = {str(k): as_string(v) for k, v in (md.metadata or {}).items()}
    for key, value in (md.model_extra or {}).items():
        metadata.setdefault(str(key), as_string(value))
    return {
        "name": md.name,
        "description": md.description,
        "license": md.license,
        "compatibility": md.compatibility,
        "allowed_tools": split_tools(md.allowed_tools),
        "metadata": [(_key(k), v) for k, v in metadata.items()],
        # its frontmatter is rewritten in LF: a CRLF body would leave the file with mixed endings
        "intro": skill.vendor_body.replace("\r\n", "\n"),
        "sections": [],
    }


def _key(key: str) -> str:
    from orkestra.render.text import yaml_str

    return key if key and set(key) <= _SAFE_KEY and key[0].isalpha() else yaml_str(key)


def _marked_copy(path: Path, dest: str, label: str) -> Iterator[Output]:
    """A vendor's SKILL.md as it is, but for Orkestra's mark (`text.with_mark`), which proves the
    skill's folder Orkestra's once the skill is gone (a symlink is never copied, as
    `_copy_tree` copies none)."""
    st = os.lstat(path)
    if not stat.S_ISREG(st.st_mode):
        return
    data = path.read_bytes()
    with contextlib.suppress(UnicodeError):  # the loader read it as UTF-8: not met
        data = with_mark(data.decode("utf-8"), name=label).encode("utf-8")
    yield Output(dest, data, executable=bool(st.st_mode & 0o100))


def _copy_tree(source: Path, dest: str, *, skip: tuple[str, ...]) -> Iterator[Output]:
    """Regular files below `source` (no symlinks followed), as outputs below `dest`; version-control
    metadata is left out (`core.filenames.VCS_DIRS`; the review leaves it out too)."""
    for dirpath, dirnames, filenames in os.walk(source):
        dirnames[:] = sorted(d for d in dirnames if d not in VCS_DIRS)
        rel_dir = Path(dirpath).relative_to(source).as_posix()
        for name in sorted(filenames):
            if rel_dir == "." and name in skip:
                continue
            full = Path(dirpath) / name
            st = os.lstat(full)
            if not stat.S_ISREG(st.st_mode):
                continue  # symlinks, devices: never copied
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            if not is_utf8(rel):
                raise InputError(
                    "a resource file's name is not valid UTF-8; rename it (nothing was written)",
                    file=f"{source.as_posix()}/{printable(rel)}",
                )
            yield Output(f"{dest}/{rel}", full.read_bytes(), executable=bool(st.st_mode & 0o100))


# --- commands and CLAUDE.md --------------------------------------------------------------------


def command_context(command: Command) -> dict[str, Any]:
    return {
        "name": command.name,
        "description": command.description.strip(),
        "argument_hint": command.argument_hint,
        "allowed_tools": list(command.allowed_tools),
        "model": command.model,
        "body": command.body,
    }


def claude_md(reg: Registry, templates: Templates) -> Output:
    """CLAUDE.md with Orkestra's block between markers replaced (or appended); the rest kept."""
    made = Composer(reg, templates).roster()  # shared with the other targets' blocks
    return claude_md_file(reg.root, reg.config.render.claude_md_path, templates, made)


def claude_md_file(root: Path, rel: str, templates: Templates, made: dict[str, Any]) -> Output:
    """The file `rel` (`render.claude_md_path`) with the block made of the roster `made`
    (`targets.shared.roster`: every agent, the ground truths' outputs) in place."""
    truths = [truth["path"] for truth in made["truths"]]
    context = {"agents": made["agents"], "truths": truths}
    block = templates.render(BLOCK_TEMPLATE, context)
    hint = "; or set render.claude_md_path to the file it points to (inside the project)"
    return managed_file(root, rel, block, BLOCK_TEMPLATE, unsafe_hint=hint)
