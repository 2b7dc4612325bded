"""`context_for(paths)`: what an agent should read before it edits these files.

The decisions whose `files` name a path (or whose source commits changed it, by the commit index
of `mine sync` when there is one), the ground truths whose evidence names it, and the notes whose
sources cite it, ranked: a direct mention of the file before a mention of a folder holding it,
then decisions before truths before notes, then by id.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.core.errors import UsageError
from orkestra.core.globs import WILDCARDS, first_match
from orkestra.core.project import within
from orkestra.mcpserver.tools import cite
from orkestra.mcpserver.workspace import Workspace

MAX_PATHS = 100
#: how strongly a mention concerns a path
EXACT, GLOB, FOLDER, COMMIT = 3.0, 2.5, 2.0, 1.5
_KIND_ORDER = {"decision": 0, "truth": 1, "note": 2}


def normalise(paths: list[str], root: Path) -> list[str]:
    """Project-relative posix paths (absolute paths inside the project are accepted)."""
    if not paths:
        raise UsageError("paths is empty; give the files you are about to edit")
    if len(paths) > MAX_PATHS:
        raise UsageError(f"at most {MAX_PATHS} paths at once, got {len(paths)}")
    out = []
    for raw in paths:
        text = raw.strip().replace("\\", "/")
        if not text or "\x00" in text:
            raise UsageError(f"not a path: {raw!r}")
        # absolute under any spelling of the root; `a/./b`, `a//b`, `a/x/../b` name `a/b` (as
        # the entries spell it); `../x` leaves
        rel = within(root, text)
        if rel is None:
            raise UsageError(f"{raw} is outside the project {root}")
        out.append(rel)
    return out


def match(mention: str, path: str) -> float:
    """How `mention` (a file, folder or glob named by an entry) concerns `path`; 0 when not."""
    mention = mention.strip().removeprefix("./").rstrip("/")
    if not mention:
        return 0.0
    if mention == path:
        return EXACT
    # a glob as every path glob of Orkestra reads it (`core.globs`: `*` within one folder)
    if any(ch in mention for ch in WILDCARDS) and first_match(mention, (path,)) is not None:
        return GLOB
    if path == "." or path.startswith(mention + "/") or mention.startswith(path + "/"):
        return FOLDER  # `.`: the project folder, which holds every file
    return 0.0


def context_for(ws: Workspace, paths: list[str]) -> dict[str, Any]:
    """`{paths, total, items: [{kind, id, title, score, cite, because}], findings?}`; when the
    commit index cannot be used (a file where `.orkestra/` belongs), the answer is given
    without the commits and a warning finding says why and what to do."""
    from orkestra.mining import index

    wanted = normalise(paths, ws.root)
    blocked = index.unusable(ws.root)
    found: dict[tuple[str, str], dict[str, Any]] = {}

    def add(kind: str, ident: str, title: str, where: str, score: float, because: str) -> None:
        item = found.get((kind, ident))
        if item is None or score > item["score"]:
            found[(kind, ident)] = {
                "kind": kind,
                "id": ident,
                "title": title,
                "score": score,
                "cite": where,
                "because": because,
            }

    _decisions(ws, wanted, add, commits=blocked is None)
    _truths(ws, wanted, add)
    _notes(ws, wanted, add)
    items = sorted(found.values(), key=lambda i: (-i["score"], _KIND_ORDER[i["kind"]], i["id"]))
    result: dict[str, Any] = {"paths": wanted, "total": len(items), "items": items}
    if blocked is not None:
        from orkestra.registry.findings import as_json

        why = f"{blocked.message} (the decisions whose commits changed these paths are left out)"
        result["findings"] = [as_json(blocked.file or "", None, "warning", "cache", why)]
    return result


def _best(mentions: list[str], wanted: list[str]) -> tuple[float, str]:
    best, why = 0.0, ""
    for mention in mentions:
        for path in wanted:
            score = match(mention, path)
            if score > best:
                best, why = score, f"{mention} ~ {path}"
    return best, why


def _decisions(ws: Workspace, wanted: list[str], add: Any, *, commits: bool) -> None:
    reg = ws.registry()
    touched = _commits_touching(ws.root, wanted) if commits else {}
    for record in reg.decisions.values():
        loc = reg.loc("decision", record.id)
        score, why = _best(record.files, wanted)
        if score:
            add(
                "decision",
                record.id,
                record.title,
                cite(loc.file, loc.line),
                score,
                f"files: {why}",
            )
        shas = [c.sha for c in record.source_commits]
        hit = next((s for s in shas if any(t.startswith(s) for t in touched)), None)
        if hit is not None:
            add("decision", record.id, record.title, cite(loc.file, loc.line), COMMIT,
                f"commit {hit[:10]} changed {', '.join(sorted(touched[_full(hit, touched)]))}")  # fmt: skip


def _full(short: str, touched: dict[str, set[str]]) -> str:
    return next(t for t in touched if t.startswith(short))


def _commits_touching(root: Path, wanted: list[str]) -> dict[str, set[str]]:
    """sha -> the wanted paths it changed, from the commit index (empty when none is built)."""
    from orkestra.mining import index

    if index.read_header(root) is None:
        return {}
    out: dict[str, set[str]] = {}
    for record in index.records(root):
        hits = {p for p in wanted for f in record.get("files", ()) if match(str(f), p) >= FOLDER}
        if hits:
            out[str(record["sha"])] = hits
    return out


def _truths(ws: Workspace, wanted: list[str], add: Any) -> None:
    from orkestra.registry.evidence import split

    reg = ws.registry()
    for truth in reg.truths.values():
        targets = [split(e, ws.root)[0] for e in truth.evidence]
        score, why = _best(targets, wanted)
        if score:
            loc = reg.loc("truth", truth.id)
            add("truth", truth.id, truth.statement, cite(loc.file, loc.line), score,
                f"evidence: {why}")  # fmt: skip


def _notes(ws: Workspace, wanted: list[str], add: Any) -> None:
    from orkestra.knowledge import settings
    from orkestra.knowledge.notes import load_notes

    cfg = settings.load(ws.root)
    for note in load_notes(cfg.root, cfg.path).notes:
        mine = [s for s in note.sources if s.repo is None]
        for source in mine:
            score = max((match(source.path, p) for p in wanted), default=0.0)
            if score:
                add("note", note.name, note.title, cite(note.rel, source.line or 1), score,
                    f"source: {source.raw}")  # fmt: skip
