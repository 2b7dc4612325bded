"""`orkestra code index|symbol|refs|deps|impact|outline|search`: the code map (PRODUCT.md §12)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from orkestra.cli import common
from orkestra.cli.common import FormatOption, emit, new_app
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format

app = new_app("The code map: symbols, references, dependencies, impact, search (path:line).")


def _people(items: list[dict[str, Any]], *keys: str) -> list[dict[str, Any]]:
    """The columns a person reads first (JSON keeps every field)."""
    return [{k: item.get(k) for k in keys} for item in items]


def _root() -> Path:
    from orkestra.core.project import find_root

    return find_root(common.STATE.root)


@app.command("index")
def index(
    full: Annotated[
        bool, typer.Option("--full", help="Re-read every file, not only changed.")
    ] = False,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Bring .orkestra/code.sqlite up to date; languages whose quality gate is not GREEN are
    listed in `not_green`."""
    from orkestra.codemap import api

    emit(api.index(_root(), full=full), fmt, title="code index")
    return ExitCode.OK


@app.command("symbol")
def symbol(
    name: Annotated[str, typer.Argument(help="Exact name or qualified name (Class.method).")],
    kind: Annotated[
        str | None,
        typer.Option("--kind", help="Only this kind: function, method, class, constant, ..."),
    ] = None,
    similar: Annotated[
        bool, typer.Option("--similar", help="Also near and partial names.")
    ] = False,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Where NAME is defined; an unknown name gives an empty result (fuzzy only with --similar)."""
    from orkestra.codemap import api

    result = api.find_symbol(_root(), name, kind, similar)
    rows = _people(result["symbols"], "location", "kind", "qualname", "signature")
    emit(result if fmt is Format.json else rows, fmt, title=f"symbol {name}")
    return ExitCode.OK


@app.command("refs")
def refs(
    name: Annotated[str, typer.Argument(help="Name or qualified name of a definition.")],
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Who calls or uses NAME (resolved references first, then unresolved uses of the name)."""
    from orkestra.codemap import api

    result = api.find_references(_root(), name)
    rows = _people(
        result["references"], "location", "kind", "scope", "resolved", "guessed", "snippet"
    )
    emit(result if fmt is Format.json else rows, fmt, title=f"refs {name}")
    return ExitCode.OK


@app.command("deps")
def deps(
    path: Annotated[str, typer.Argument(help="A file path relative to the project root.")],
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """What PATH imports (and which files that is) and which files import it."""
    from orkestra.codemap import api

    emit(api.dependencies(_root(), path), fmt, title=f"deps {path}")
    return ExitCode.OK


@app.command("impact")
def impact(
    target: Annotated[str, typer.Argument(help="A symbol (name or Class.method) or a file path.")],
    depth: Annotated[
        int, typer.Option("--depth", min=1, help="Follow at most N reference hops (default 3).")
    ] = 3,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Transitive dependents of a symbol or file, with depth, ranked by centrality;
    `truncated` says more lie beyond --depth."""
    from orkestra.codemap import api

    result = api.impact(_root(), target, depth)
    rows = _people(
        result["dependents"], "location", "symbol", "kind", "depth", "guessed", "centrality"
    )
    people = {k: v for k, v in result.items() if k != "dependents"} | {"dependents": rows}
    emit(result if fmt is Format.json else people, fmt, title=f"impact {target}")
    return ExitCode.OK


@app.command("outline")
def outline(
    path: Annotated[str, typer.Argument(help="A file path relative to the project root.")],
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """The definitions of PATH in order, with their nesting depth."""
    from orkestra.codemap import api

    result = api.outline(_root(), path)
    rows = _people(result["symbols"], "location", "depth", "kind", "qualname", "signature")
    emit(result if fmt is Format.json else rows, fmt, title=f"outline {path}")
    return ExitCode.OK


@app.command("search")
def search(
    query: Annotated[str, typer.Argument(help="A question, an identifier, or a quoted string.")],
    limit: Annotated[int, typer.Option("--limit", "-n", help="At most this many hits.")] = 10,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Ranked path:line answers, with the intent, its confidence and the fusion strategy."""
    from orkestra.codemap import api

    api.check_search(query, limit)  # a usage error before the project is looked for
    result = api.code_search(_root(), query, limit)
    title = f"code search: {query} ({result['intent']} {result['confidence']}, {result['fusion_strategy']})"
    rows = _people(result["results"], "location", "snippet", "score")
    emit(result if fmt is Format.json else rows, fmt, title=title)
    return ExitCode.OK
