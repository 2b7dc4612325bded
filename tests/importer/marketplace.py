"""A generated plugin marketplace shaped like the real ones (issue 12), deterministic.

`plugins/<plugin>/` each hold `.claude-plugin/plugin.json`, `agents/*.md` (every frontmatter
style seen in the wild: folded and literal descriptions with `<example>` blocks, tools as a
string or a list, MCP tools, permission specifiers, models by alias or id, colours, extension
keys), often an `agents/README.md` without frontmatter, `skills/<name>/SKILL.md` with long
descriptions and vendor headings ("When to Use This Skill"), resources (references, executable
scripts, binary assets, templates), and `commands/*.md`. Two plugins share an agent name and two
share a skill name, each pair different (neither wins by walk order: all four are refused, each
naming the other), and one skill's description is 1,068 characters: over the Agent Skills limit
of 1,024.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

PLUGINS = (
    "api-design",
    "backend-dev",
    "cloud-ops",
    "code-quality",
    "data-eng",
    "database-tools",
    "debugging",
    "devsecops",
    "docs-writer",
    "frontend-kit",
    "git-flow",
    "incident-response",
    "k8s-ops",
    "llm-apps",
    "mobile-dev",
    "observability",
    "perf-tuning",
    "python-dev",
    "release-mgmt",
    "rust-dev",
    "testing-suite",
    "ux-review",
)
ROLES = ("architect", "reviewer", "specialist", "troubleshooter")
MODELS = ("sonnet", "opus", "haiku", "inherit", "claude-opus-4-1", None)
COLORS = ("blue", "green", "purple", "orange", None)
#: the plugin whose second skill breaks the spec, and its description's length
INVALID_PLUGIN = "devsecops"
INVALID_LENGTH = 1068
#: (first plugin, second plugin, shared name): both of each pair are refused
AGENT_CLASH = ("code-quality", "testing-suite", "code-reviewer")
SKILL_CLASH = ("git-flow", "release-mgmt", "changelog-writer")
_TEXT = (
    "review the change set and name every risk with the file and line it comes from keep the "
    "plan small and verify each step before moving on prefer the project's own conventions and "
    "report what was checked what failed and what remains open for the next person"
)
WORDS = _TEXT.split()


@dataclass
class Marketplace:
    """What was generated: the files the import should reproduce, and the ones it must not."""

    root: Path
    #: agent name -> its source file (not the clashing ones)
    agents: dict[str, Path] = field(default_factory=dict)
    #: skill name -> its source folder (not the clashing or the spec-invalid ones)
    skills: dict[str, Path] = field(default_factory=dict)
    #: plugin name -> the names of its agents and skills that are imported
    plugin_agents: dict[str, list[str]] = field(default_factory=dict)
    plugin_skills: dict[str, list[str]] = field(default_factory=dict)
    collisions: list[str] = field(default_factory=list)
    #: "kind:name" -> the source files (agent file, SKILL.md) sharing that name, each refused
    clashes: dict[str, list[Path]] = field(default_factory=dict)
    invalid: Path | None = None
    invalid_line: int = 0
    #: (agent, skill): the agent lists the spec-invalid skill
    unlisted: tuple[str, str] = ("", "")


def _prose(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


def _write(path: Path, data: str | bytes, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    path.chmod(mode)


def _description_yaml(rng: random.Random, text: str, style: int) -> str:
    if style == 0:
        return f"description: {json.dumps(text)}\n"
    if style == 1:
        example = (
            "<example>\nuser: please look at this\nassistant: I will use the agent\n</example>"
        )
        return "description: |\n  " + "\n  ".join([text, example.replace("\n", "\n  ")]) + "\n"
    if style == 2:
        half = len(text) // 2
        cut = text.rfind(" ", 0, half) or half
        return f"description: >-\n  {text[:cut].strip()}\n  {text[cut:].strip()}\n"
    return f"description: {text.replace(':', ' -')}\n"


def _tools_yaml(rng: random.Random, index: int, orchestrator: bool) -> str:
    tools = ["Read", "Grep", "Glob", *rng.sample(["Edit", "Write", "Bash", "WebFetch"], 2)]
    if index % 3 == 0:
        tools.append("Bash(git diff:*)")
    if index % 4 == 1:
        tools.append(f"mcp__srv{index % 3}__query")
    if orchestrator:
        tools += ["Agent", "TodoWrite"]
    if index % 5 == 4:
        return ""  # no tools key: inherits every tool
    if index % 2:
        return "tools:\n" + "".join(f"  - {json.dumps(t)}\n" for t in tools)
    return f"tools: {', '.join(tools)}\n"


def _agent(
    rng: random.Random, plugin: str, name: str, index: int, skills: list[str] | None = None
) -> str:
    orchestrator = index % 7 == 3
    text = (
        f"{name.replace('-', ' ').capitalize()} for the {plugin} plugin: {_prose(rng, 12)}. "
        f"Use PROACTIVELY when {_prose(rng, 6)}."
    )
    head = f"name: {name}\n" + _description_yaml(rng, text, index % 4)
    head += _tools_yaml(rng, index, orchestrator)
    model = MODELS[index % len(MODELS)]
    if model is not None:
        head += f"model: {model}\n"
    color = COLORS[index % len(COLORS)]
    if color is not None:
        head += f"color: {color}\n"
    if index % 6 == 2:
        head += "permissionMode: plan\n"
    if skills:
        head += f"skills: {', '.join(skills)}\n"
    body = (
        f"# {name}\n\nYou are the {name} of {plugin}. {_prose(rng, 30)}.\n\n"
        f"## Process\n\n1. {_prose(rng, 8)}\n2. {_prose(rng, 8)}\n\n"
        f"```bash\n## not a heading\ngit diff --stat\n```\n\n## Output\n\n- {_prose(rng, 10)}\n"
    )
    return f"---\n{head}---\n\n{body}"


def _skill(rng: random.Random, name: str, index: int, length: int | None = None) -> str:
    text = f"{name.replace('-', ' ').capitalize()}: {_prose(rng, 20 + index % 60)}."
    text += " Use when the user asks about " + name.replace("-", " ") + "."
    if length is not None:
        text = (text + " " + _prose(rng, 200))[: length - 1].rstrip() + "."
        text = text + "x" * (length - len(text))
    head = f"name: {name}\ndescription: {json.dumps(text)}\n"
    if index % 2:
        head += "allowed-tools: Read Grep Bash(python:*)\n"
    else:
        head += "allowed-tools:\n  - Read\n  - Edit\n"
    if index % 3 == 0:
        head += "license: MIT\n"
    head += f"metadata:\n  author: vendor-{index % 4}\n  version: '1.{index}.0'\n"
    body = (
        f"# {name}\n\n{_prose(rng, 25)}.\n\n## When to Use This Skill\n\n- {_prose(rng, 9)}\n\n"
        f"## Instructions\n\n1. Read `references/guide.md`.\n2. Run `scripts/run.py`.\n\n"
        f"~~~python\n## still not a heading\nprint('ok')\n~~~\n\n## Examples\n\n{_prose(rng, 14)}\n"
    )
    return f"---\n{head}---\n\n{body}"


def _resources(rng: random.Random, folder: Path, index: int) -> None:
    _write(folder / "references/guide.md", f"# Guide\n\n{_prose(rng, 60)}\n")
    script = f'#!/usr/bin/env python3\n"""Run step {index}."""\nprint({index})\n'
    _write(folder / "scripts/run.py", script, 0o755)
    if index % 2 == 0:
        png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + rng.randbytes(400) + b"\x00IEND"
        _write(folder / "assets/logo.png", png)
        _write(folder / "templates/report.md.j2", "# {{ title }}\n{% for x in items %}- {{ x }}\n")


def build(base: Path) -> Marketplace:
    """Write the marketplace below `base` and say what an import should reproduce."""
    rng = random.Random(12)
    market = Marketplace(root=base)
    index = 0
    _write(base / ".claude-plugin/marketplace.json", json.dumps({"name": "generated"}))
    for plugin in PLUGINS:
        folder = base / "plugins" / plugin
        manifest = {"name": plugin, "version": "1.0.0", "description": f"The {plugin} plugin"}
        _write(folder / ".claude-plugin/plugin.json", json.dumps(manifest))
        agents = [f"{plugin}-{ROLES[index % len(ROLES)]}", f"{plugin}-helper"]
        if plugin in AGENT_CLASH[:2]:
            agents[1] = AGENT_CLASH[2]
        for name in agents:
            path = folder / "agents" / f"{name}.md"
            listed = None
            if plugin == INVALID_PLUGIN and name.endswith("-helper"):
                # lists the spec-invalid skill: left out of its `skills` when that is refused
                listed = [f"{plugin}-workflow", f"{plugin}-guide"]
                market.unlisted = (name, listed[0])
            _write(path, _agent(rng, plugin, name, index, listed))
            index += 1
            if name == AGENT_CLASH[2]:
                market.clashes.setdefault(f"agent:{name}", []).append(path)
                continue
            market.agents[name] = path
            market.plugin_agents.setdefault(plugin, []).append(name)
        if index % 3 == 0:
            _write(folder / "agents/README.md", f"# {plugin} agents\n\nSee each file.\n")
        skills = [f"{plugin}-guide", f"{plugin}-workflow"]
        if plugin in SKILL_CLASH[:2]:
            skills[1] = SKILL_CLASH[2]
        for position, name in enumerate(skills):
            skill = folder / "skills" / name
            invalid = plugin == INVALID_PLUGIN and position == 1
            _write(
                skill / "SKILL.md", _skill(rng, name, index, INVALID_LENGTH if invalid else None)
            )
            _resources(rng, skill, index)
            index += 1
            if invalid:
                market.invalid, market.invalid_line = skill / "SKILL.md", 3
            elif name == SKILL_CLASH[2]:
                market.clashes.setdefault(f"skill:{name}", []).append(skill / "SKILL.md")
            else:
                market.skills[name] = skill
                market.plugin_skills.setdefault(plugin, []).append(name)
        command = f"---\ndescription: Run the {plugin} checks\n---\n\n{_prose(rng, 12)}\n"
        _write(folder / "commands" / f"{plugin}-check.md", command)
    return market
