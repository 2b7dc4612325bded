"""The one place where exceptions become terminal output and exit codes (PRODUCT.md §5).

`report` maps, for every command: an `OrkestraError` to its one-line message (or, when the command
line asked for JSON, the error object) and its exit code; a click usage error to click's message
and 2; an interrupt to 130; anything unexpected to a short message, a crash log and 3.
"""

from __future__ import annotations

import sys
from pathlib import Path

from orkestra.core.errors import ExitCode, OrkestraError
from orkestra.core.output import error_json


def report(exc: BaseException, *, json_errors: bool = False) -> ExitCode:
    """Print `exc` to stderr as one line (or a JSON object) and return its exit code."""
    from typer import Abort

    from orkestra.cli.clickcompat import click

    if isinstance(exc, (KeyboardInterrupt, Abort)):
        sys.stderr.write("\norkestra: interrupted\n")
        return ExitCode.INTERRUPTED
    if isinstance(exc, click.ClickException):
        exc.show()
        return ExitCode(exc.exit_code)
    if isinstance(exc, OrkestraError):
        if json_errors:
            sys.stderr.write(error_json(exc.to_dict()) + "\n")
        else:
            sys.stderr.write(f"orkestra: {exc}\n")
        return exc.exit_code
    log = _write_crash_log(exc)
    message = f"internal error: {type(exc).__name__}: {exc} (traceback in {log})"
    if json_errors:
        payload = {"code": "internal", "message": message, "file": None, "line": None}
        sys.stderr.write(error_json(payload) + "\n")
    else:
        sys.stderr.write(f"orkestra: {message}\n")
    return ExitCode.INTERNAL


def wants_json(args: list[str]) -> bool:
    """Whether the command line asks for JSON output (then errors are JSON objects too)."""
    for index, arg in enumerate(args):
        if arg in ("--format=json", "-f=json", "-fjson"):
            return True
        if arg in ("--format", "-f") and args[index + 1 : index + 2] == ["json"]:
            return True
    return False


def _write_crash_log(exc: BaseException) -> str:
    import datetime as dt
    import tempfile
    import traceback

    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    text = "".join(traceback.format_exception(exc))
    for folder in (
        Path.cwd() / ".orkestra" / "logs",
        Path(tempfile.gettempdir()) / "orkestra-logs",
    ):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"crash-{stamp}.log"
            path.write_text(f"orkestra {' '.join(sys.argv[1:])}\n\n{text}", encoding="utf-8")
            return str(path)
        except OSError:
            continue
    return "<no writable log folder>"
