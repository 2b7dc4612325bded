"""The one place where exceptions become terminal output and exit codes (PRODUCT.md §5).

`report` maps, for every command: an `OrkestraError` to its one-line message (or, when the command
line asked for JSON, the error object) and its exit code; a click usage error to click's message
(or the JSON error object, code `usage`) and 2; an interrupt to 130; anything unexpected to a short message, a crash log and 3.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

from orkestra.core.errors import ExitCode, OrkestraError, UnsafePathError
from orkestra.core.output import error_json, json_line, printable

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: this module is imported on every error
if TYPE_CHECKING:
    from orkestra.cli.clickcompat import click

#: the project's log folder, relative to its root
LOGS = ".orkestra/logs"
#: whether the command line asked for JSON (set by `entry.run`): warnings then are JSON objects
json_output = False


def report(exc: BaseException, *, json_errors: bool = False) -> ExitCode:
    """Print `exc` to stderr as one line (or a JSON object) and return its exit code."""
    from typer import Abort

    from orkestra.cli.clickcompat import click

    if isinstance(exc, (KeyboardInterrupt, Abort)):
        sys.stderr.write("\norkestra: interrupted\n")
        return ExitCode.INTERRUPTED
    if isinstance(exc, click.ClickException):
        if json_errors:  # the parser's own errors too: a script asking for JSON reads one object
            sys.stderr.write(error_json(_click_error(exc)) + "\n")
        else:
            exc.show()
        return ExitCode(exc.exit_code)
    exc = _os_refusal(exc) or exc
    if isinstance(exc, OrkestraError):
        if json_errors:
            sys.stderr.write(error_json(exc.to_dict()) + "\n")
        else:
            sys.stderr.write(printable(f"orkestra: {exc}") + "\n")
        return exc.exit_code
    log = _write_crash_log(exc)
    message = f"internal error: {type(exc).__name__}: {exc} (traceback in {log})"
    if json_errors:
        payload = {"code": "internal", "message": message, "file": None, "line": None}
        sys.stderr.write(error_json(payload) + "\n")
    else:
        sys.stderr.write(printable(f"orkestra: {message}") + "\n")
    return ExitCode.INTERNAL


def warn(message: str, *, code: str, file: str | None = None, line: int | None = None) -> None:
    """A warning on stderr (the command goes on): one `orkestra: warning: file:line: ...` line,
    or, when the command line asked for JSON, one `{"warning": {code, message, file, line}}`."""
    if json_output:
        payload = {"code": code, "message": message, "file": file, "line": line}
        sys.stderr.write(json_line({"warning": payload}) + "\n")
        return
    where = "" if file is None else f"{file}:{line}: " if line else f"{file}: "
    sys.stderr.write(printable(f"orkestra: warning: {where}{code}: {message}") + "\n")


def _click_error(exc: click.ClickException) -> dict[str, object]:
    """A parser error (missing argument, bad value, unknown option) as the JSON error object,
    its message pointing at the command's help as click's own text does."""
    message = exc.format_message()
    ctx = getattr(exc, "ctx", None)  # a usage error's: which command's help to point at
    if ctx is not None:
        message += f" (see '{ctx.command_path} -h')"
    code = "usage" if exc.exit_code == ExitCode.USAGE else "error"
    return {"code": code, "message": message, "file": None, "line": None}


def _os_refusal(exc: BaseException) -> OrkestraError | None:
    """An OSError naming a path the OS refused as a clean error naming the path and the cause
    (`core.errors.os_refusal`; PRODUCT.md §4: exit 1, not an internal error), or the current
    folder deleted under us; None for anything else."""
    from orkestra.core.errors import NotFound, os_refusal

    if isinstance(exc, FileNotFoundError) and not exc.filename and _cwd_gone():
        message = "the current folder no longer exists (deleted or moved); cd to one that does"
        return NotFound(message, file=os.environ.get("PWD") or None)
    return os_refusal(exc)


def _cwd_gone() -> bool:
    """Whether the current folder was deleted under us (`Path.cwd` then fails)."""
    try:
        Path.cwd()
    except FileNotFoundError:
        return True
    return False


def wants_json(args: list[str]) -> bool:
    """Whether the command line asks for JSON output (then errors are JSON objects too)."""
    for index, arg in enumerate(args):
        if arg in ("--format=json", "-f=json", "-fjson"):
            return True
        if arg in ("--format", "-f") and args[index + 1 : index + 2] == ["json"]:
            return True
    return False


def _write_crash_log(exc: BaseException) -> str:
    """Write the traceback to a new file; its path, or a note that no folder would take it.

    The folder is the project root's `.orkestra/logs/` (the root as the command would find it,
    not the current folder), else the private per-user state folder (`state_folder`). The file is
    created with O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600: a planted file or symlink is never opened,
    a new name is taken instead (PRODUCT.md §13).
    """
    import datetime as dt
    import traceback

    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    text = f"orkestra {' '.join(sys.argv[1:])}\n\n" + "".join(traceback.format_exception(exc))
    for folder in _log_folders():
        try:
            return _create_log(folder, f"crash-{stamp}-{os.getpid()}", text)
        except (OSError, OrkestraError):  # this folder refused: try the next one
            continue
    return "<no writable log folder>"


def _log_folders() -> Iterator[Path]:
    """The project's log folder (when the root is known and safe), then the state folder."""
    from orkestra.cli.common import project_root
    from orkestra.core import safewrite

    try:
        root = project_root()
        safewrite.check_target(root, f"{LOGS}/crash.log")  # no symlinked .orkestra or logs/
        (root / LOGS).mkdir(parents=True, exist_ok=True)
        yield root / LOGS
    except (OrkestraError, OSError, RuntimeError):  # unknown root or unsafe folder: skipped
        pass
    try:
        yield state_folder()
    except (OrkestraError, OSError, RuntimeError):  # no private folder (or no home) either
        return


def state_folder() -> Path:
    """`$XDG_STATE_HOME/orkestra/logs` (else `~/.local/state/orkestra/logs`), made mode 0700.

    Refused (`UnsafePathError`) when it is a symlink, not a folder, not owned by this user, or
    open to others (and cannot be made private).
    """
    base = os.environ.get("XDG_STATE_HOME", "")
    home = Path(base) if Path(base).is_absolute() else Path.home() / ".local" / "state"
    folder = home / "orkestra" / "logs"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    st = folder.lstat()
    mine = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode) or not mine:
        raise UnsafePathError(f"{folder} is not a private folder of this user", file=str(folder))
    if stat.S_IMODE(st.st_mode) & 0o077:
        folder.chmod(0o700)
    return folder


def _create_log(folder: Path, name: str, text: str) -> str:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for attempt in range(100):
        path = folder / (f"{name}.log" if attempt == 0 else f"{name}-{attempt}.log")
        try:
            fd = os.open(path, flags, 0o600)
        except FileExistsError:  # taken (or planted): never reused, never followed
            continue
        # an argument in another encoding arrives as lone surrogates: escaped, never a failure
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as handle:
            handle.write(text)
        return str(path)
    raise FileExistsError(f"no free crash log name in {folder}")
