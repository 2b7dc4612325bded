"""Typer groups whose subcommands are imported only when used (fast `--help`, fast start)."""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

import typer
import typer.core
import typer.main

from orkestra.cli.clickcompat import click
from orkestra.cli.commands import COMMANDS, Entry
from orkestra.cli.params import lighten

Spec = dict[str, Entry]


class LazyGroup(typer.core.TyperGroup):
    """Resolve subcommands from a table `{name: Entry(help, modules, groups)}` on demand.

    Several modules may contribute commands to one group (e.g. `decisions` gets list/info from
    one module and search from another): their typer apps are merged.
    """

    spec: ClassVar[Spec] = {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.spec)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = self.spec.get(cmd_name)
        return None if entry is None else build_command(cmd_name, entry)

    def format_commands(self, ctx: click.Context, formatter: Any) -> None:
        rows = [(name, self.spec[name].help) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def build_command(name: str, entry: Entry) -> click.Command:
    """The click command for one table entry (its modules imported now, not before)."""
    settings: dict[str, Any] = {
        "help": entry.help,
        "add_completion": False,
        "no_args_is_help": True,
        "rich_markup_mode": None,
    }
    if entry.groups:
        spec = {group: COMMANDS[group] for group in entry.groups}
        group_cls = type(f"{name.title()}Group", (LazyGroup,), {"spec": spec})
        return lighten(typer.main.get_group(typer.Typer(cls=group_cls, **settings)))
    merged = typer.Typer(name=name, **settings)
    for app in (load(module) for module in entry.modules):
        merged.registered_commands.extend(app.registered_commands)
        merged.registered_groups.extend(app.registered_groups)
        if app.registered_callback is not None and merged.registered_callback is None:
            merged.registered_callback = app.registered_callback
    command = typer.main.get_command(merged)
    command.name = name
    return lighten(command)


def load(target: str) -> typer.Typer:
    """The typer app named by `module[:attr]` (default attr `app`).

    A missing module is an error, never a silently hidden command.
    """
    module_name, _, attr = target.partition(":")
    module = importlib.import_module(module_name)
    app = getattr(module, attr or "app")
    if not isinstance(app, typer.Typer):
        raise TypeError(f"{target} is not a typer app")
    return app
