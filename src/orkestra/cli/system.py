"""`orkestra system status`."""

from __future__ import annotations

from orkestra.cli.common import FormatOption, emit, load_registry, new_app
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format

app = new_app("Project health.")


@app.command("status")
def status(fmt: FormatOption = Format.json) -> ExitCode:
    """Is everything healthy? Counts of every kind, ledger coverage, last sync and drift."""
    from orkestra.report.status import system_status

    emit(system_status(load_registry(warn=False)), fmt, title="status")
    return ExitCode.OK


@app.callback()
def _group() -> None:
    """Project health."""
