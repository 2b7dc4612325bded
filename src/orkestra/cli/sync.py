"""`orkestra sync`: render the registries into each client's files."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from orkestra.cli.common import FormatOption, emit, new_app, project_root
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format

if TYPE_CHECKING:
    from orkestra.render.sync import Mode

app = new_app("Render the registries into each client's files.")


@app.command()
def sync(
    ctx: typer.Context,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the plan as JSON; write nothing.")
    ] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Write nothing; exit 1 if anything would change (CI).")
    ] = False,
    target: Annotated[
        str | None, typer.Option("--target", help="Render only this target (e.g. claude).")
    ] = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="Take over existing files Orkestra did not write."),
    ] = False,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Validate (errors stop it, warnings don't), render every target in memory, and write only
    the files that changed, atomically. Owned files whose source is gone are deleted; files
    Orkestra did not write are never touched. The owned-file list is the committed lock
    registries/.render-lock.json."""
    mode: Mode = "check" if check else "dry-run" if dry_run else "write"
    waiting = None if _json_asked(ctx) else _waiting  # stderr holds only a JSON error then
    if target is None and not force and mode != "dry-run":  # a no-op is decided by a stat
        from orkestra.render.noop import sync_result

        data = sync_result(project_root(), mode, waiting)
    else:
        from orkestra.render.sync import sync as run

        report = run(project_root(), mode=mode, target=target, force=force, waiting=waiting)
        data = report.to_dict()
    emit(data, fmt, text=_text(data))
    return ExitCode.failed_if(not data["ok"])


def _json_asked(ctx: typer.Context) -> bool:
    """`--format json` given on the command line (errors are JSON objects then, §5)."""
    from orkestra.cli.clickcompat import click

    return ctx.get_parameter_source("fmt") is click.core.ParameterSource.COMMANDLINE and (
        ctx.params.get("fmt") is Format.json
    )


def _waiting() -> None:
    """Why `sync` pauses: another writing sync holds the project's lock (one line on stderr,
    as errors are; `core.lock.acquire` goes on waiting if stderr cannot take it)."""
    sys.stderr.write(
        "orkestra: another sync is writing in this project; waiting for it to end "
        "(.orkestra/sync.lock)\n"
    )
    sys.stderr.flush()


def _text(data: dict[str, Any]) -> str:
    lines = [
        f"{action} {path}"
        for action in ("created", "updated", "deleted", "conflicts")
        for path in data[action]
    ]
    verb = {"write": "wrote", "dry-run": "would write", "check": "would write"}[data["mode"]]
    changed = len(data["created"]) + len(data["updated"])
    lines.append(
        f"{'ok' if data['ok'] else 'drift'}: {verb} {changed} file(s), "
        f"deleted {len(data['deleted'])}, {len(data['unchanged'])} unchanged, "
        f"{len(data['conflicts'])} conflict(s)"
    )
    return "\n".join(lines)
