"""`orkestra hooks install [--git]|uninstall` (§8.4)."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.common import FormatOption, emit, new_app
from orkestra.cli.notes import knowledge_root as project_root
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format

app = new_app("Install or remove Claude Code hooks.")


@app.command("install")
def install(
    git: Annotated[
        bool, typer.Option("--git", help="Also add a git pre-commit hook validating notes.")
    ] = False,
    client: Annotated[
        list[str] | None,
        typer.Option(
            "--client",
            help="Also install for codex, copilot or cursor (repeatable; default: the "
            "configured targets).",
        ),
    ] = None,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Merge our SessionStart, PostToolUse and Stop hooks into .claude/settings.json, keeping
    every other entry; likewise .codex/hooks.json, .github/hooks/orkestra.json and
    .cursor/hooks.json for the configured clients."""
    from orkestra.hooks.install import check_clients
    from orkestra.hooks.install import install as run
    from orkestra.knowledge import settings

    root = project_root()
    if client is not None:
        check_clients(client)
    else:
        from orkestra.registry.config_file import load_config

        client = list(load_config(root).targets)
    knowledge = settings.load(root).path  # its usage log is union-merged (.gitattributes)
    data = run(root, git=git, clients=tuple(client), knowledge_path=knowledge)
    problem = data["gitattributes"].get("problem")
    if problem is not None:  # the union merge of the usage log: the user's to add
        from orkestra.cli.errors import warn

        warn(problem, code="gitattributes", file=data["gitattributes"]["file"])
    emit(data, fmt, title="hooks install")
    return ExitCode.OK


@app.command("uninstall")
def uninstall(fmt: FormatOption = Format.json) -> ExitCode:
    """Remove only our hooks from .claude/settings.json (and our git pre-commit hook)."""
    from orkestra.hooks.install import uninstall as run

    emit(run(project_root()), fmt, title="hooks uninstall")
    return ExitCode.OK
