"""The root `orkestra` command: global options and the lazily loaded command table."""

from __future__ import annotations

import sys
from typing import Annotated, ClassVar

import typer
import typer.main

from orkestra.cli.clickcompat import click
from orkestra.cli.commands import COMMANDS
from orkestra.cli.lazy import LazyGroup, Spec
from orkestra.cli.params import HELP_NAMES, lighten
from orkestra.core.errors import ExitCode


class RootGroup(LazyGroup):
    spec: ClassVar[Spec] = COMMANDS


def _root(
    root: Annotated[
        str | None,
        typer.Option(
            "--root",
            help="Project root (default: ORKESTRA_ROOT, else the nearest folder above the cwd "
            "holding registries/).",
        ),
    ] = None,
    version: Annotated[
        bool, typer.Option("--version", "-V", help="Print the version and exit.")
    ] = False,
) -> None:
    """Orkestra: one git-tracked source of truth for AI coding agents.

    Output is JSON by default (pipe it to jq); add --format table (or text) for people.
    Exit codes: 0 ok, 1 check failed, 2 usage error, 3 internal error, 130 interrupted.
    Hook handlers: orkestra hook session-start|post-tool-use|stop.
    """
    from orkestra import __version__
    from orkestra.cli import common

    if version:
        sys.stdout.write(f"orkestra {__version__}\n")
        # a group callback's return value is discarded by click: only an exit stops the command
        raise typer.Exit(ExitCode.OK)
    if root is not None and not root.strip():  # `--root "$DIR"` with DIR unset: not the cwd
        from orkestra.core.errors import UsageError

        raise UsageError("--root is empty; give the project folder, or leave --root out")
    # ORKESTRA_ROOT is read by `find_root` (the one reader of the root), which names it as the
    # variable in its errors, not as a --root the user never typed
    common.STATE.root = root


def build_root() -> click.Command:
    app = typer.Typer(
        cls=RootGroup,
        add_completion=False,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": list(HELP_NAMES), "max_content_width": 100},
    )
    app.callback()(_root)
    return lighten(typer.main.get_command(app))
