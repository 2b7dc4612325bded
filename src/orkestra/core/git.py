"""The one git runner: scrubbed environment, no pager, no program-running configuration.

Every git process Orkestra starts goes through `run` or `stream`. The environment drops inherited
`GIT_*` variables (a hook's or an outer repository's `GIT_DIR`/`GIT_INDEX_FILE`/`GIT_WORK_TREE`
must never redirect us), and `SAFE_CONFIG` switches off what would run a program the user did not
ask for: pager, fsmonitor, hooks, signature checks, colour. A commit the user asked for passes
`hooks=True`. Standard library only (the hooks call git too).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from orkestra.core.errors import InputError

#: inherited variables kept: where git's own helper programs live
KEEP = frozenset({"GIT_EXEC_PATH"})
#: set for every git process: never prompt, never page
FIXED_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "PAGER": "cat"}
#: configuration pinned for every call: user settings must neither run programs nor change output
SAFE_CONFIG = (
    "-c", "core.fsmonitor=false",
    "-c", "core.quotepath=off",
    "-c", "log.showSignature=false",
    "-c", "color.ui=never",
    "-c", "i18n.logOutputEncoding=UTF-8",  # output is read as UTF-8, whatever the user's is
    "-c", "log.showRoot=true",  # the first commit's files are listed like any other's
)  # fmt: skip
#: added unless the caller asked for hooks (a commit the user requested)
NO_HOOKS = ("-c", f"core.hooksPath={os.devnull}")
#: options for `git log`/`git show`: no external diff driver, no textconv filter
LOG_SAFETY = ("--no-ext-diff", "--no-textconv")
READ_SIZE = 1 << 20


@dataclass(frozen=True)
class Result:
    """A finished git process: exit status and decoded output."""

    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        """True when git exited 0."""
        return self.returncode == 0


def in_work_tree(path: str | os.PathLike[str]) -> bool:
    """Whether `path` or a folder above it holds `.git` (a folder, or a worktree's file), as git
    finds its repository (the runner scrubs `GIT_DIR`); no git is run. What git says past that
    (a dubious owner, a broken repository) is for the command that runs it."""
    start = Path(path).absolute()
    return any(os.path.lexists(folder / ".git") for folder in (start, *start.parents))


def git_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """`base` (default `os.environ`) without inherited `GIT_*` variables, plus `FIXED_ENV`."""
    source = os.environ if base is None else base
    env = {k: v for k, v in source.items() if not k.startswith("GIT_") or k in KEEP}
    env.update(FIXED_ENV)
    return env


def command(args: Sequence[str], *, hooks: bool = False) -> list[str]:
    """The full argv for `git args…` with the safety options in front."""
    return ["git", "--no-pager", *SAFE_CONFIG, *(() if hooks else NO_HOOKS), *args]


def run(
    cwd: str | os.PathLike[str],
    *args: str,
    check: bool = True,
    stdin: bytes | None = None,
    timeout: float | None = None,
    hooks: bool = False,
) -> Result:
    """Run `git args…` in `cwd` and wait for it.

    A non-zero exit raises `InputError` with git's message when `check` (else it is returned).
    A missing git binary or a timeout always raises `InputError`.
    """
    try:
        done = subprocess.run(
            command(args, hooks=hooks),
            cwd=cwd,
            env=git_env(),
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise InputError(f"git {args[0]} timed out after {timeout} s", file=str(cwd)) from exc
    except OSError as exc:
        raise InputError(f"cannot run git: {exc.strerror or exc}", file=str(cwd)) from exc
    result = Result(done.returncode, _text(done.stdout), _text(done.stderr))
    if check and not result.ok:
        raise InputError(f"git {args[0]} failed: {result.stderr.strip()}", file=str(cwd))
    return result


def output(cwd: str | os.PathLike[str], *args: str, timeout: float | None = None) -> str:
    """stdout of `git args…`; a failure raises `InputError` with git's message."""
    return run(cwd, *args, timeout=timeout).stdout


def stream(
    cwd: str | os.PathLike[str], args: Sequence[str], *, stdin: IO[bytes] | None = None
) -> Iterator[bytes]:
    """Yield the stdout of one git process in chunks while it runs; raise if it fails.

    stderr goes to a temporary file, so a chatty git can never block on a full pipe.
    """
    import tempfile

    with tempfile.TemporaryFile() as errors:
        try:
            proc = subprocess.Popen(
                command(args),
                cwd=cwd,
                env=git_env(),
                stdin=stdin if stdin is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=errors,
            )
        except OSError as exc:
            raise InputError(f"cannot run git: {exc.strerror or exc}", file=str(cwd)) from exc
        with proc:  # leaving early closes stdout first, so git stops on SIGPIPE, then waits
            assert proc.stdout is not None
            yield from _chunks(proc.stdout.fileno())
            status = proc.wait()
        if status != 0:
            errors.seek(0)
            message = _text(errors.read()).strip()
            raise InputError(f"git {args[0]} failed: {message}", file=str(cwd))


def _chunks(fd: int) -> Iterator[bytes]:
    import time

    _widen_pipe(fd)
    while chunk := os.read(fd, READ_SIZE):
        yield chunk
        if len(chunk) < READ_SIZE // 4:
            # git writes a few hundred bytes at a time; reading each piece costs a wake-up and a
            # syscall. The pipe holds READ_SIZE, so git never waits for this nap.
            time.sleep(0.01)


def _widen_pipe(fd: int) -> None:
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, READ_SIZE)
    except (ImportError, AttributeError, OSError):
        return  # not Linux or not allowed: the default pipe size only costs speed


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")
