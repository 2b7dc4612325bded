"""Resource bodies: entries as JSON, a note as its markdown, and the rendered overviews.

`GROUND_TRUTHS.md` is rendered from the warm registry with the same templates `sync` uses (one
document per configured output, joined), and `knowledge/INDEX.md` with `knowledge.index.render`:
what `sync` and `notes index` would write now, without writing it.
"""

from __future__ import annotations

import json

from orkestra.mcpserver import tools
from orkestra.mcpserver.workspace import Workspace

#: uri template -> the kind `get` answers it with
ENTRY_TEMPLATES = {
    "orkestra://agents/{name}": "agent",
    "orkestra://skills/{name}": "skill",
    "orkestra://decisions/{name}": "decision",
    "orkestra://truths/{name}": "truth",
}
NOTE_TEMPLATE = "orkestra://notes/{name}"
GROUND_TRUTHS = "orkestra://GROUND_TRUTHS.md"
KNOWLEDGE_INDEX = "orkestra://knowledge/INDEX.md"


def entry(ws: Workspace, kind: str, name: str) -> str:
    """One registry entry as pretty JSON (the `get` tool's answer)."""
    return json.dumps(tools.get(ws, kind, name), indent=2, ensure_ascii=False)


def note(ws: Workspace, name: str) -> str:
    """A note's markdown file as it is on disk."""
    from orkestra.knowledge import settings
    from orkestra.knowledge.notes import read_note
    from orkestra.knowledge.service import find

    cfg = settings.load(ws.root)
    found = find(cfg, name)
    return read_note(str(ws.root / found.rel), found.rel)


def ground_truths(ws: Workspace) -> str:
    """Every configured GROUND_TRUTHS output, rendered now (in output path order)."""
    from orkestra.render.environment import Templates
    from orkestra.render.truths import truth_outputs

    parts = [
        (out.data or b"").decode("utf-8")
        for out in truth_outputs(ws.registry(), Templates(ws.root))
    ]
    return "\n".join(parts) if parts else "# Ground truths\n\n(no ground truths registered)\n"


def knowledge_index(ws: Workspace) -> str:
    """knowledge/INDEX.md as `orkestra notes index` would write it today."""
    from orkestra.core.clock import today
    from orkestra.knowledge import settings
    from orkestra.knowledge.claims import store
    from orkestra.knowledge.index import render
    from orkestra.knowledge.notes import load_notes

    cfg = settings.load(ws.root)
    kb = load_notes(cfg.root, cfg.path)
    return render(cfg, kb, today(), len(store.load_all(cfg.folder)))
