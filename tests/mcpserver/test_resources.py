"""Resources: entries as JSON, notes as markdown, the rendered GROUND_TRUTHS.md and INDEX.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp import MCPError

from orkestra.core.clock import today
from orkestra.knowledge import settings
from orkestra.knowledge.index import render
from orkestra.knowledge.notes import load_notes
from orkestra.registry.loader import load
from orkestra.render.environment import Templates
from orkestra.render.truths import truth_outputs
from tests.mcpserver.conftest import Session


async def _text(client: Any, uri: str) -> str:
    result = await client.read_resource(uri)
    return str(result.contents[0].text)


def test_the_resources_are_listed(session: Session) -> None:
    async def go(client: Any) -> Any:
        static = {r.uri for r in (await client.list_resources()).resources}
        templates = {
            t.uri_template for t in (await client.list_resource_templates()).resource_templates
        }
        return static, templates

    static, templates = session(go)
    assert static == {"orkestra://GROUND_TRUTHS.md", "orkestra://knowledge/INDEX.md"}
    assert templates == {
        "orkestra://agents/{name}",
        "orkestra://skills/{name}",
        "orkestra://decisions/{name}",
        "orkestra://truths/{name}",
        "orkestra://notes/{name}",
    }


def test_entries_read_as_json_and_notes_as_markdown(session: Session, root: Path) -> None:
    async def go(client: Any) -> list[str]:
        return [
            await _text(client, "orkestra://agents/release-manager"),
            await _text(client, "orkestra://skills/kubernetes-deploy"),
            await _text(client, "orkestra://decisions/DEC-PL-142"),
            await _text(client, "orkestra://truths/GT-PIPE-001"),
            await _text(client, "orkestra://notes/duckdb-runner"),
        ]

    agent, skill, decision, truth, note = session(go)
    assert json.loads(agent)["cite"] == "registries/agents/release-manager.yaml:1"
    assert json.loads(skill)["kind"] == "skill"
    assert json.loads(decision)["id"] == "DEC-PL-142"
    assert json.loads(truth)["statement"].startswith("Every pipeline stage is idempotent")
    assert note == (root / "knowledge/glossary/duckdb-runner.md").read_text(encoding="utf-8")


def test_the_rendered_overviews_are_what_sync_and_notes_index_write(
    session: Session, root: Path
) -> None:
    async def go(client: Any) -> list[str]:
        return [
            await _text(client, "orkestra://GROUND_TRUTHS.md"),
            await _text(client, "orkestra://knowledge/INDEX.md"),
        ]

    truths, index = session(go)
    rendered = [o.data.decode() for o in truth_outputs(load(root), Templates(root)) if o.data]
    assert truths == "\n".join(rendered) and "GT-PIPE-001" in truths
    cfg = settings.load(root)
    assert index == render(cfg, load_notes(root, cfg.path), today(), 0)
    assert "2 notes and 0 claims" in index


def test_an_unknown_entry_is_an_error(session: Session) -> None:
    async def go(client: Any) -> str:
        try:
            await client.read_resource("orkestra://decisions/DEC-NOPE-001")
        except MCPError as exc:
            return exc.error.message
        raise AssertionError("no error")

    assert "no decision named 'DEC-NOPE-001'" in session(go)
