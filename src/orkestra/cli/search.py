"""`orkestra search Q`: every registry at once (PRODUCT.md §5 level 5, §7)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from orkestra.cli import common
from orkestra.cli.common import FormatOption, emit, new_app
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format

app = new_app("Search every registry at once.")


@app.command("search")
def search(
    query: Annotated[
        str, typer.Argument(help="Words to look for (ids, names, phrases; typos ok).")
    ],
    summary: Annotated[
        bool, typer.Option("--summary", help="Only the number of hits per type.")
    ] = False,
    limit: Annotated[int, typer.Option("--limit", "-n", help="At most this many hits.")] = 20,
    types: Annotated[
        list[str] | None,
        typer.Option(
            "--type",
            "-t",
            help="Comma-separated (or repeated) types: agents,skills,scopes,decisions,truths,"
            "domains,notes,claims,packages; code adds code map hits.",
        ),
    ] = None,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """{"query", "total", "results": [{type, id, title, score, matched_fields, path, line}]}."""
    from orkestra.search.rank import Filters
    from orkestra.search.service import as_text, check_query, find, parse_types

    filters = Filters(types=parse_types(None if types is None else ",".join(types)))
    check_query(query, limit)  # usage errors before the project is looked for
    unloaded: list[Any] = []
    result = find(
        _root(), query, filters=filters, limit=limit, want_summary=summary, unloaded=unloaded
    )
    common.warn_load_errors(unloaded)
    emit(result, fmt, title=f"search: {query}", text=as_text(result) if fmt.human else None)
    return ExitCode.OK


def _root() -> Path:
    from orkestra.search.service import project_root

    return project_root(common.STATE.root)
