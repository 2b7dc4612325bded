"""`orkestra skills list|info`."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.common import FormatOption, emit, load_registry, new_app
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format, listing

app = new_app("Skills.")


@app.command("list")
def list_skills(
    layer: Annotated[
        list[str] | None, typer.Option("--layer", help="Only this layer (K0..K4; repeatable).")
    ] = None,
    source: Annotated[
        list[str] | None, typer.Option("--source", help="core or vendor (repeatable).")
    ] = None,
    dormant: Annotated[
        bool | None, typer.Option("--dormant/--active", help="Only dormant or only active skills.")
    ] = None,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Every skill (core and vendor) with layer, type, source and whether it is dormant."""
    from orkestra.core.choices import choices
    from orkestra.registry import inventory

    layer = list(choices("--layer", layer, inventory.SKILL_LAYERS, shown="K0..K4"))
    source = list(choices("--source", source, inventory.SKILL_SOURCES))  # named as typed
    rows = inventory.skills_list(
        load_registry(lazy=True), layer=layer, source=source, dormant=dormant
    )
    emit(listing("skills", rows), fmt, title="skills")
    return ExitCode.OK


@app.command("info")
def info(
    name: Annotated[str, typer.Argument(help="Skill name.")], fmt: FormatOption = Format.json
) -> ExitCode:
    """A skill with tags, tools, scopes, sections, resources and the agents that load it."""
    from orkestra.registry import inventory

    emit(inventory.skill_info(load_registry(lazy=True), name), fmt, title=name)
    return ExitCode.OK
