"""The render-time skill index agrees with the Registry's own resolution."""

from __future__ import annotations

from pathlib import Path

from orkestra.registry.loader import load
from orkestra.render.resolve import SkillIndex


def test_index_matches_registry_resolution(rich: Path) -> None:
    reg = load(rich)
    index = SkillIndex(reg)
    for agent in reg.agents.values():
        assert index.agent_skills(agent) == reg.agent_skills(agent)
    assert index.active() == reg.active_skills()
    assert "dormant-skill" in reg.dormant_skills() and "dormant-skill" not in index.active()
