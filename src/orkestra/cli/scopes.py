"""`orkestra scopes list|info`."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.common import FormatOption, emit, load_registry, new_app
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format, listing

app = new_app("Scopes.")


@app.command("list")
def list_scopes(fmt: FormatOption = Format.json) -> ExitCode:
    """Every scope with its skill and agent counts and whether it is dormant."""
    from orkestra.registry import inventory

    emit(listing("scopes", inventory.scopes_list(load_registry(lazy=True))), fmt, title="scopes")
    return ExitCode.OK


@app.command("info")
def info(
    name: Annotated[str, typer.Argument(help="Scope name.")], fmt: FormatOption = Format.json
) -> ExitCode:
    """A scope's skills and the agents that activate it."""
    from orkestra.registry import inventory

    emit(inventory.scope_info(load_registry(lazy=True), name), fmt, title=name)
    return ExitCode.OK
