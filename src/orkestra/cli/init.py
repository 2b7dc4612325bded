"""`orkestra init [PATH]`: scaffold a minimal valid project."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from orkestra.cli.common import FormatOption, emit, new_app
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format

app = new_app("Scaffold a project.")


@app.command()
def init(
    path: Annotated[
        Path, typer.Argument(help="Project folder (default: the current one).")
    ] = Path(),
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Create the missing example files and keep every existing one as it is "
            "(never overwritten: delete a file first to get the example back).",
        ),
    ] = False,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Create registries/ with one example of every kind, plus .gitattributes and .gitignore
    lines. Refuses (naming them) when some of these files exist; --force then creates the
    missing ones and keeps the existing ones, listing those that differ from the example."""
    from orkestra.scaffold import init_project

    emit(init_project(path, force=force).to_dict(), fmt)
    return ExitCode.OK
