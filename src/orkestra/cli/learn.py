"""`orkestra learn propose|apply|promote|list` (§8.3)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from orkestra.cli.common import FormatOption, emit, new_app
from orkestra.cli.notes import knowledge_root as project_root
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format, listing

app = new_app("Claims that grow with repetition.")

#: no `dir_okay=False`: a path that is not a readable file is the core's input error (exit 1, as
#: for every command's input path), not a usage error of the parser
InputOption = Annotated[Path, typer.Option("--input", "-i", help="A JSON file.")]


@app.command("propose")
def propose(source: InputOption, fmt: FormatOption = Format.json) -> ExitCode:
    """Classify new insights (NEW, REINFORCED, SIMILAR, CONTRADICTS) against every claim; print
    the proposal for `learn apply`. Changes nothing."""
    from orkestra.core.clock import today
    from orkestra.knowledge import settings
    from orkestra.knowledge.claims.propose import PROPOSE_TAKES, read_input
    from orkestra.knowledge.claims.propose import propose as run

    cfg = settings.load(project_root())
    data, text = read_input(source, PROPOSE_TAKES)
    result = run(cfg.folder, data, str(source), cfg.project, today().isoformat(), text=text)
    emit(result, fmt, title="proposal")
    return ExitCode.OK


@app.command("apply")
def apply(source: InputOption, fmt: FormatOption = Format.json) -> ExitCode:
    """Apply a proposal's actions (save, reinforce, merge, keep-both, skip), all or nothing."""
    from orkestra.core.clock import today
    from orkestra.knowledge import settings
    from orkestra.knowledge.claims.apply import apply_and_index
    from orkestra.knowledge.claims.propose import APPLY_TAKES, read_input

    cfg = settings.load(project_root())
    data, text = read_input(source, APPLY_TAKES)
    result = apply_and_index(cfg, data, str(source), today(), text=text)
    emit(result, fmt, title="learn apply", text=result["summary"])
    return ExitCode.OK


@app.command("promote")
def promote(
    claim_id: Annotated[str, typer.Argument(metavar="ID", help="Claim id, e.g. CL-1a2b3c4d.")],
    owner: Annotated[
        str | None,
        typer.Option(
            "--owner", help="Truths file registries/truths/OWNER.yaml (default: the project)."
        ),
    ] = None,
    prefix: Annotated[
        str | None,
        typer.Option(
            "--prefix", help="Id letters for GT-XXX-NNN (default: the file's, or the owner's)."
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Promote a claim that is not high confidence.")
    ] = False,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Turn a high-confidence claim into a ground truth."""
    from orkestra.core.clock import today
    from orkestra.knowledge import settings
    from orkestra.knowledge.claims.promote import promote as run

    root = project_root()
    cfg = settings.load(root)
    result = run(
        root,
        cfg.folder,
        claim_id,
        owner or _owner(cfg.project),
        today().isoformat(),
        prefix=prefix,
        force=force,
    )
    emit(result, fmt, title="promoted", text=result["truth"])
    return ExitCode.OK


def _owner(project: str) -> str:
    import re

    return "-".join(re.findall(r"[a-z0-9]+", project.lower())) or "project"


@app.command("list")
def list_claims(
    confidence: Annotated[
        list[str] | None, typer.Option("--confidence", help="low, medium or high (repeatable).")
    ] = None,
    category: Annotated[
        list[str] | None,
        typer.Option(
            "--category", help="technical, solution, pattern, tool or warning (repeatable)."
        ),
    ] = None,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Every claim, optionally of one confidence or category."""
    from orkestra.knowledge import settings
    from orkestra.knowledge.claims.store import filters
    from orkestra.knowledge.claims.store import listing as claims_of

    filters(confidence, category)  # a usage error before the project is looked for
    cfg = settings.load(project_root())
    rows = claims_of(cfg.folder, confidence, category)
    emit(listing("claims", rows), fmt, title="claims")
    return ExitCode.OK
