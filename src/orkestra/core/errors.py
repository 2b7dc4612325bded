"""One error hierarchy. Each class carries its exit code; the CLI maps them in one place."""

from __future__ import annotations

from enum import IntEnum

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: the hook path never imports typing
if TYPE_CHECKING:
    from typing import Any


class ExitCode(IntEnum):
    """Documented, distinct exit codes (PRODUCT.md §5)."""

    OK = 0
    CHECK_FAILED = 1
    USAGE = 2
    INTERNAL = 3
    INTERRUPTED = 130

    @classmethod
    def failed_if(cls, failed: object) -> ExitCode:
        """`CHECK_FAILED` when a check found a problem (`failed` is truthy), else `OK`."""
        return cls.CHECK_FAILED if failed else cls.OK


class OrkestraError(Exception):
    """Base of every expected failure. `file`/`line` point at the input that caused it."""

    exit_code: ExitCode = ExitCode.CHECK_FAILED
    code: str = "error"

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line

    def location(self) -> str:
        """`file:line: ` prefix, or empty when the error has no location."""
        if self.file is None:
            return ""
        return f"{self.file}:{self.line}: " if self.line else f"{self.file}: "

    def __str__(self) -> str:
        return f"{self.location()}{self.message}"

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "file": self.file, "line": self.line}


class UsageError(OrkestraError):
    """The command line itself is wrong (bad flag value, malformed filter)."""

    exit_code = ExitCode.USAGE
    code = "usage"


class InputError(OrkestraError):
    """An input file (YAML, JSONL, markdown) cannot be read or parsed."""

    code = "input"


class ValidationFailed(OrkestraError):
    """Validation found errors; the findings were already reported."""

    code = "validation"


class CheckFailed(OrkestraError):
    """A check (`--check` drift, ledger validation) found a difference."""

    code = "check"


class NotFound(OrkestraError):
    """A named entry (agent, skill, decision, sha, ...) does not exist."""

    code = "not_found"

    @classmethod
    def maybe_in(cls, missing: str, failed: Any, check: str) -> NotFound:
        """`missing` ("no agent named 'x'; did you mean …") while `failed` (a finding or a note
        problem: `code`, `message`, `file`, `line`) is a file that did not load: the entry may
        be in it, so the error points there; `check` is the command that lists every problem."""
        return cls(
            f"{missing}; it may be in this file, which failed to load ({failed.code}: "
            f"{failed.message}); fix it (`{check}` lists every problem)",
            file=failed.file,
            line=failed.line or None,
        )


class ConflictError(OrkestraError):
    """The operation would overwrite or clash with existing data."""

    code = "conflict"


class UnsafePathError(OrkestraError):
    """A path would leave the project root or pass through a symlink leaving it."""

    code = "unsafe_path"


class ChangedOnDisk(ConflictError):
    """A file changed on disk between reading it and writing it back; nothing was written."""


class WriteFailed(OrkestraError):
    """The operating system refused a write or delete (permissions, disk full, ...)."""

    code = "write_failed"


#: errno names of an OSError that are the environment's doing, never a bug of ours
_REFUSALS = (
    "EISDIR", "ENOTDIR", "EACCES", "EPERM", "ENOSPC", "EDQUOT", "EROFS", "ELOOP",
    "ENAMETOOLONG", "EEXIST", "ETXTBSY",
)  # fmt: skip


def os_refusal(exc: BaseException) -> WriteFailed | None:
    """An OSError naming a path the OS refused (a folder in the way, no permission, a full or
    read-only disk, ...) as a `WriteFailed` naming the path and the cause (exit 1, not an
    internal error; the MCP server's -32603), None for anything else."""
    import errno
    import os

    if not isinstance(exc, OSError) or not exc.filename:
        return None
    if exc.errno not in {getattr(errno, name, None) for name in _REFUSALS} - {None}:
        return None
    path = os.fsdecode(exc.filename)
    if exc.filename2:
        path += f" -> {os.fsdecode(exc.filename2)}"
    cause = exc.strerror or str(exc)
    return WriteFailed(f"{cause} (fix or move it, then run the command again)", file=path)
