"""`orkestra truths list|info`."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.common import FormatOption, emit, load_registry, new_app
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format, listing

app = new_app("Ground truths.")


@app.command("list")
def list_truths(
    status: Annotated[
        list[str] | None,
        typer.Option("--status", help="current, tentative or deprecated (repeatable)."),
    ] = None,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Ground truths, optionally of one status."""
    from orkestra.core.choices import choices
    from orkestra.registry import inventory

    status = list(choices("--status", status, inventory.TRUTH_STATUSES))  # named as typed
    rows = inventory.truths_list(load_registry(lazy=True), status=status)
    emit(listing("truths", rows), fmt, title="truths")
    return ExitCode.OK


@app.command("info")
def info(
    truth_id: Annotated[str, typer.Argument(help="Truth id, e.g. GT-ORK-001.")],
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Everything about one ground truth."""
    from orkestra.registry import inventory

    emit(inventory.truth_info(load_registry(lazy=True), truth_id), fmt, title=truth_id)
    return ExitCode.OK


@app.command("verify")
def verify(
    truth_id: Annotated[str | None, typer.Argument(help="Only this truth.")] = None,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Check each truth's evidence exists (and `path#anchor` / `path:symbol` is found), and report
    stale last_verified dates. Exits 1 when any truth fails or a truth file cannot be loaded."""
    from orkestra.registry.evidence import verify_truths

    report = verify_truths(load_registry(warn=False), truth_id=truth_id)
    emit(report, fmt, title="truths verify")
    return ExitCode.failed_if(report["failing"] or report["errors"])
