"""What the client targets share: the composed agent prompt, the instruction block (values, ground
truths, agents and skills rosters) and files Orkestra keeps a managed block in (PRODUCT.md §4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.core import managed_block, safewrite, yamlio
from orkestra.core.errors import InputError, UnsafePathError
from orkestra.core.readfile import open_regular
from orkestra.registry import render_lock
from orkestra.registry.client_rules import client_model
from orkestra.registry.models import Agent
from orkestra.registry.registry import Registry
from orkestra.render.environment import Templates
from orkestra.render.plan import Output
from orkestra.render.text import frontmatter_lines

BEGIN, END = render_lock.BEGIN, render_lock.END
#: the composed prompt (identities … instructions), rendered from the Claude agent's context
PROMPT_TEMPLATE = "shared/prompt.md.j2"
#: the instruction block of AGENTS.md and Copilot's instructions
INSTRUCTIONS_TEMPLATE = "shared/instructions.md.j2"


class Composer:
    """Renders agents' composed prompts (the Claude target's composition, §3.2) for any client."""

    def __init__(self, reg: Registry, templates: Templates) -> None:
        from orkestra.render.targets import claude

        self.reg = reg
        self.templates = templates
        self._shared = claude._Shared.of(reg, templates)  # shared by the targets of one render
        self.index = self._shared.index

    def agents(self, target: str) -> list[Agent]:
        """The agents rendered for `target`, by name."""
        chosen = [a for a in self.reg.agents.values() if a.rendered_for(target)]
        return sorted(chosen, key=lambda a: a.name)

    def context(self, agent: Agent) -> dict[str, Any]:
        """The Claude target's template variables of `agent` (tools, skills, composition)."""
        return self._shared.context(agent)

    def prompt(self, context: dict[str, Any]) -> str:
        """The composed prompt (identities … instructions) without frontmatter."""
        name = PROMPT_TEMPLATE
        return self._shared.text(
            name, context, lambda: self.templates.render(name, context, part=True)
        )

    def instructions(self, *, markers: bool) -> str:
        """The instruction block: values, ground truths, agents and skills rosters."""
        return self._shared.text(
            f"instructions/{markers}",
            None,
            lambda: instructions(self.templates, self.roster(), markers=markers),
        )

    def roster(self) -> dict[str, Any]:
        """`roster(reg)`, made once per render (never changed by its users)."""
        if self._shared.roster is None:
            self._shared.roster = roster(self.reg)
        return self._shared.roster


def roster(reg: Registry) -> dict[str, Any]:
    """What the instruction block and CLAUDE.md's block are made of: the values, the ground
    truths (each output with its title), every agent's name, role and description, and every
    active skill's name and description, by name. Plain data: `render.delta` keeps it, and
    renders the blocks again from it with a description changed."""
    truths: dict[str, str] = {}
    for truth_registry in reg.truth_files.values():
        meta = truth_registry.metadata
        truths.setdefault(meta.render.output, meta.title)
    return {
        "values": [{"name": v.name, "statement": v.statement} for v in reg.values],
        "truths": [{"path": p, "title": t} for p, t in sorted(truths.items())],
        "agents": [
            {"name": a.name, "role": a.role, "description": a.description}
            for a in sorted(reg.agents.values(), key=lambda a: a.name)
        ],
        "skills": [
            {"name": n, "description": reg.skills[n].description}
            for n in sorted(reg.active_skills())
        ],
    }


def instructions(templates: Templates, roster: dict[str, Any], *, markers: bool) -> str:
    """The instruction block made of `roster` (`roster`), between markers when `markers`."""
    context = {**roster, "markers": markers}
    return templates.render(INSTRUCTIONS_TEMPLATE, context, part=True)


