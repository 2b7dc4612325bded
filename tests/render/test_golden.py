"""Golden files for every template shape; regenerate on purpose with ORKESTRA_UPDATE_GOLDEN=1."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from orkestra.render.sync import sync

GOLDEN = Path(__file__).parent / "golden"
SHAPES = {
    "agent-composed.md": ".claude/agents/db-guardian.md",
    "agent-plain.md": ".claude/agents/plain-helper.md",
    "agent-scaffold.md": ".claude/agents/example-agent.md",
    "skill-core.md": ".claude/skills/schema-migration/SKILL.md",
    "skill-vendor-copied.md": ".claude/skills/other-csv/SKILL.md",
    "command.md": ".claude/commands/learn.md",
    "ground-truths.md": "GROUND_TRUTHS.md",
    "claude-md.md": "CLAUDE.md",
    "render-lock.json": "registries/.render-lock.json",
}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.render.conftest import build_rich

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ORKESTRA_TODAY", "2026-11-30")
        root = build_rich(tmp_path_factory.mktemp("golden") / "rich")
        sync(root)
    return root


@pytest.mark.parametrize("golden", sorted(SHAPES))
def test_rendered_file_matches_golden(rendered: Path, golden: str) -> None:
    actual = (rendered / SHAPES[golden]).read_text(encoding="utf-8")
    path = GOLDEN / golden
    if os.environ.get("ORKESTRA_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8"), f"{golden} differs from {SHAPES[golden]}"
