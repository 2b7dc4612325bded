"""`orkestra mine ...`: git history into the classification ledger (PRODUCT.md §6)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from orkestra.cli.common import FormatOption, emit, load_registry, new_app, project_root
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format, listing

app = new_app("Mine git history into the classification ledger.")


class Domain(StrEnum):
    changelog = "changelog"
    decisions = "decisions"


@app.callback()
def _group() -> None:
    """Mine git history into the classification ledger."""


@app.command("sync")
def sync(fmt: FormatOption = Format.json) -> ExitCode:
    """Index the current branch's history (incremental; a rewritten history is repaired).

    A classified commit that a rebase, amend or cherry-pick replaced (same change, new sha)
    passes its classification on to the new commit (matched by `git patch-id`)."""
    from orkestra.mining.moved import sync_and_carry as run

    emit(run(project_root()), fmt, title="mine sync")
    return ExitCode.OK


@app.command("status")
def status(fmt: FormatOption = Format.json) -> ExitCode:
    """Ledger coverage of the indexed history, per domain."""
    from orkestra.mining.report import status as run
    from orkestra.mining.sync import sync as refresh

    root = project_root()
    refresh(root)
    emit(run(root), fmt, title="mine status")
    return ExitCode.OK


@app.command("candidates")
def candidates(
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="At most N commits.")] = 20,
    full: Annotated[
        bool, typer.Option("--full", help="Add body and classification hints.")
    ] = False,
    domain: Annotated[
        list[str] | None,
        typer.Option(
            "--domain",
            help="Unclassified in this domain only (changelog or decisions; repeatable).",
        ),
    ] = None,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Commits not yet classified, newest first, with signals and stats."""
    from orkestra.core.choices import choices
    from orkestra.mining.report import candidates as run
    from orkestra.mining.sync import sync as refresh

    domains = choices("--domain", domain, [d.value for d in Domain])
    root = project_root()
    refresh(root)
    found, total = run(root, limit=limit, full=full, domains=domains)
    rows = [_row(c) for c in found] if fmt.human else found
    emit(listing("candidates", rows, total=total), fmt, title="mine candidates")
    return ExitCode.OK


def _row(candidate: dict[str, Any]) -> dict[str, Any]:
    """One compact table row per candidate (the JSON keeps every field)."""
    sig, stats = candidate["signals"], candidate["stats"]
    return {
        "sha": candidate["sha"][:10],
        "date": candidate["date"][:10],
        "type": sig["commit_type"] or "",
        "scope": sig["scope"] or "",
        "!": "!" if sig["breaking"] else "",
        "packages": sig["packages"],
        "files": stats["files"],
        "+/-": f"+{stats['insertions']}/-{stats['deletions']}",
        "subject": candidate["subject"],
    }


@app.command("classify")
def classify(
    sha: Annotated[str, typer.Argument(help="Commit sha (abbreviated is fine).")],
    changelog: Annotated[
        str | None,
        typer.Option(
            "--changelog", help="Release it: added|changed|deprecated|removed|fixed|security."
        ),
    ] = None,
    decision: Annotated[
        str | None,
        typer.Option("--decision", help="Extract into decision DEC-XX-NNN (or `pending`)."),
    ] = None,
    skip: Annotated[str | None, typer.Option("--skip", help="Skip it, with a reason.")] = None,
    summary: Annotated[str | None, typer.Option("--summary", help="The changelog line.")] = None,
    package: Annotated[str | None, typer.Option("--package", help="Package it belongs to.")] = None,
    domain: Annotated[
        Domain | None, typer.Option("--domain", help="With --skip: skip in this domain only.")
    ] = None,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Record one classification in the ledger (and a release note for a release)."""
    from orkestra.mining import classify as core
    from orkestra.mining.sync import load_config
    from orkestra.mining.sync import sync as refresh

    requests = core.from_flags(  # its usage errors before the project is looked for
        sha,
        changelog=changelog,
        decision=decision,
        skip=skip,
        summary=summary,
        package=package,
        domain=domain.value if domain else None,
    )
    root = project_root()
    config = load_config(root)
    refresh(root, config)
    emit(core.classify(root, requests, config), fmt, title="mine classify")
    return ExitCode.OK


@app.command("commit")
def commit(
    input_file: Annotated[
        Path, typer.Option("--input", "-i", help="JSONL file of classifications ('-' for stdin).")
    ],
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Apply a batch of classifications: all lines are checked before any is written.

    The batch is JSON Lines, one classification an object a line (docs/mining.md):

    {"sha":"abc123","domain":"changelog","action":"release","category":"added","summary":"Add DuckDB"}

    {"sha": "abc123", "domain": "decisions", "action": "extract", "decision_id": "DEC-PL-142"}

    {"sha": "def456", "domain": "changelog", "action": "skip", "reason": "Chore: dependency update"}

    Fields: sha (full or abbreviated), domain (changelog | decisions), action (changelog:
    release | skip; decisions: extract | pending | skip), category (release only: added,
    changed, deprecated, removed, fixed, security), summary (the changelog line; default: the
    commit's description), package (default: the packages the commit touches, else the root
    package, whose CHANGELOG.md is the project's), decision_id (extract only), reason (skip
    only). Every bad line is reported (up to 20) and nothing is written.
    """
    from orkestra.mining import classify as core
    from orkestra.mining.sync import load_config
    from orkestra.mining.sync import sync as refresh

    root = project_root()
    config = load_config(root)
    refresh(root, config)
    requests = core.read_batch_arg(input_file)
    emit(core.classify(root, requests, config), fmt, title="mine commit")
    return ExitCode.OK


@app.command("validate")
def validate(
    quick: Annotated[bool, typer.Option("--quick", help="Skip the checks that need git.")] = False,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Check both ledgers: line format, ids, conflicts, decision references, shas."""
    from orkestra.mining.validate import summary
    from orkestra.mining.validate import validate as run

    found = run(load_registry(warn=False), quick=quick)
    text = "\n".join(f.format() for f in found) or "ledgers ok"
    emit(summary(found), fmt, title="mine validate", text=text)
    return ExitCode.failed_if(any(f.severity == "error" for f in found))
