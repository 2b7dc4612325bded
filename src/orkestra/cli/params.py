"""Light coercion of command-line values, so a plain command line never imports pydantic.

typer 0.29 coerces every parameter value through a pydantic `TypeAdapter`, built on first use;
importing pydantic and building the adapters costs more than most commands themselves. The
parameters Orkestra declares are simple (str, int, an Enum of choices, list[str]): a value those
types accept unchanged is coerced here; anything else (a bad value, a bound not met, a type not
listed) goes to typer's own adapter, so the error messages are typer's, word for word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any

import typer.core
from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param
from typer._param_types import coerce_cli_choice

from orkestra.cli.clickcompat import click

_INTEGER = re.compile(r"-?[0-9]+\Z")
#: the largest integer a command takes: a signed 64-bit value, what SQLite and the OS can hold
INT_MAX = 2**63 - 1


class _Decline(Exception):
    """The light path does not take this value: typer's adapter decides."""


class _TooLarge(Exception):
    """An integer beyond what any command can use (`INT_MAX`)."""


@dataclass(frozen=True)
class LightParam(RuntimeParam):
    """Coerce plain values directly; defer everything else to typer's pydantic adapter."""

    descriptor: TypeDescriptor

    def _coerce_value(self, value: Any, param: Any, ctx: click.Context) -> Any:
        try:
            return coerce(self.descriptor, value, ctx)
        except _TooLarge as exc:  # a usage error (exit 2), never an overflow deeper down
            raise click.exceptions.BadParameter(str(exc), ctx=ctx, param=param) from None
        except _Decline:
            full = build_runtime_param(self.descriptor)
            return full._coerce_value(value, param=param, ctx=ctx)


@dataclass(frozen=True)
class PathParam(RuntimeParam):
    """typer's own path coercion, after refusing an empty value: `Path("")` is the current
    folder, so `orkestra init "$DIR"` with DIR unset would act on wherever it runs."""

    descriptor: TypeDescriptor

    def _coerce_value(self, value: Any, param: Any, ctx: click.Context) -> Any:
        if isinstance(value, str) and not value.strip():
            raise click.exceptions.BadParameter(
                "an empty path; give a file or folder (`.` for the current one)",
                ctx=ctx,
                param=param,
            )
        full = build_runtime_param(self.descriptor)
        return full._coerce_value(value, param=param, ctx=ctx)


def supported(descriptor: TypeDescriptor) -> bool:
    """Whether the light path knows the parameter's type (others keep typer's adapter)."""
    info = descriptor.parameter_info
    if info.parser is not None or descriptor.is_file or descriptor.is_path:
        return False
    annotation = descriptor.annotation
    if annotation == list[str]:
        return True
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return True
    if annotation is int:
        return not info.clamp
    return annotation in (str, bool)


def coerce(descriptor: TypeDescriptor, value: Any, ctx: click.Context) -> Any:
    """`value` as the parameter's type, or `_Decline` when typer's adapter must look at it."""
    annotation = descriptor.annotation
    if annotation is str and isinstance(value, str):
        return value
    if annotation is bool and isinstance(value, bool):
        return value
    if annotation is int:
        return _integer(descriptor, value)
    if annotation == list[str] and isinstance(value, (list, tuple)):
        if all(isinstance(item, str) for item in value):
            return list(value)
    elif isinstance(annotation, type) and issubclass(annotation, Enum):
        return _choice(descriptor, annotation, value, ctx)
    raise _Decline


def _integer(descriptor: TypeDescriptor, value: Any) -> int:
    if isinstance(value, bool):
        raise _Decline
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and _INTEGER.match(value):
        number = int(value)
    else:
        raise _Decline
    if abs(number) > INT_MAX:
        raise _TooLarge(f"{value} is out of range (at most {INT_MAX})")
    info = descriptor.parameter_info
    if (info.min is not None and number < info.min) or (info.max is not None and number > info.max):
        raise _Decline
    return number


def _choice(descriptor: TypeDescriptor, enum: type[Enum], value: Any, ctx: click.Context) -> Any:
    if isinstance(value, enum):
        return value
    if not isinstance(value, str):
        raise _Decline
    try:
        return coerce_cli_choice(
            value,
            choices=list(enum),
            case_sensitive=descriptor.parameter_info.case_sensitive,
            ctx=ctx,
        )
    except ValueError as exc:
        raise _Decline from exc


#: the help spellings every orkestra command accepts (the root's context settings)
HELP_NAMES = ("-h", "--help")


def lighten(command: click.Command) -> click.Command:
    """Give every parameter of `command` and of its built subcommands the light coercion.

    The `--help` option is built here too (typer makes it on first use and caches it), so that
    its absent value does not build a pydantic adapter either.
    """
    context = click.Context(command, help_option_names=list(HELP_NAMES))
    help_option = command.get_help_option(context)
    for param in [*command.params, *([help_option] if help_option else [])]:
        if isinstance(param, typer.core._TyperParameter) and param._runtime_param is None:
            descriptor = param.type_descriptor
            if descriptor.is_path and not descriptor.is_list:
                param._runtime_param = PathParam(
                    parameter_info=descriptor.parameter_info,
                    annotation=descriptor.annotation,
                    descriptor=descriptor,
                )
            elif supported(descriptor):
                param._runtime_param = LightParam(
                    parameter_info=descriptor.parameter_info,
                    annotation=descriptor.annotation,
                    descriptor=descriptor,
                )
    for sub in getattr(command, "commands", {}).values():
        lighten(sub)
    return command
