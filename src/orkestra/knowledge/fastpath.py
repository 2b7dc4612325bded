"""`orkestra notes check` without typer: meant to be called by the entry point before typer loads.

`notes check` over a large knowledge base must cost about as much as a `grep -r` of the same
patterns, and importing typer alone costs more than that. `run(args)` handles the plain forms
(`[--dry-run] [--no-sources] [--format json]`) and returns None for anything else (help, tables,
unknown flags), so the full CLI runs instead. Output and exit codes are those of the typer command.
"""

from __future__ import annotations

import sys

_FLAGS = {"--dry-run", "--no-sources"}


def _parse(args: list[str]) -> set[str] | None:
    flags: set[str] = set()
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg in _FLAGS:
            flags.add(arg)
        elif arg in ("--format", "-f") and rest[:1] == ["json"]:
            rest.pop(0)
        elif arg != "--format=json":
            return None
    return flags


def run(args: list[str]) -> int | None:
    """Run `notes check` with `args` (after `notes check`); None when typer must handle them."""
    flags = _parse(args)
    if flags is None:
        return None
    from pathlib import Path

    from orkestra.core.clock import today
    from orkestra.core.errors import OrkestraError
    from orkestra.core.output import to_json
    from orkestra.knowledge import settings
    from orkestra.knowledge.check import check

    try:
        cfg = settings.load(settings.find_root(Path.cwd()))
        report = check(
            cfg, today(), apply="--dry-run" not in flags, sources="--no-sources" not in flags
        )
    except OrkestraError as exc:
        from orkestra.cli import errors
        from orkestra.cli.entry import _wants_json  # the typer path's rule, so errors match

        return errors.report(exc, json_errors=_wants_json(args))
    sys.stdout.write(to_json(report) + "\n")
    return 1 if report["errors"] or report.get("contradicted") else 0
