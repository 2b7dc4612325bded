"""Red-team content for every target (issue 15): names with digits, descriptions with quotes,
colons, `---`, newlines, tabs, unicode and 1,000 characters, and extra frontmatter holding `---`.
Claude Code and the Agent Skills reference parser end a frontmatter at the first `---` anywhere,
even inside a quoted value: every rendered file must survive that reading."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import yaml
from skills_ref.validator import validate as agentskills_validate

from orkestra.render.sync import sync
from tests.render.conftest import _skill, put
from tests.render.targets.conftest import build_clients

LONG = (
    'Handles 3d models: "quoted" words, colons: here, #hash, <example>user: hi</example>, '
    "ünïcödé — 🚀. "
) * 12
EDGE = {
    "3d-modeler": LONG[:1000],
    "k8s-2": 'Line one: with colon\nLine two "quoted"\n\nLine four\ttab',
    "a1": "- starts with a dash: {braces} [brackets] & *star !bang %pct @at `tick`",
    "x9": "yes",
    "dashes": "---\nnot frontmatter\n---",
    "mid-dash": "before --- after ---- and -- two",
    "backslash": "C:\\path\\to \\n literal \\u0041 and ''' \"\"\" quotes",
}
CODEX_KEYS = {
    "approval_policy": "never",
    "model_context_window": 100000,
    "sandbox_workspace_write": {"network_access": True},
    "mcp_servers": {"docs": {"command": "npx", "args": ["-y", "docs-server"]}},
}
YAML_NAMES = ("42", "1e3", "yes", "null", "2024-01-15", "0x1f")
#: agent files of the markdown clients (name -> path), checked with a naive `---` split
AGENT_FILES = (
    ".claude/agents/{}.md",
    ".github/agents/{}.agent.md",
    ".cursor/agents/{}.md",
    ".gemini/agents/{}.md",
)


def add_edge(root: Path) -> Path:
    """The client fixture plus an agent and a skill per edge description."""
    for name, description in EDGE.items():
        agent = {
            "name": name,
            "description": description,
            "tools": ["Read", "Grep"],
            "frontmatter_extra": {"x-note": "a --- b", "x-list": ["---", "ok"]},
            "prompt": f"Prompt of {name}.\n---\nnot frontmatter either\n",
        }
        if name == "x9":  # a Codex config layer's own keys, written back (Codex accepts them)
            agent["client_frontmatter"] = {"codex": CODEX_KEYS}
        put(root, f"registries/agents/{name}.yaml", agent)
        put(
            root, f"registries/skills/project/s-{name}.yaml", _skill(f"s-{name}", "K4", description)
        )
    for name in YAML_NAMES:  # valid names that YAML would read as a number, bool, null or date
        put(
            root,
            f"registries/agents/{name}.yaml",
            {"name": name, "description": f"Agent {name}.", "skills": [name], "prompt": "x\n"},
        )
        put(root, f"registries/skills/project/{name}.yaml", _skill(name, "K4", f"Skill {name}."))
    return root


def edge_project(path: Path) -> Path:
    """The client fixture project with the edge content, synced (the clients' own checks read
    it too)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ORKESTRA_TODAY", "2026-11-30")
        root = add_edge(build_clients(path))
        sync(root)
        assert sync(root).written == 0
    return root


@pytest.fixture(scope="module")
def edge(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return edge_project(tmp_path_factory.mktemp("edge") / "proj")


def _naive(text: str) -> dict[str, object]:
    """The frontmatter as Claude Code reads it: up to the first `---` after the opening one."""
    assert text.startswith("---")
    loaded = yaml.safe_load(text.split("---", 2)[1])
    assert isinstance(loaded, dict)
    return loaded


def test_every_agent_file_keeps_its_frontmatter_under_a_naive_split(edge: Path) -> None:
    for name, description in EDGE.items():
        for pattern in AGENT_FILES:
            meta = _naive((edge / pattern.format(name)).read_text(encoding="utf-8"))
            assert meta["description"] == description, (pattern, name)
        claude = _naive((edge / f".claude/agents/{name}.md").read_text(encoding="utf-8"))
        assert claude["x-note"] == "a --- b" and claude["x-list"] == ["---", "ok"]
        codex = tomllib.loads((edge / f".codex/agents/{name}.toml").read_text(encoding="utf-8"))
        assert codex["description"] == description and codex["name"] == name
    x9 = tomllib.loads((edge / ".codex/agents/x9.toml").read_text(encoding="utf-8"))
    assert {k: x9[k] for k in CODEX_KEYS} == CODEX_KEYS


def test_every_skill_folder_passes_the_agent_skills_reference_validator(edge: Path) -> None:
    for base in (".agents/skills", ".claude/skills"):
        for name, description in EDGE.items():
            folder = edge / base / f"s-{name}"
            assert agentskills_validate(folder) == [], folder
            meta = _naive((folder / "SKILL.md").read_text(encoding="utf-8"))
            assert meta["description"] == description


def test_names_yaml_would_read_as_other_types_stay_strings(edge: Path) -> None:
    for name in YAML_NAMES:
        for pattern in AGENT_FILES:
            meta = _naive((edge / pattern.format(name)).read_text(encoding="utf-8"))
            assert meta["name"] == name, (pattern, meta["name"])
        claude = _naive((edge / f".claude/agents/{name}.md").read_text(encoding="utf-8"))
        assert claude["skills"] == [name]
        for base in (".agents/skills", ".claude/skills"):
            skill = _naive((edge / base / name / "SKILL.md").read_text(encoding="utf-8"))
            assert skill["name"] == name
            assert agentskills_validate(edge / base / name) == []


def test_claude_code_accepts_the_edge_content(edge: Path, tmp_path: Path) -> None:
    from tests.render.clients import assert_claude_accepts

    assert_claude_accepts(edge, tmp_path)
