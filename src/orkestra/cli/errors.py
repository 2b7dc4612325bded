"""The one place where exceptions become terminal output and exit codes."""

from __future__ import annotations

import datetime as dt
import json
import sys
import tempfile
import traceback
from pathlib import Path

from orkestra.core.errors import ExitCode, OrkestraError


def report(exc: BaseException, *, json_errors: bool = False) -> int:
    """Print `exc` to stderr as one line (or a JSON object) and return its exit code."""
    if isinstance(exc, OrkestraError):
        if json_errors:
            sys.stderr.write(json.dumps({"error": exc.to_dict()}, ensure_ascii=False) + "\n")
        else:
            sys.stderr.write(f"orkestra: {exc}\n")
        return int(exc.exit_code)
    log = _write_crash_log(exc)
    message = f"internal error: {type(exc).__name__}: {exc} (traceback in {log})"
    if json_errors:
        payload = {"code": "internal", "message": message, "file": None, "line": None}
        sys.stderr.write(json.dumps({"error": payload}) + "\n")
    else:
        sys.stderr.write(f"orkestra: {message}\n")
    return int(ExitCode.INTERNAL)


def _write_crash_log(exc: BaseException) -> str:
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
