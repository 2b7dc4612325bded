"""`orkestra system status`."""

from __future__ import annotations

from orkestra.cli.common import FormatOption, emit, load_registry, new_app
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format

app = new_app("Project health.")


@app.command("status")
def status(fmt: FormatOption = Format.json) -> ExitCode:
    """Is everything healthy? Counts of every kind, ledger coverage, last sync and drift. Exits
    1 when it is not (validation errors), as `validate` does, so `system status && ...` works."""
    from orkestra.report.status import system_status

    report = system_status(load_registry(warn=False))
    ledger = report["ledger"]
    if ledger.get("file"):  # the commit index cannot be used: the rest is answered all the same
        from orkestra.cli import errors

        errors.warn(
            f"{ledger['reason']} (ledger coverage left out)", code="cache", file=ledger["file"]
        )
    emit(report, fmt, title="status")
    return ExitCode.failed_if(not report["healthy"])


@app.callback()
def _group() -> None:
    """Project health."""
