"""Typer groups whose subcommands are imported only when used (fast `--help`, fast start)."""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

import typer
import typer.core
import typer.main

from orkestra.cli.clickcompat import click

Spec = dict[str, tuple[str, tuple[str, ...]]]


class LazyGroup(typer.core.TyperGroup):
    """Resolve subcommands from `spec = {name: (help, (module[:attr], ...))}` on demand.

    Several modules may contribute commands to one group (e.g. `decisions` gets list/info from
    one module and search from another): their typer apps are merged.
    """

    spec: ClassVar[Spec] = {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.spec)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.spec:
            return None
        help_text, modules = self.spec[cmd_name]
        if cmd_name == "registry":
            registry = typer.Typer(cls=RegistryGroup, help=help_text, add_completion=False)
            return typer.main.get_group(registry)
        apps = [app for app in (_load(m) for m in modules) if app is not None]
        if not apps:
            return None
        merged = typer.Typer(
            name=cmd_name,
            help=help_text,
            add_completion=False,
            no_args_is_help=True,
            rich_markup_mode=None,
        )
        for app in apps:
            merged.registered_commands.extend(app.registered_commands)
            merged.registered_groups.extend(app.registered_groups)
            if app.registered_callback is not None and merged.registered_callback is None:
                merged.registered_callback = app.registered_callback
        command = typer.main.get_command(merged)
        command.name = cmd_name
        return command

    def format_commands(self, ctx: click.Context, formatter: Any) -> None:
        rows = [(name, self.spec[name][0]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _load(target: str) -> typer.Typer | None:
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None  # capability not part of this build yet
        raise
    app = getattr(module, attr or "app")
    if not isinstance(app, typer.Typer):
        raise TypeError(f"{target} is not a typer app")
    return app


class RegistryGroup(LazyGroup):
    """`orkestra registry ...`: the documented compatibility spellings."""

    @property
    def spec(self) -> Spec:  # type: ignore[override]
        from orkestra.cli.entry import COMMANDS, REGISTRY_GROUPS

        return {k: COMMANDS[k] for k in REGISTRY_GROUPS}
