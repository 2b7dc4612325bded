"""`orkestra validate`: schema, references, uniqueness, layout, ledgers and quality gates."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.common import emit, new_app, project_root
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format

app = new_app("Validate every registry.")


@app.command()
def validate(
    show_warnings: Annotated[
        bool, typer.Option("--show-warnings", help="Also print quality-gate warnings.")
    ] = False,
    strict: Annotated[
        bool, typer.Option("--strict", help="Treat warnings as errors (CI runs this).")
    ] = False,
    fmt: Annotated[
        Format, typer.Option("--format", "-f", help="text (default; alias table) or json.")
    ] = Format.text,
) -> ExitCode:
    """Check schema, cross-references, uniqueness, tier/layer agreement, resources, ledgers and
    quality gates. Prints `file:line: severity code: message`; exits 1 on errors (or warnings
    with --strict). Finding codes: docs/findings.md."""
    from orkestra.render.noop import validate_report

    report = validate_report(project_root())
    shown = [f for f in report.findings if f.severity == "error" or show_warnings or strict]
    ok = report.ok(strict=strict)
    summary = {
        "ok": ok,
        "strict": strict,
        "errors": len(report.errors),
        "warnings": len(report.warnings),
    }
    if fmt.human:
        lines = [f.format() for f in shown]
        tail = f"{summary['errors']} error(s), {summary['warnings']} warning(s)"
        if report.warnings and not (show_warnings or strict):
            tail += " (use --show-warnings to see them)"
        lines.append(("ok: " if ok else "failed: ") + tail)
        emit(None, Format.text, text="\n".join(lines))
    else:
        emit({**summary, "findings": [f.to_dict() for f in shown]}, fmt)
    return ExitCode.failed_if(not ok)
