"""`orkestra sync` with no option at all, answered before typer loads.

Hooks and editors run a plain `sync` after every change, and most of those runs are no-ops
answered from a stat (`render.noop`): importing typer would be about a third of one. So
`cli.entry` sends exactly `orkestra sync` (no option, no `ORKESTRA_ROOT`) here. It runs what the
typer command runs for it (`render.noop.sync_result` on the nearest project, the JSON printed
the same way, the same exit codes, errors reported by `cli.errors.report`); anything else goes
to typer, like `orkestra hook`.
"""

from __future__ import annotations

import sys


def sync() -> int:
    """`orkestra sync`: write, print the JSON result; 1 when it did not end ok."""
    try:
        from orkestra.core.errors import ExitCode
        from orkestra.core.output import to_json
        from orkestra.core.project import find_root
        from orkestra.render.noop import sync_result

        data = sync_result(find_root(None), "write")
        sys.stdout.write(to_json(data) + "\n")
        return int(ExitCode.failed_if(not data["ok"]))
    except (Exception, KeyboardInterrupt) as exc:
        from orkestra.cli import errors

        return int(errors.report(exc, json_errors=errors.wants_json(["sync"])))
