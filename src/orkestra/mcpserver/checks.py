"""The checking tools: `check_notes`, `verify_truths`, `mine_candidates` (read-only).

`check_notes` is `orkestra notes check --dry-run` (no demotion written); `verify_truths` is
`orkestra truths verify`; `mine_candidates` is `orkestra mine candidates`, which refreshes the
derived commit index under `.orkestra/` (never a tracked file) first.
"""

from __future__ import annotations

from typing import Any

from orkestra.core.errors import NotFound
from orkestra.mcpserver.tools import check_limit, cite
from orkestra.mcpserver.workspace import Workspace


def check_notes(ws: Workspace, names: list[str] | None) -> dict[str, Any]:
    """The notes check report, narrowed to `names` (file stems) when given."""
    from orkestra.core.clock import today
    from orkestra.knowledge import settings
    from orkestra.knowledge.check import check

    report = check(settings.load(ws.root), today(), apply=False, sources=True)
    if names:
        known = {n["name"] for n in report["notes"]}
        missing = [n for n in names if n not in known]
        if missing:
            raise NotFound(f"no note named '{missing[0]}'; list(kind='note') shows them")
        report["notes"] = [n for n in report["notes"] if n["name"] in names]
    for note in report["notes"]:
        note["cite"] = cite(note.get("path"), 1)
    return report


def verify_truths(ws: Workspace, ids: list[str] | None) -> dict[str, Any]:
    """Evidence and staleness of every truth, or of `ids`."""
    from orkestra.registry.evidence import verify_truths as run

    reg = ws.registry()
    missing = [i for i in ids or [] if i not in reg.truths]
    if missing:
        raise NotFound(f"no truth with id '{missing[0]}'; list(kind='truth') shows them")
    if ids:  # each asked truth checked alone (not every truth, then filtered)
        parts = [run(reg, truth_id=i) for i in dict.fromkeys(ids)]
        report = parts[0]
        report["truths"] = [t for part in parts for t in part["truths"]]
        report["failing"] = [t for part in parts for t in part["failing"]]
        report["checked"] = len(report["truths"])
    else:
        report = run(reg)
    for truth in report["truths"]:
        truth["cite"] = cite(truth["path"], truth["line"])
    return report


def mine_candidates(ws: Workspace, limit: int) -> dict[str, Any]:
    """Unclassified commits, newest first (the derived commit index refreshed first)."""
    from orkestra.mining.report import candidates
    from orkestra.mining.sync import sync

    check_limit(limit)
    sync(ws.root)
    found = candidates(ws.root, limit=limit)
    return {"total": len(found), "candidates": found}
