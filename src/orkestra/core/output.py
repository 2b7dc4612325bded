"""Turning results into text: JSON (default, for jq) or a rich table for people."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any


class Format(StrEnum):
    """Output formats every listing command accepts."""

    json = "json"
    table = "table"
    text = "text"


def to_json(data: Any, *, pretty: bool | None = None) -> str:
    """Stable JSON: keys keep the order the core built them in; pretty when stdout is a tty."""
    if pretty is None:
        pretty = sys.stdout.isatty()
    if pretty:
        return json.dumps(data, indent=2, ensure_ascii=False, default=str)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)


def error_json(error: Mapping[str, Any]) -> str:
    """The one-line JSON error object `{"error": {...}}` printed on stderr (PRODUCT.md §5)."""
    return json.dumps({"error": dict(error)}, ensure_ascii=False)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(_cell(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={_cell(v)}" for k, v in value.items())
    return str(value)


def render_table(data: Any, *, title: str | None = None) -> str:
    """A rich table for a list of flat objects, or a key/value table for one object."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, show_lines=False)
    if isinstance(data, Sequence) and not isinstance(data, str):
        rows = [r for r in data if isinstance(r, Mapping)]
        columns: list[str] = []
        for row in rows:
            columns.extend(k for k in row if k not in columns)
        for col in columns:
            table.add_column(col)
        for row in rows:
            table.add_row(*(_cell(row.get(c)) for c in columns))
    elif isinstance(data, Mapping):
        table.add_column("key")
        table.add_column("value")
        for key, value in data.items():
            if isinstance(value, Mapping) and all(
                not isinstance(v, (dict, list)) for v in value.values()
            ):
                for sub, subval in value.items():
                    table.add_row(f"{key}.{sub}", _cell(subval))
            else:
                table.add_row(str(key), _cell(value))
    else:
        return str(data)
    console = Console(width=120, no_color=True, record=True, file=io.StringIO())
    console.print(table)
    return console.export_text().rstrip("\n")
