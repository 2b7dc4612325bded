"""`orkestra skills intake PATH` and `orkestra skills audit`: the trust review of vendor skills."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from orkestra.cli.common import FormatOption, emit, new_app
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format

app = new_app("Skill intake and trust review.")


@app.command("intake")
def intake(
    path: Annotated[
        Path, typer.Argument(help="A skill folder or a tree of them (every SKILL.md).")
    ],
    provider: Annotated[
        str | None, typer.Option("--provider", help="Vendor name (required with --apply).")
    ] = None,
    layer: Annotated[
        str | None, typer.Option("--layer", help="Layer for adopted skills (K0..K4; default K3).")
    ] = None,
    scope: Annotated[
        list[str] | None, typer.Option("--scope", help="Scope for adopted skills (repeatable).")
    ] = None,
    trust: Annotated[
        str | None,
        typer.Option("--trust", help="Declared trust: vendor, community or untrusted."),
    ] = None,
    apply: Annotated[
        bool, typer.Option("--apply", help="Register the root and the adopted skills.")
    ] = False,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Review candidate skills (read only, never executed): verdict adopt, review or reject."""
    from orkestra.core.clock import today
    from orkestra.intake import service

    reg = _registry_or_none(required=apply)
    options = service.resolve_options(
        reg,
        path,
        provider=provider,
        layer=layer,
        scopes=tuple(scope or ()),
        trust=trust,
        today=today(),
    )
    _emit(service.intake(path, reg, options, apply=apply), fmt)
    return ExitCode.OK


@app.command("audit")
def audit(fmt: FormatOption = Format.json) -> ExitCode:
    """Re-run the trust review over every adopted vendor skill; exit 1 if one must be rejected."""
    from orkestra.cli.common import load_registry
    from orkestra.core.clock import today
    from orkestra.intake import service

    report = service.audit(load_registry(warn=False), today())
    _emit(report, fmt)
    return ExitCode.failed_if(report["summary"]["rejected"])


def _registry_or_none(*, required: bool) -> Any:
    from orkestra.cli.common import load_registry
    from orkestra.core.errors import NotFound

    try:
        return load_registry(warn=False)
    except NotFound:
        if required:
            raise
        return None


def _emit(report: dict[str, Any], fmt: Format) -> None:
    from orkestra.intake.table import text_report

    emit(report, fmt, text=text_report(report) if fmt.human else None)
