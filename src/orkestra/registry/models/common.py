"""Shared field types: safe names, dates, relative paths."""

from __future__ import annotations

import datetime as _dt
import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, StringConstraints

from orkestra.registry.models.names import (
    BIDI_CONTROLS,
    DEVICE_NAMES,
    LAYERS,
    NAME_PATTERN,
    NAME_RE,
    TIER_LAYER,
    bidi_controls,
    device_problem,
    is_device_name,
    name_problem,
)

__all__ = [
    "BIDI_CONTROLS",
    "DEVICE_NAMES",
    "LAYERS",
    "NAME_PATTERN",
    "NAME_RE",
    "TIER_LAYER",
    "DateStr",
    "DomainRef",
    "Model",
    "Name",
    "NonEmpty",
    "RelPath",
    "ToolName",
    "bidi_controls",
    "device_problem",
    "is_device_name",
    "name_problem",
]


class Model(BaseModel):
    """Base: unknown keys are errors, instances are immutable. A model's validator is built on
    its first use: a command that validates one kind of file (a sync after an agent's edit)
    does not build the thirty-odd others it imports."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


def _not_device(value: str) -> str:
    if is_device_name(value):
        raise ValueError(device_problem(value))
    return value


#: agent, skill, scope, identity, mindset, style names; safe to use as a path component
Name = Annotated[
    str,
    StringConstraints(min_length=1, max_length=64, pattern=NAME_PATTERN),
    AfterValidator(_not_device),
]


def _check_date(value: str) -> str:
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        raise ValueError("must be a quoted date 'YYYY-MM-DD'")
    try:
        _dt.date.fromisoformat(value)
    except ValueError as exc:
        raise ValueError(f"not a real date: {exc}") from None
    return value


DateStr = Annotated[str, AfterValidator(_check_date)]


def _check_relative(value: str) -> str:
    if not value or value.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", value):
        raise ValueError("must be a relative path inside the project")
    parts = value.replace("\\", "/").split("/")
    if ".." in parts:
        raise ValueError("must not contain '..' (it would leave the project)")
    if "\x00" in value:
        raise ValueError("must not contain NUL")
    if len(value) > 1024 or any(len(p.encode("utf-8")) > 255 for p in parts):
        raise ValueError("is too long for a path (at most 255 bytes a component, 1024 in all)")
    return value


#: a path relative to the project root that cannot escape it
RelPath = Annotated[str, AfterValidator(_check_relative)]

#: domain reference: a name or nested names (`architecture/api`)
DomainRef = Annotated[
    str,
    StringConstraints(
        min_length=1, max_length=200, pattern=r"^[a-z0-9]+(-[a-z0-9]+)*(/[a-z0-9]+(-[a-z0-9]+)*)*$"
    ),
]

#: a tool name as agents and skills list it: `Read` or `mcp__server__tool`
ToolName = Annotated[
    str, StringConstraints(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_.:*()\- ]+$")
]

NonEmpty = Annotated[str, StringConstraints(min_length=1)]
