"""Turning results into text: JSON (default, for jq) or a table/report for people (PRODUCT.md §5).

The JSON shapes are an interface: a list command returns an envelope named after its kind,
`{"agents": [...], "total": N}` (`listing`), never a bare array. `--format table` and its alias
`text` render any result for a person: a list of objects as a table, an object as a report
(its scalar fields as `key  value` lines, nested objects flattened to `a.b`, lists of objects as
their own tables).
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any


class Format(StrEnum):
    """Output formats every command accepts; `text` is an alias of `table`."""

    json = "json"
    table = "table"
    text = "text"

    @property
    def human(self) -> bool:
        """Whether the output is for a person (table or its alias text), not for a program."""
        return self is not Format.json


def listing(
    kind: str, rows: Sequence[Any], *, total: int | None = None, **extra: Any
) -> dict[str, Any]:
    """The list envelope `{kind: rows, "total": N, **extra}` of every list command: `total`
    counts every match, also those a `--limit` left out of `rows` (by default, the rows)."""
    return {kind: list(rows), "total": len(rows) if total is None else total, **extra}


def to_json(data: Any, *, pretty: bool | None = None) -> str:
    """Stable JSON: keys keep the order the core built them in; pretty when stdout is a tty."""
    if pretty is None:
        pretty = sys.stdout is not None and sys.stdout.isatty()  # None: stdout was closed
    if pretty:
        text = json.dumps(data, indent=2, ensure_ascii=False, default=str)
    else:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
    # JSON escapes C0 controls only: DEL and the C1 controls (U+009B is a CSI) as `\u00NN` too,
    # the same JSON value, so no escape sequence from the data reaches a terminal
    return escape_controls(text)


def error_json(error: Mapping[str, Any]) -> str:
    """The one-line JSON error object `{"error": {...}}` printed on stderr (PRODUCT.md §5)."""
    return json_line({"error": dict(error)})


def json_line(data: Any) -> str:
    """One JSON object on one line for stderr (`{"error": …}`, `{"warning": …}`), its DEL and
    C1 controls escaped as `to_json` escapes them."""
    return escape_controls(json.dumps(data, ensure_ascii=False))


def escape_controls(text: str) -> str:
    """JSON `text` with DEL and the C1 controls written as `\\u00NN` (the same JSON value)."""
    return _RAW_JSON_CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


#: C0 controls but tab and line feed, DEL and the C1 controls: what drives a terminal; a
#: carriage return ending a line (a CRLF file's line break) overwrites nothing and stays
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)")


#: what `json.dumps` leaves unescaped yet a terminal obeys: DEL and the C1 controls
_RAW_JSON_CONTROL = re.compile("[\x7f-\x9f]")


def printable(text: str) -> str:
    """`text` for a person's terminal: each control character but tab and line break (LF, or
    CRLF as a Windows-saved note or registry file has it) shown as `\\xNN`. Registry, note and
    vendor text is data (PRODUCT.md §13): an escape sequence in it (a window title, a cleared
    screen, a carriage return writing over a line) must not drive the terminal it is printed
    on. JSON escapes them itself."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(_cell(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{printable(str(k))}={_cell(v)}" for k, v in value.items())
    return printable(str(value))


def _is_rows(value: Any) -> bool:
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and bool(value)
        and all(isinstance(v, Mapping) for v in value)
    )


def _flatten(
    data: Mapping[str, Any], prefix: str, pairs: list[tuple[str, str]], tables: list[Any]
) -> None:
    """Scalars and short lists into `pairs` (nested objects as `a.b`), lists of objects into
    `tables` as (title, rows)."""
    for key, value in data.items():
        name = f"{prefix}{printable(str(key))}"
        if isinstance(value, Mapping) and value:
            _flatten(value, f"{name}.", pairs, tables)
        elif _is_rows(value):
            tables.append((name, value))
        elif isinstance(value, (list, tuple, Mapping)) and not value:
            pairs.append((name, "none"))
        else:
            pairs.append((name, _cell(value)))


def _rows_table(rows: Sequence[Mapping[str, Any]], title: str | None) -> Any:
    from rich.table import Table
    from rich.text import Text

    # every cell is Text, never markup: `[a-z0-9]` in a message is data, not a style tag
    shown = printable(title) if title else None
    table = Table(title=Text(shown) if shown else None, show_lines=False, title_justify="left")
    columns: list[str] = []
    for row in rows:
        columns.extend(k for k in row if k not in columns)
    for col in columns:
        table.add_column(Text(printable(str(col))), overflow="fold")  # a cut path: unusable
    for row in rows:
        table.add_row(*(Text(_cell(row.get(c))) for c in columns))
    return table


def render_table(data: Any, *, title: str | None = None) -> str:
    """A table for a list of objects, or a report for one object (see the module docstring)."""
    from rich.console import Console

    console = Console(width=120, no_color=True, record=True, file=io.StringIO())
    if isinstance(data, Sequence) and not isinstance(data, str):
        rows = [r for r in data if isinstance(r, Mapping)]
        if not rows:
            return f"{title}: none" if title else "none"
        console.print(_rows_table(rows, title))
    elif isinstance(data, Mapping):
        pairs: list[tuple[str, str]] = []
        tables: list[tuple[str, Sequence[Mapping[str, Any]]]] = []
        _flatten(data, "", pairs, tables)
        if title:
            console.print(printable(title), markup=False, highlight=False)
        # a list's total follows its table
        tail = [(k, v) for k, v in pairs if k == "total" and tables]
        head = [(k, v) for k, v in pairs if (k, v) not in tail]
        width = max((len(k) for k, _ in pairs), default=0)
        for key, value in head:
            console.print(f"{key:<{width}}  {value}", markup=False, highlight=False)
        for name, sub_rows in tables:  # a list the title names already (`agents`): once
            console.print(_rows_table(sub_rows, None if name == title else name))
        for key, value in tail:
            console.print(f"{key:<{width}}  {value}", markup=False, highlight=False)
    else:
        return printable(str(data))
    return console.export_text().rstrip("\n")
