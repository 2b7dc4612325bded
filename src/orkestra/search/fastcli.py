"""A start-up fast path for `orkestra search Q ...`: the standard library, sqlite3 and this package.

Typer builds pydantic adapters for every command's parameters, which costs more than a warm
search itself. `run(args)` parses the plain spellings of `orkestra [--root R] search Q [--summary]
[--limit N] [--type T] [--format F]` and prints exactly what the typer command prints. Anything
else (help, unknown options, malformed values) returns None so the caller falls back to the typer
command, which gives the usual messages. Wire it in before typer is imported:

    if "search" in args[:3]:
        code = fastcli.run(args)
        if code is not None:
            return code
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

_FORMATS = ("json", "table", "text")


@dataclass
class _Args:
    root: str | None = None
    query: str | None = None
    summary: bool = False
    limit: str = "20"
    types: str | None = None
    fmt: str | None = None


def _value(args: list[str], index: int, flag: str) -> tuple[str | None, int]:
    """The value of an option at args[index] (`--flag=V` or `--flag V`) and the next index."""
    arg = args[index]
    if arg.startswith(f"{flag}="):
        return arg.split("=", 1)[1], index + 1
    if index + 1 < len(args):
        return args[index + 1], index + 2
    return None, index + 1


def parse(args: list[str]) -> _Args | None:
    """The arguments of a plain `search` invocation, or None when typer should handle it."""
    parsed = _Args()
    index = 0
    while index < len(args) and args[index] != "search":
        if args[index] == "--root" or args[index].startswith("--root="):
            parsed.root, index = _value(args, index, "--root")
            if parsed.root is None:
                return None
        else:
            return None
    if index >= len(args):
        return None
    index += 1
    options = True
    while index < len(args):
        arg = args[index]
        if options and arg == "--":
            options = False
            index += 1
        elif options and arg.startswith("-") and arg != "-":
            step = _option(parsed, args, index)
            if step is None:
                return None
            index = step
        elif parsed.query is None:
            parsed.query = arg
            index += 1
        else:
            return None
    return parsed if parsed.query is not None else None


def _option(parsed: _Args, args: list[str], index: int) -> int | None:
    arg = args[index]
    if arg == "--summary":
        parsed.summary = True
        return index + 1
    for flags, attr in (
        (("--limit", "-n"), "limit"),
        (("--type", "-t"), "types"),
        (("--format", "-f"), "fmt"),
    ):
        for flag in flags:
            if arg == flag or (flag.startswith("--") and arg.startswith(f"{flag}=")):
                value, step = _value(args, index, flag)
                if value is None:
                    return None
                setattr(parsed, attr, value)
                return step
    return None


def run(args: list[str]) -> int | None:
    """Run a plain `orkestra search ...`; None when the typer command must handle it."""
    parsed = parse(args)
    if parsed is None or (parsed.fmt is not None and parsed.fmt not in _FORMATS):
        return None
    try:
        limit = int(parsed.limit)
    except ValueError:
        return None
    from orkestra.cli import errors
    from orkestra.cli.entry import _wants_json  # the typer path's rule, so errors match

    try:
        return _search(parsed, limit)
    except KeyboardInterrupt:
        sys.stderr.write("\norkestra: interrupted\n")
        return 130
    except Exception as exc:
        return errors.report(exc, json_errors=_wants_json(args))


def _search(parsed: _Args, limit: int) -> int:
    from orkestra.core.output import Format, render_table, to_json
    from orkestra.search.rank import Filters
    from orkestra.search.service import as_text, find, parse_types, project_root

    filters = Filters(types=parse_types(parsed.types))
    root = project_root(parsed.root or os.environ.get("ORKESTRA_ROOT") or None)
    query = parsed.query or ""
    result = find(root, query, filters=filters, limit=limit, want_summary=parsed.summary)
    fmt = Format(parsed.fmt or "json")
    if fmt is Format.table:
        out = render_table(result, title=f"search: {query}")
    elif fmt is Format.text:
        out = as_text(result)
    else:
        out = to_json(result)
    sys.stdout.write(out + "\n")
    return 0


def main() -> None:
    """`python -m orkestra.search.fastcli search Q ...` (falls back to the full CLI)."""
    args = sys.argv[1:]
    code = run(args)
    if code is None:
        from orkestra.cli.entry import main as full

        code = full(args)
    raise SystemExit(code)


if __name__ == "__main__":
    main()
