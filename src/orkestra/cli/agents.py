"""`orkestra agents list|info`."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.common import FormatOption, emit, load_registry, new_app
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format, listing

app = new_app("Agents.")


@app.command("list")
def list_agents(fmt: FormatOption = Format.json) -> ExitCode:
    """Every agent: name, description, category, role, model, status, skill count."""
    from orkestra.registry import inventory

    emit(listing("agents", inventory.agents_list(load_registry(lazy=True))), fmt, title="agents")
    return ExitCode.OK


@app.command("info")
def info(
    name: Annotated[str, typer.Argument(help="Agent name.")], fmt: FormatOption = Format.json
) -> ExitCode:
    """The resolved agent: characters, domains, full tool list, skills and where each came from."""
    from orkestra.registry import inventory

    emit(inventory.agent_info(load_registry(lazy=True), name), fmt, title=name)
    return ExitCode.OK