def keep_recipe(
    templates: Templates,
    path: str,
    target: str,
    agent: Agent,
    template: str,
    values: dict[str, Any],
    prompt: str,
    *,
    own_description: bool = True,
) -> None:
    """For `render.delta`, when the caller keeps the agent renders (`Templates.kept`): the
    agent file at `path` is `template` rendered with `values`, which hold the agent's
    description and its composed `prompt` (`"description"`, `"prompt"` without its last
    newlines; Codex's TOML items, with no template: `"developer_instructions"`, whole) and
    nothing else made of its own fields. They are kept as None (in their place: the TOML's
    keys are written in order), put in again on use. When `values` do not hold them as such
    (`own_description` False: an imported file's own `description` kept for the client, even
    one that reads the same), the template is None: that agent is not rendered on its own."""
    if templates.kept is None:
        return
    key, want = ("prompt", prompt.rstrip("\n")) if template else ("developer_instructions", prompt)
    described = own_description and values.get("description") == agent.description.strip()
    servable = described and values.get(key) == want
    kept = {**values, "description": None, key: None}
    templates.kept[path] = [target, agent.name, template if servable else None, kept]


def extra(agent: Agent, target: str, allowed: tuple[str, ...] | None = None) -> dict[str, Any]:
    """An imported agent's frontmatter kept for this client (`client_frontmatter`), limited to
    `allowed` keys when the client rejects unknown ones."""
    kept = {
        k: v for c, kv in agent.client_frontmatter.items() if c == target for k, v in kv.items()
    }
    if allowed is not None:
        kept = {k: v for k, v in kept.items() if k in allowed}
    return kept


def kept_tools(kept: dict[str, Any], mapped: list[str]) -> list[Any]:
    """The tool list a client's template writes: an imported file's own list when it kept one
    (`client_frontmatter.<client>.tools`), else the mapped tools. A kept value that is not a
    list (`tools: read, github/*`, `tools: 1.5`) stays in `kept`, written back as it was:
    the template would iterate a string's characters, or fail on a number."""
    if "tools" not in kept:
        return mapped
    if isinstance(kept["tools"], list):
        return list(kept.pop("tools"))
    return []


def agent_values(
    agent: Agent, target: str, tools: list[str], kept: dict[str, Any], prompt: str
) -> dict[str, Any]:
    """The template values of an agent file that lists its tools (Copilot, Gemini): the mapped
    `tools` unless the imported file kept its own, the client's model, the kept keys. A kept
    `name` is an imported Copilot agent's display name ("API Architect"): the `title` Copilot's
    file is given as its `name` (the mark still names the agent, whose name the file bears)."""
    shown = kept.get("name")
    return {
        "name": agent.name,
        "title": shown if isinstance(shown, str) and shown.strip() else agent.name,
        "description": agent.description.strip(),
        "tools": kept_tools(kept, tools),
        "model": client_model(agent.models, target),
        "extra_frontmatter": dump_extra({k: v for k, v in kept.items() if k != "name"}),
        "prompt": prompt.rstrip("\n"),
    }


def dump_extra(values: dict[str, Any]) -> str:
    """Extra frontmatter lines (YAML), or ''."""
    return frontmatter_lines(values)


def managed_file(
    root: Path, rel: str, block: str, template: str, *, unsafe_hint: str = "", target: str = ""
) -> Output:
    """`rel` with Orkestra's block between the markers replaced (or appended); the rest of the
    file is the user's and is kept byte for byte. `block` is what `template` rendered: the
    markers and only what lies between them. `unsafe_hint` is added to the message when the
    path is refused (e.g. which setting names it); `target` keeps its block there (a symlink
    at `rel` is refused saying what to do: `render_lock.linked_block`)."""
    try:  # refused before it is read, not only when it is written
        path = root / safewrite.check_target(root, rel)
    except UnsafePathError as exc:
        linked = render_lock.linked_block(root, rel, target) if target else None
        if linked is not None and exc.file == rel:  # the file itself, not a folder on its way
            raise UnsafePathError(f"{linked}; nothing was written", file=rel) from None
        raise UnsafePathError(exc.message + unsafe_hint, file=exc.file or rel) from None
    block = _within_markers(block, rel, template)
    current = yamlio.read_text(path, display=rel) if path.exists() else ""
    bom, newline = _style(path, current)
    base = _base(bom, current) if path.exists() else ""
    block = fenced(block).replace("\n", newline)
    wrong = managed_block.broken(current, BEGIN, END)
    if wrong is not None:
        raise InputError(f"{wrong[1]} (nothing was written)", file=rel, line=wrong[0])
    start, end = managed_block.find(current, BEGIN, END)
    if start >= 0:
        text = current[:start] + block.rstrip("\r\n") + current[end + len(END) :]
    else:
        text = (current.rstrip("\r\n") + newline * 2 if current.strip() else "") + block
    return Output(rel, (bom + text).encode("utf-8"), shared=True, base=base)


