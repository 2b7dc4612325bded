"""`orkestra notes new|list|info|check|verify|index` (§8.1, §8.2)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from orkestra.cli.common import FormatOption, emit, new_app
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format, listing

if TYPE_CHECKING:
    from orkestra.knowledge.settings import Settings

#: what lists every problem of the notes (a warning's hint)
CHECK = "orkestra notes check"

app = new_app("Knowledge notes checked against the code.")


def knowledge_root() -> Path:
    """The project root like `project_root()`, without importing the registry loader (fast)."""
    from orkestra.cli.common import STATE
    from orkestra.core.project import find_root

    return find_root(STATE.root)


def _settings() -> Settings:
    from orkestra.knowledge import settings

    return settings.load(knowledge_root())


@app.command("new")
def new(
    kind: Annotated[
        str,
        typer.Argument(
            metavar="TYPE", help="glossary, repo, convention, decision, recipe or gotcha."
        ),
    ],
    title: Annotated[
        str, typer.Argument(help="The note's title (its file name is derived from it).")
    ],
    alias: Annotated[
        list[str] | None, typer.Option("--alias", help="Another name (repeatable).")
    ] = None,
    source: Annotated[
        list[str] | None, typer.Option("--source", help="[repo: ]path[#pattern] (repeatable).")
    ] = None,
    tag: Annotated[
        list[str] | None, typer.Option("--tag", help="A tag such as area/cases (repeatable).")
    ] = None,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Create a note (confidence observed) in its type's folder."""
    from orkestra.core.clock import today
    from orkestra.knowledge.service import new_note, note_type

    note_type(kind)  # a usage error before the project is looked for
    result = new_note(
        _settings(), kind, title, today(), aliases=alias or [], sources=source or [], tags=tag or []
    )
    emit(result, fmt, title="note", text=result["path"])
    return ExitCode.OK


@app.command("list")
def list_notes(
    kind: Annotated[
        list[str] | None, typer.Option("--type", help="Only notes of this type (repeatable).")
    ] = None,
    confidence: Annotated[
        list[str] | None, typer.Option("--confidence", help="observed or verified (repeatable).")
    ] = None,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Notes, optionally of one type or confidence."""
    from orkestra.cli.common import warn_load_errors
    from orkestra.knowledge.service import list_notes as notes_of
    from orkestra.knowledge.service import note_filters

    note_filters(kind, confidence)  # a usage error before the project is looked for
    unloaded: list[Any] = []
    rows = notes_of(_settings(), kind, confidence, unloaded)
    warn_load_errors(unloaded, check=CHECK)
    emit(listing("notes", rows), fmt, title="notes")
    return ExitCode.OK


@app.command("info")
def info(
    name: Annotated[str, typer.Argument(help="Note name (file stem), title or alias.")],
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """One note: frontmatter, links, reads and body."""
    from orkestra.cli.common import warn_load_errors
    from orkestra.knowledge.service import info as note_info

    unloaded: list[Any] = []
    result = note_info(_settings(), name, unloaded)
    warn_load_errors(unloaded, check=CHECK)
    emit(result, fmt, title=name)
    return ExitCode.OK


@app.command("check")
def check(
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Report demotions without writing them.")
    ] = False,
    no_sources: Annotated[
        bool,
        typer.Option(
            "--no-sources", help="Validate frontmatter and links only (fast; for git hooks)."
        ),
    ] = False,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Validate every note and resolve its sources against the code (confirmed, contradicted,
    ambiguous); verified notes older than the configured age fall back to observed; refresh
    knowledge/INDEX.md when it changed and record each outcome for search (not with --dry-run).
    Exits 1 on errors or contradicted notes."""
    from orkestra.core.clock import today
    from orkestra.knowledge.check import check as run_check
    from orkestra.knowledge.check import for_people

    report = run_check(_settings(), today(), apply=not dry_run, sources=not no_sources)
    emit(for_people(report) if fmt.human else report, fmt, title="notes check")
    return ExitCode.failed_if(report["errors"] or report.get("contradicted"))


@app.command("verify")
def verify(
    name: Annotated[str, typer.Argument(help="Note name (file stem), title or alias.")],
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """A human vouches for a note: confidence verified, verified_at today."""
    from orkestra.core.clock import today
    from orkestra.knowledge.service import verify as run_verify

    emit(run_verify(_settings(), name, today()), fmt, title="verified")
    return ExitCode.OK


@app.command("index")
def index(fmt: FormatOption = Format.json) -> ExitCode:
    """Regenerate knowledge/INDEX.md (types, repos, counts, Highlights)."""
    from orkestra.core.clock import today
    from orkestra.knowledge.index import write

    emit(write(_settings(), today()), fmt, title="index")
    return ExitCode.OK
