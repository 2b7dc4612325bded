"""Rendered files parsed back and checked against the rules, plus the clients' own validators."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from skills_ref.validator import validate as agentskills_validate

from orkestra.core import frontmatter
from orkestra.registry.loader import load
from orkestra.registry.models.skills import SPEC_KEYS
from orkestra.render.environment import Templates
from orkestra.render.sync import sync
from orkestra.render.targets import claude
from tests.render.clients import assert_claude_accepts
from tests.render.conftest import put

NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def _front(path: Path) -> tuple[dict[str, object], str, str]:
    text = path.read_text(encoding="utf-8")
    head = text.split("---\n", 2)[1]
    meta = yaml.safe_load(head)  # what a plain YAML client sees
    return meta, head, frontmatter.parse(text, str(path)).body


def test_agents_follow_the_claude_code_rules(rich: Path) -> None:
    sync(rich)
    agents = sorted((rich / ".claude/agents").glob("*.md"))
    assert [a.stem for a in agents] == ["db-guardian", "example-agent", "plain-helper"]
    reg = load(rich)
    for path in agents:
        meta, head, _ = _front(path)
        agent = reg.agents[path.stem]
        assert meta["name"] == path.stem and NAME.match(str(meta["name"]))
        description_lines = [line for line in head.splitlines() if line.startswith("description:")]
        assert len(description_lines) == 1 and description_lines[0].startswith('description: "')
        assert meta["description"] == agent.description
        assert meta["model"] == agent.model
        if agent.all_tools():
            assert isinstance(meta["tools"], str)
            assert meta["tools"].split(", ") == agent.all_tools()  # built-ins, then MCP
    guardian, _, body = _front(rich / ".claude/agents/db-guardian.md")
    assert guardian["skills"] == ["schema-migration", "acme-pdf", "other-csv"]
    assert guardian["color"] == "blue"
    assert guardian["permissionMode"] == "plan"  # frontmatter_extra rendered back verbatim
    assert guardian["hooks"] == {"Stop": ["echo done"]}
    order = ["Never lose data.", "Keep modules small.", "How you think", "How you communicate"]
    order += ["## Values", "## Domain knowledge", "## Ground truths", "## Skills", "## Tools"]
    order += ["## Instructions", "Check every migration twice."]
    positions = [body.index(marker) for marker in order]
    assert positions == sorted(positions)
    assert "Rules:" not in body and "## Steps" not in body  # skill bodies are never pasted


def test_specialist_never_gets_the_agent_spawning_tool(scaffold: Path) -> None:
    put(
        scaffold,
        "registries/agents/sneaky.yaml",
        {"name": "sneaky", "description": "Tries to spawn.", "tools": ["Read", "Agent"]},
    )
    reg = load(scaffold)  # validation would refuse this registry; render must not emit it anyway
    outputs = {o.path: o for o in claude.render(reg, Templates(scaffold))}
    text = (outputs[".claude/agents/sneaky.md"].data or b"").decode()
    assert "tools: Read\n" in text and "Agent" not in text.split("---")[1]


@pytest.mark.parametrize(
    "tools",
    [["Read", "Bash(git commit: *)"], ["Bash(x):"], ["*"], ["Read", "Grep"]],
    ids=["colon-space", "trailing-colon", "star", "plain"],
)
def test_tools_line_reads_back_as_the_same_string(scaffold: Path, tools: list[str]) -> None:
    put(
        scaffold,
        "registries/agents/odd.yaml",
        {"name": "odd", "description": "Odd tools.", "tools": tools},
    )
    outputs = {o.path: o for o in claude.render(load(scaffold), Templates(scaffold))}
    text = (outputs[".claude/agents/odd.md"].data or b"").decode()
    meta = yaml.safe_load(text.split("---\n", 2)[1])
    assert meta["tools"] == ", ".join(tools)
    put(scaffold, "registries/agents/odd.yaml", {"name": "odd", "description": "d", "model": "1e3"})
    outputs = {o.path: o for o in claude.render(load(scaffold), Templates(scaffold))}
    head = (outputs[".claude/agents/odd.md"].data or b"").decode().split("---\n", 2)[1]
    assert yaml.safe_load(head)["model"] == "1e3"  # not the float 1000.0
    if tools == ["Read", "Grep"]:
        assert "tools: Read, Grep\n" in text  # plain when plain is safe (no churn)


def test_skills_use_only_spec_keys_and_pass_the_reference_validator(rich: Path) -> None:
    sync(rich)
    folders = sorted(p for p in (rich / ".claude/skills").iterdir())
    assert [f.name for f in folders] == [
        "acme-pdf",
        "example-skill",
        "other-csv",
        "schema-migration",
    ]
    assert not (rich / ".claude/skills/dormant-skill").exists()  # dormant: not rendered
    for folder in folders:
        assert agentskills_validate(folder) == [], folder.name
        meta, _, _ = _front(folder / "SKILL.md")
        assert meta["name"] == folder.name
        assert len(str(meta["description"])) <= 1024
        if not folder.is_symlink() and folder.name != "other-csv":
            assert set(meta) <= set(SPEC_KEYS)
            metadata = meta["metadata"]
            assert isinstance(metadata, dict)
            assert all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items())
    meta, _, body = _front(rich / ".claude/skills/schema-migration/SKILL.md")
    assert meta["allowed-tools"] == "Bash(psql:*) Read"
    assert meta["metadata"] == {
        "layer": "K2",
        "type": "workflow",
        "source": "core",
        "tags": "database,migrations",
        "last_updated": "2026-11-01",
        "argument-hint": "[table]",
        "disable-model-invocation": "true",
    }
    assert body.index("## When to use") < body.index("## Steps") < body.index("## Recovery")
    resources = rich / ".claude/skills/schema-migration"
    assert (resources / "references/guide.md").read_text() == "# Guide\n"
    assert os.access(resources / "scripts/check.sh", os.X_OK)


def test_agentskills_cli_accepts_a_rendered_skill(rich: Path) -> None:
    exe = shutil.which("agentskills")
    if exe is None:
        pytest.skip("agentskills (PyPI skills-ref) is not installed")
    sync(rich)
    done = subprocess.run(
        [exe, "validate", str(rich / ".claude/skills/schema-migration")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_claude_plugin_validate_accepts_the_rendered_tree(rich: Path, tmp_path: Path) -> None:
    sync(rich)
    assert_claude_accepts(rich, tmp_path)
