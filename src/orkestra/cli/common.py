"""Shared CLI plumbing: the project root, the --format option, printing results."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from orkestra.core.output import Format, printable, render_table, to_json


@dataclass
class _State:
    root: str | None = None


STATE = _State()

FormatOption = Annotated[
    Format, typer.Option("--format", "-f", help="json (default, for jq), table or text.")
]


def project_root() -> Path:
    """The project root: --root / ORKESTRA_ROOT, else the nearest folder holding registries/."""
    from orkestra.core.project import find_root

    return find_root(STATE.root)


#: at most this many load errors are warned about, then how many more there are
MAX_WARNINGS = 10


def load_registry(*, lazy: bool = False, warn: bool = True) -> Any:
    """Load the project's Registry (no validation beyond loading). `lazy`: entries of unchanged
    files stay plain until more than their plain fields is used (list and info commands).

    With `warn`, each file that failed to load (its entries are left out of the answer) is a
    warning on stderr naming its file and line; commands that report findings themselves
    (status, verify, audit) pass `warn=False`.
    """
    from orkestra.registry.loader import load

    reg = load(project_root(), lazy_models=lazy)
    if warn:
        warn_load_errors(reg.findings)
    return reg


def warn_load_errors(findings: list[Any], *, check: str = "orkestra validate") -> None:
    """Warn on stderr about the files that failed to load (error findings or note problems:
    anything with `severity`, `code`, `message`, `file` and `line`); `check` is the command
    that lists every problem, unless the problem names its own (a search's `Problem`)."""
    from orkestra.cli import errors

    failed = [f for f in findings if f.severity == "error"]
    for found in failed[:MAX_WARNINGS]:
        lists = getattr(found, "check", None) or check
        message = f"{found.message} (left out of this answer; `{lists}` lists every problem)"
        errors.warn(message, code=found.code, file=found.file, line=found.line or None)
    if len(failed) > MAX_WARNINGS:
        more = f"and {len(failed) - MAX_WARNINGS} more load error(s); run `{check}`"
        errors.warn(more, code="load_errors")


def emit(
    data: Any, fmt: Format = Format.json, *, title: str | None = None, text: str | None = None
) -> None:
    """Print a result: JSON (stable key order) or, for `table` and its alias `text`, the
    command's own human rendering `text` when it has one, else a table/report of `data`."""
    if not fmt.human:
        out = to_json(data)
    elif text is not None:
        out = printable(text)  # the command's own rendering holds the data's text as it is
    else:
        out = render_table(data, title=title)
    write_stdout(out + "\n")


def write_stdout(text: str) -> None:
    """Write the result to stdout. A reader that left (`| head`) is typer's to end quietly; a
    stdout that is closed or cannot take the text (a full disk) is a clean error, not a crash."""
    from orkestra.core.errors import WriteFailed

    try:
        if sys.stdout is None:
            raise OSError(9, "standard output is closed")
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        cause = exc.strerror or str(exc)
        message = f"cannot write the output: {cause}; redirect stdout to a file that can take it"
        raise WriteFailed(message, file="<stdout>") from None


def new_app(help_text: str) -> typer.Typer:
    """A typer app configured the same way everywhere (no completion, no rich tracebacks)."""
    return typer.Typer(
        help=help_text,
        add_completion=False,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )
