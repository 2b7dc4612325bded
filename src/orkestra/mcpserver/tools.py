"""The registry tools: `search`, `get`, `list` as plain JSON values with `path:line` citations.

Each one calls the function the CLI calls (`search.service`, `registry.inventory`,
`knowledge.service`, `knowledge.claims.store`); bad arguments raise the CLI's own `UsageError` or
`NotFound`, which the server turns into an MCP error with the same message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orkestra.core.errors import UsageError
from orkestra.mcpserver.workspace import Workspace

if TYPE_CHECKING:
    from orkestra.search.document import Problem
    from orkestra.search.rank import Filters, Ranking

#: kind -> the singular the tools use (plural spellings accepted)
KINDS = ("agent", "skill", "scope", "truth", "decision", "note", "claim")
MAX_LIMIT = 500


def kind_of(value: str) -> str:
    """`agents` or `Agent` -> `agent`; anything else is a usage error naming the kinds."""
    name = value.strip().lower()
    name = name[:-1] if name.endswith("s") and name[:-1] in KINDS else name
    if name not in KINDS:
        raise UsageError(f"unknown kind '{value}' (use one of: {', '.join(KINDS)})")
    return name


def cite(path: object, line: object) -> str:
    """`path:line`, or the path alone when the line is unknown."""
    return f"{path}:{line}" if line else str(path)


def check_limit(limit: int) -> int:
    if not 1 <= limit <= MAX_LIMIT:
        raise UsageError(f"limit must be between 1 and {MAX_LIMIT}, got {limit}")
    return limit


def search(
    ws: Workspace, query: str, kinds: list[str] | None, limit: int, summary: bool
) -> dict[str, Any]:
    """Ranked short hits `{type, id, title, score, cite, path, line}`, or counts per type."""
    from orkestra.search import service

    service.check_query(query, check_limit(limit))
    types = service.parse_types(",".join(kinds), "kinds") if kinds else ()
    key = ("search", query, types, limit, summary)
    return ws.memo(key, lambda: _search(ws, query, types, limit, summary))


def _search(
    ws: Workspace, query: str, types: tuple[str, ...], limit: int, summary: bool
) -> dict[str, Any]:
    from orkestra.search import service
    from orkestra.search.rank import Filters

    filters = Filters(types=types)
    unloaded: list[Problem] = []
    if "code" in types:  # the code map's hits too, as `orkestra search --type code` gives them
        from orkestra.search import code_hits

        answer = code_hits.find_with_code(ws.root, query, filters, limit, summary, unloaded)
        return _cited(answer, unloaded)
    ranking = _ranking(ws, query, filters, limit, unloaded)
    if summary:
        return _cited(service.summary(query, ranking), unloaded)
    results = [hit.to_dict() for hit in ranking.hits]
    return _cited({"query": query, "total": ranking.total, "results": results}, unloaded)


def _ranking(
    ws: Workspace, query: str, filters: Filters, limit: int, unloaded: list[Problem]
) -> Ranking:
    """The hits from the warm index; one damaged under the server (another process's bad
    write) is discarded and rebuilt, and the sources answer when it cannot be used."""
    import sqlite3

    from orkestra.search import service

    for _attempt in range(2):
        conn = ws.connection()
        if conn is None:
            break
        try:
            warm = ws.warm_search
            return service.search_open(
                conn, query, filters, limit=limit, warm=warm, unloaded=unloaded
            )
        except sqlite3.DatabaseError:  # damaged: the next `connection()` rebuilds it
            ws.discard_index()
    return service.search(ws.root, query, filters, limit=limit, use_index=False, unloaded=unloaded)


def _cited(answer: dict[str, Any], unloaded: list[Problem]) -> dict[str, Any]:
    """A search answer with each hit's `cite` and the files left out of it (the `findings`,
    as the CLI warns about them)."""
    for row in answer.get("results") or []:
        row["cite"] = cite(row["path"], row["line"])
    if unloaded:
        answer["findings"] = [p.to_dict() for p in unloaded]
    return answer


def get(ws: Workspace, kind: str, ident: str) -> dict[str, Any]:
    """Everything about one entry (the CLI's `info`), with its citation."""
    from orkestra.registry import inventory

    name = kind_of(kind)
    if name == "note":
        return _note(ws, ident)
    if name == "claim":
        return _claim(ws, ident)
    reg = ws.registry()
    info = {
        "agent": inventory.agent_info,
        "skill": inventory.skill_info,
        "scope": inventory.scope_info,
        "truth": inventory.truth_info,
        "decision": inventory.decision_info,
    }[name](reg, ident)
    loc = reg.loc(name, ident)
    return {"kind": name, "cite": cite(loc.file, loc.line), **info}


def _note(ws: Workspace, ident: str) -> dict[str, Any]:
    from orkestra.knowledge import settings
    from orkestra.knowledge.service import info

    note = info(settings.load(ws.root), ident)
    return {"kind": "note", "cite": cite(note["path"], 1), **note}


def _claim(ws: Workspace, ident: str) -> dict[str, Any]:
    from orkestra.core.errors import NotFound
    from orkestra.knowledge import settings
    from orkestra.knowledge.claims.store import lines_of, load_all

    cfg = settings.load(ws.root)
    for stored in load_all(cfg.folder):
        if stored.claim.get("id") == ident:
            path = f"{cfg.path}/{stored.file}"
            line = lines_of(cfg.folder, [stored])[(stored.file, ident)]
            return {"kind": "claim", "cite": cite(path, line), "path": path, **stored.claim}
    raise NotFound(f"no claim with id '{ident}'; list(kind='claim') shows them")


#: list filters each kind accepts (passed to the CLI's list function)
FILTERS: dict[str, tuple[str, ...]] = {
    "agent": (),
    "skill": ("layer", "source", "dormant"),
    "scope": (),
    "truth": ("status",),
    "decision": ("status", "domain"),
    "note": ("type", "confidence"),
    "claim": ("confidence", "category"),
}


def listing(ws: Workspace, kind: str, filters: dict[str, Any] | None, limit: int) -> dict[str, Any]:
    """Short rows of one kind (the CLI's `list`), each with a citation; `{kind, total, items}`."""
    name = kind_of(kind)
    check_limit(limit)
    given = dict(filters or {})
    unknown = sorted(set(given) - set(FILTERS[name]))
    if unknown:
        allowed = ", ".join(FILTERS[name]) or "none"
        raise UsageError(f"unknown filter '{unknown[0]}' for {name} (allowed: {allowed})")
    for key, value in sorted(given.items()):  # a list or an object here must not crash a lister
        wanted = bool if key == "dormant" else str
        if value is not None and not isinstance(value, wanted):
            kind_name = "true or false" if wanted is bool else "a string"
            raise UsageError(f"filter '{key}' must be {kind_name}, not {type(value).__name__}")
    rows = _rows(ws, name, given)
    claim_lines = _claim_lines(ws) if name == "claim" else {}
    for row in rows:
        row["cite"] = _row_cite(ws, name, row, claim_lines)
    return {"kind": name, "total": len(rows), "items": rows[:limit]}


def _claim_lines(ws: Workspace) -> dict[tuple[str, str], int]:
    """(project-relative claims file, claim id) -> its line, for the claim rows' citations."""
    from orkestra.knowledge import settings
    from orkestra.knowledge.claims.store import lines_of, load_all, shown

    cfg = settings.load(ws.root)
    found = lines_of(cfg.folder, load_all(cfg.folder))
    where = shown(cfg.folder)  # as the claim rows name their files (`claims.store.listing`)
    return {(f"{where}/{file}", ident): line for (file, ident), line in found.items()}


def _rows(ws: Workspace, name: str, given: dict[str, Any]) -> list[dict[str, Any]]:
    from orkestra.registry import inventory

    if name in ("note", "claim"):
        from orkestra.knowledge import settings
        from orkestra.knowledge.claims.store import listing as claims
        from orkestra.knowledge.service import list_notes

        cfg = settings.load(ws.root)
        if name == "note":
            return list_notes(cfg, given.get("type"), given.get("confidence"))
        return claims(cfg.folder, given.get("confidence"), given.get("category"))
    reg = ws.registry()
    if name == "agent":
        return inventory.agents_list(reg)
    if name == "skill":
        return inventory.skills_list(reg, **given)
    if name == "scope":
        return inventory.scopes_list(reg)
    if name == "truth":
        return inventory.truths_list(reg, **given)
    return inventory.decisions_list(reg, **given)


def _row_cite(
    ws: Workspace, name: str, row: dict[str, Any], claim_lines: dict[tuple[str, str], int]
) -> str:
    if name == "note":
        return cite(row["path"], 1)
    if name == "claim":
        return cite(row["file"], claim_lines.get((str(row["file"]), str(row["id"])), 1))
    ident = str(row.get("id") or row.get("name"))
    loc = ws.registry().loc(name, ident)
    return cite(loc.file, loc.line)
