"""`orkestra changelog render`: CHANGELOG.md per package from the release-notes ledger."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.common import FormatOption, emit, new_app, project_root
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format, listing

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
    into_existing: Annotated[
        bool,
        typer.Option(
            "--into-existing",
            help="Keep a hand-written CHANGELOG.md byte for byte; maintain a managed block "
            "for the ledger's releases after its title.",
        ),
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show what would be done to each file; write nothing.")
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Rewrite a CHANGELOG.md Orkestra rendered even if it was edited since (the edit "
            "is lost).",
        ),
    ] = False,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Write CHANGELOG.md (Keep a Changelog 1.1.0) for one package or all of them.

    A CHANGELOG.md that Orkestra did not write is never overwritten: the command refuses
    (exit 1) unless --into-existing is given. One Orkestra rendered and someone edited since is
    refused the same way unless --force (or --into-existing) is given.
    """
    from orkestra.mining.changelog import parse_packages, render_all
    from orkestra.mining.sync import load_config

    names = parse_packages(package, every)
    root = project_root()
    results = render_all(
        root,
        load_config(root),
        names,
        check=check,
        into_existing=into_existing,
        dry_run=dry_run,
        force=force,
    )
    emit(listing("changelogs", results), fmt, title="changelog render")
    if dry_run:
        return ExitCode.failed_if(any(r["action"] == "refuse" for r in results))
    return ExitCode.failed_if(check and any(r["changed"] for r in results))
