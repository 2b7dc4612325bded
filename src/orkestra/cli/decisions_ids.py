"""`orkestra decisions new|update|renumber`: ids allocated from records and the ledger."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.common import FormatOption, emit, new_app, project_root
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format

app = new_app("Decision records: new, update, renumber.")

CommitOption = Annotated[
    list[str] | None, typer.Option("--commit", "-c", help="Source commit sha (repeatable).")
]


@app.command("new")
def new(
    domain: Annotated[str, typer.Option("--domain", "-d", help="Decision domain (or its code).")],
    title: Annotated[str | None, typer.Option("--title", help="Title of the record.")] = None,
    summary: Annotated[str | None, typer.Option("--summary", help="One-paragraph summary.")] = None,
    commit: CommitOption = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only show the id that would be allocated.")
    ] = False,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Allocate the next id of a domain and write its record (source commits from --commit)."""
    from orkestra.mining.decision_ids import new as run

    result = run(
        project_root(), domain, title=title, summary=summary, commits=commit, dry_run=dry_run
    )
    emit(result, fmt, title="decisions new")
    return ExitCode.OK


@app.command("update")
def update(
    decision_id: Annotated[str, typer.Argument(metavar="ID", help="DEC-XX-NNN")],
    commit: CommitOption = None,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Append source commits (given and from the ledger); create a pending id's record."""
    from orkestra.mining.decision_ids import update as run

    emit(run(project_root(), decision_id, commit), fmt, title="decisions update")
    return ExitCode.OK


@app.command("renumber")
def renumber(
    decision_id: Annotated[str, typer.Argument(metavar="ID", help="DEC-XX-NNN")],
    file: Annotated[
        str | None, typer.Option("--file", help="Which record to move when the id is duplicated.")
    ] = None,
    to: Annotated[str | None, typer.Option("--to", help="The new id (default: next free).")] = None,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Move a record to a new id and rewrite its references (ledger lines superseded)."""
    from orkestra.mining.renumber import renumber as run

    emit(run(project_root(), decision_id, file=file, to=to), fmt, title="decisions renumber")
    return ExitCode.OK
