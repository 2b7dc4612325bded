"""The `orkestra` executable: one typer command tree built from `cli.commands.COMMANDS`.

`--version` answers before typer loads. `orkestra hook ...` goes to the standard-library hook
runner instead of typer, because Claude Code calls it on every tool use and it must start in a
few milliseconds. Everything else is parsed by typer only; `cli.errors.report` turns every error
into its message and exit code.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than `--version`
if TYPE_CHECKING:
    from orkestra.cli.clickcompat import click


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] in (["--version"], ["-V"]):
        from orkestra import __version__

        sys.stdout.write(f"orkestra {__version__}\n")
        return 0
    if args[:1] == ["hook"]:
        from orkestra.hooks import runner

        return runner.run(args[1:])
    return run(args)


def run(args: list[str]) -> int:
    """Parse `args` with typer, run the command and return its exit code."""
    from orkestra.cli import errors

    errors.json_output = errors.wants_json(args)
    try:
        result = build().main(args=args, prog_name="orkestra", standalone_mode=False)
    except (Exception, KeyboardInterrupt) as exc:
        return int(errors.report(exc, json_errors=errors.json_output))
    return int(result) if isinstance(result, int) else 0


def build() -> click.Command:
    """The root command (subcommands load lazily)."""
    from orkestra.cli.root import build_root

    return build_root()
