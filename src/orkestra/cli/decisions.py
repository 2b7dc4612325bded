"""`orkestra decisions list|info`."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.common import FormatOption, emit, load_registry, new_app
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format, listing

app = new_app("Decision records.")


@app.command("list")
def list_decisions(
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="At most N records (total counts all).")
    ] = None,
    status: Annotated[
        list[str] | None,
        typer.Option("--status", help="proposed|active|superseded|deprecated (repeatable)."),
    ] = None,
    domain: Annotated[
        list[str] | None, typer.Option("--domain", help="Only this decision domain (repeatable).")
    ] = None,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Decision records, newest first."""
    from orkestra.core.choices import choices
    from orkestra.registry import inventory

    status = list(choices("--status", status, inventory.DECISION_STATUSES))  # named as typed
    rows = inventory.decisions_list(load_registry(lazy=True), status=status, domain=domain)
    emit(listing("decisions", rows[:limit], total=len(rows)), fmt, title="decisions")
    return ExitCode.OK


@app.command("info")
def info(
    decision_id: Annotated[str, typer.Argument(help="Decision id, e.g. DEC-RG-001.")],
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Everything about one decision record."""
    from orkestra.registry import inventory

    emit(inventory.decision_info(load_registry(lazy=True), decision_id), fmt, title=decision_id)
    return ExitCode.OK
