"""Dormant skills (§3.4): only a skill whose every scope is dormant, and that no agent lists, sleeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from orkestra.core import yamlio
from orkestra.registry.loader import load
from orkestra.render.sync import sync
from orkestra.scaffold import init_project
from tests.conftest import write


def _skill(root: Path, name: str, scopes: list[str], layer: str = "K3") -> None:
    tier = {"K0": "foundations", "K3": "stacks"}[layer]
    data = {
        "metadata": {
            "identifier": name,
            "name": name,
            "description": f"Skill {name}. Use when checking which skills are dormant and why.",
            "type": "discipline",
            "layer": layer,
        },
        "scopes": scopes,
        "sections": [{"title": "When to use", "body": "x\n"}, {"title": "Rules", "body": "x\n"}],
    }
    write(root, f"registries/skills/{tier}/{name}.yaml", yamlio.dumps(data))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    init_project(root)
    write(
        root,
        "registries/scopes.yaml",
        yamlio.dumps(
            {
                "scopes": {
                    "example": {"description": "x", "primary_skills": ["example-skill"]},
                    "sleepy": {"description": "nobody declares it", "primary_skills": ["listed"]},
                    "other": {"description": "nobody declares it either"},
                }
            }
        ),
    )
    _skill(root, "unscoped", [])
    _skill(root, "asleep", ["sleepy", "other"])
    _skill(root, "half-awake", ["sleepy", "example"])
    _skill(root, "listed", [])
    _skill(root, "everywhere", ["sleepy"], layer="K0")
    return root


def test_only_skills_whose_every_scope_is_dormant_sleep(root: Path) -> None:
    reg = load(root)
    # `listed` belongs to `sleepy` through primary_skills, so it sleeps with it
    assert reg.dormant_skills() == ["asleep", "listed"]
    assert reg.active_skills() == {"example-skill", "unscoped", "half-awake", "everywhere"}
    sync(root)
    rendered = sorted(p.name for p in (root / ".claude/skills").iterdir())
    assert rendered == ["everywhere", "example-skill", "half-awake", "unscoped"]
    # an unscoped skill is rendered for the main session, not given to any agent
    agent = (root / ".claude/agents/example-agent.md").read_text(encoding="utf-8")
    assert "skills: [everywhere, example-skill, half-awake]" in agent


def test_an_agent_listing_a_skill_or_declaring_its_scope_wakes_it(root: Path) -> None:
    agent = yamlio.load_mapping(root / "registries/agents/example-agent.yaml")
    data = {**agent, "skills": ["listed"]}
    write(root, "registries/agents/example-agent.yaml", yamlio.dumps(data))
    assert load(root).dormant_skills() == ["asleep"]
    data["scopes"] = ["example", "other"]
    write(root, "registries/agents/example-agent.yaml", yamlio.dumps(data))
    assert load(root).dormant_skills() == []


def test_a_registry_of_skills_without_agents_renders_every_unscoped_skill(tmp_path: Path) -> None:
    root = tmp_path / "bare"
    init_project(root)
    (root / "registries/agents/example-agent.yaml").unlink()
    _skill(root, "unscoped", [])
    reg = load(root)
    assert reg.dormant_skills() == ["example-skill"] and "unscoped" in reg.active_skills()