def _within_markers(block: str, rel: str, template: str) -> str:
    """`block` from its begin marker to its end marker and a newline; InputError unless it
    holds both markers and nothing but blanks outside them: a template override that drops a
    marker or adds a footer (or blank lines) after the end marker would leave text the next
    sync takes for the user's and adds again, on every run."""
    first, last = block.find(BEGIN), block.rfind(END)
    where = f"templates/{template}"
    if first < 0 or last < first:
        raise InputError(
            f"this template renders the block of {rel} without its orkestra:begin/end "
            "markers; keep both marker lines in it",
            file=where,
        )
    outside = (block[:first] + block[last + len(END) :]).strip()
    if outside:
        raise InputError(
            f"this template renders text outside the orkestra:begin/end markers of {rel} "
            f"({outside.splitlines()[0][:60]!r}); move it between the marker lines",
            file=where,
        )
    return block[first : last + len(END)] + "\n"


def _base(bom: str, current: str) -> str:
    """The sha256 of the bytes `current` was read from (strict UTF-8: encoding gives them
    back, with the byte-order mark the reader took off)."""
    import hashlib

    return hashlib.sha256((bom + current).encode("utf-8")).hexdigest()


def fenced(block: str, begin: str = BEGIN, end: str = END) -> str:
    """The block with its own markers only: a marker's text inside it (a description that
    mentions `<!-- orkestra:end -->`) is escaped, or the next sync would end the block there
    and keep the rest of the old block as the user's text, growing the file every run."""
    first = block.find(begin)
    last = block.rfind(end)
    if first < 0 or last < first:
        return block
    inner = block[first + len(begin) : last].replace("<!-- orkestra:", "&lt;!-- orkestra:")
    return block[: first + len(begin)] + inner + block[last:]


def _style(path: Path, current: str) -> tuple[str, str]:
    """(the byte-order mark the user's file starts with, or '', and its line ending): the
    block is written in the file's own style, so a Windows CRLF file never gets mixed endings
    and its mark is kept."""
    newline = "\r\n" if current.split("\n", 1)[0].endswith("\r") else "\n"
    if not current:
        return "", newline
    with open_regular(path) as handle:
        bom = "\ufeff" if handle.read(3) == b"\xef\xbb\xbf" else ""
    return bom, newline


def without_block(reg: Registry, rel: str) -> Output | None:
    """`rel` with Orkestra's block (and the blank line before it) removed, for a target no
    longer configured; None when there is no such file or no block (nothing to do). A file
    holding nothing but the block is removed (`Output.remove`): the target's removal leaves no
    empty file behind, and whatever the user wrote around the block is kept. A symlink there (or
    on the way to it) is none of Orkestra's: the writer never writes through one."""
    try:
        path = reg.root / safewrite.check_target(reg.root, rel)
    except UnsafePathError:  # a symlink (AGENTS.md -> CLAUDE.md): never written, so no block
        return None  # of Orkestra's to take out (the file it leads to is its own target's)
    if not path.is_file():
        return None
    current = yamlio.read_text(path, display=rel)
    start, end = managed_block.find(current, BEGIN, END)
    if start < 0 or end < start:
        return None
    bom, newline = _style(path, current)
    before, after = current[:start].rstrip("\r\n"), current[end + len(END) :].lstrip("\r\n")
    text = before + (newline * 2 + after if before and after else after) if after else before
    text = text + newline if text and not text.endswith("\n") else text
    if not text.strip():  # deleted only while it holds the bytes judged empty (not re-read)
        return Output(rel, (bom + current).encode("utf-8"), shared=True, remove=True)
    return Output(rel, (bom + text).encode("utf-8"), shared=True, base=_base(bom, current))
