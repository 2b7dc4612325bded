"""`orkestra changelog render`: CHANGELOG.md per package from the release-notes ledger."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.common import FormatOption, emit, new_app, project_root
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format

app = new_app("Render per-package changelogs from the ledger.")


@app.callback()
def _group() -> None:
    """Render per-package changelogs from the ledger."""


@app.command("render")
def render(
    package: Annotated[str | None, typer.Option("--package", "-p", help="Package name.")] = None,
    every: Annotated[bool, typer.Option("--all", help="Every configured package.")] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Write nothing; exit 1 if a file would change.")
    ] = False,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Write CHANGELOG.md (Keep a Changelog 1.1.0) for one package or all of them."""
    from orkestra.mining.changelog import parse_packages, render_all
    from orkestra.mining.sync import load_config

    names = parse_packages(package, every)
    root = project_root()
    results = render_all(root, load_config(root), names, check=check)
    emit(results, fmt, title="changelog render")
    return ExitCode.failed_if(check and any(r["changed"] for r in results))
