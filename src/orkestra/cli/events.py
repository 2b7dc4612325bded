"""`orkestra events summary [--since]`: the local hook events log aggregated."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.common import FormatOption, emit, new_app
from orkestra.cli.notes import knowledge_root as project_root
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format

app = new_app("Summaries of the local hook events log.")


@app.callback()
def _group() -> None:
    """Summaries of the local hook events log (keeps `summary` a subcommand)."""


@app.command("summary")
def summary(
    since: Annotated[
        str | None, typer.Option("--since", help="YYYY-MM-DD, Nd (days) or Nh (hours).")
    ] = None,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Counts by event, tool_type, mcp_server, bash_cli and subagent; failures."""
    from orkestra.core.clock import today
    from orkestra.hooks.summary import since_stamp
    from orkestra.hooks.summary import summary as run

    since_stamp(since, today())  # a usage error before the project is looked for
    emit(run(project_root(), since, today()), fmt, title="events")
    return ExitCode.OK
