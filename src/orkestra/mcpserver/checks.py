"""The checking tools: `check_notes`, `verify_truths`, `mine_candidates` (read-only).

`check_notes` is `orkestra notes check --dry-run` (no demotion written); `verify_truths` is
`orkestra truths verify`; `mine_candidates` is `orkestra mine candidates`, which refreshes the
derived commit index under `.orkestra/` (never a tracked file) first.
"""

from __future__ import annotations

from typing import Any

from orkestra.mcpserver.tools import check_limit, cite
from orkestra.mcpserver.workspace import Workspace


def check_notes(ws: Workspace, names: list[str] | None) -> dict[str, Any]:
    """The notes check report, narrowed to `names` (file stems) when given."""
    from orkestra.core.clock import today
    from orkestra.knowledge import settings
    from orkestra.knowledge.check import check
    from orkestra.knowledge.service import find

    cfg = settings.load(ws.root)
    report = check(cfg, today(), apply=False, sources=True)
    if names:
        known = {n["name"] for n in report["notes"]}
        # a name not among the file stems is found as `get` finds a note (path, title, alias),
        # or is the CLI's NotFound, naming a note file that failed to load (it may be in it)
        wanted = {n if n in known else find(cfg, n).name for n in names}
        report["notes"] = [n for n in report["notes"] if n["name"] in wanted]
    for note in report["notes"]:
        note["cite"] = cite(note.get("path"), 1)
    return report


def verify_truths(ws: Workspace, ids: list[str] | None) -> dict[str, Any]:
    """Evidence and staleness of every truth, or of `ids`."""
    from orkestra.registry.evidence import require_truth
    from orkestra.registry.evidence import verify_truths as run

    reg = ws.registry()
    for ident in ids or []:  # every id first: one unknown is the CLI's error, nothing checked
        require_truth(reg, ident)
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
    found, total = candidates(ws.root, limit=limit)
    return {"total": total, "candidates": found}
