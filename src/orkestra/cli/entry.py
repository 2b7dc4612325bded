"""The `orkestra` executable: fast paths, lazily loaded command groups, one error mapping.

`--version` and `hook ...` never import click, typer or pydantic, so they start fast. Every other
command group is imported only when it is invoked.
"""

from __future__ import annotations

import sys
from typing import Any

#: command -> (help, modules contributing commands). Modules expose a typer app called `app`.
COMMANDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "validate": (
        "Validate every registry: schema, references, quality gates.",
        ("orkestra.cli.validate",),
    ),
    "sync": ("Render the registries into each client's files.", ("orkestra.cli.sync",)),
    "import": ("Import existing agents and skills into registry YAML.", ("orkestra.cli.importer",)),
    "init": ("Scaffold a minimal valid Orkestra project.", ("orkestra.cli.init",)),
    "search": ("Search every registry at once.", ("orkestra.cli.search",)),
    "system": ("Project health: status and counts.", ("orkestra.cli.system",)),
    "agents": (
        "Agents: list, info, search.",
        ("orkestra.cli.agents", "orkestra.cli.search_groups:agents"),
    ),
    "skills": (
        "Skills: list, info, search, intake, audit.",
        ("orkestra.cli.skills", "orkestra.cli.search_groups:skills", "orkestra.cli.intake"),
    ),
    "scopes": (
        "Scopes: list, info, search.",
        ("orkestra.cli.scopes", "orkestra.cli.search_groups:scopes"),
    ),
    "truths": (
        "Ground truths: list, info, search, verify.",
        ("orkestra.cli.truths", "orkestra.cli.search_groups:truths"),
    ),
    "decisions": (
        "Decision records: list, info, search, new, update, renumber.",
        (
            "orkestra.cli.decisions",
            "orkestra.cli.search_groups:decisions",
            "orkestra.cli.decisions_ids",
        ),
    ),
    "mine": ("Mine git history into the classification ledger.", ("orkestra.cli.mine",)),
    "changelog": ("Render per-package changelogs from the ledger.", ("orkestra.cli.changelog",)),
    "notes": ("Knowledge notes checked against the code.", ("orkestra.cli.notes",)),
    "learn": ("Claims that grow with repetition.", ("orkestra.cli.learn",)),
    "hooks": ("Install or remove Claude Code hooks.", ("orkestra.cli.hooks",)),
    "events": ("Summaries of the local hook events log.", ("orkestra.cli.events",)),
    "hook": ("Hook handlers called by Claude Code (fast, standard library only).", ()),
    "registry": ("Compatibility spellings: registry decisions|truths|changelog ...", ()),
}
#: groups reachable under `orkestra registry ...`
REGISTRY_GROUPS = ("agents", "skills", "scopes", "truths", "decisions", "changelog")


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
    code = _fast_path(args)
    return _run_click(args) if code is None else code


def _fast_path(args: list[str]) -> int | None:
    """Typer-free answers for the hottest commands (standard library, sqlite3, our modules).

    Each `run` returns None for anything it does not handle (help, unknown flags, an index that
    needs work, an error to report), and the full CLI then runs as usual.
    """
    if args[:2] == ["notes", "check"]:
        from orkestra.knowledge import fastpath as notes

        return notes.run(args[2:])
    if "search" in args[:3]:
        from orkestra.search import fastcli

        return fastcli.run(args)
    if "mine" in args[:3]:
        from orkestra.mining import fastpath as mining

        return mining.run(args)
    return None


def _run_click(args: list[str]) -> int:
    import typer

    from orkestra.cli import errors
    from orkestra.cli.clickcompat import click

    json_errors = _wants_json(args)
    try:
        result = build().main(args=args, prog_name="orkestra", standalone_mode=False)
    except typer.Exit as exc:
        return int(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        sys.stderr.write("\norkestra: interrupted\n")
        return 130
    except click.ClickException as exc:
        exc.show()
        return int(exc.exit_code)
    except Exception as exc:
        return errors.report(exc, json_errors=json_errors)
    return int(result) if isinstance(result, int) else 0


def _wants_json(args: list[str]) -> bool:
    """Whether the command line asks for JSON output (then errors are JSON objects too)."""
    for index, arg in enumerate(args):
        if arg in ("--format=json", "-f=json", "-fjson"):
            return True
        if arg in ("--format", "-f") and args[index + 1 : index + 2] == ["json"]:
            return True
    return False


def build() -> Any:
    """The root command (subcommands load lazily)."""
    from orkestra.cli.root import build_root

    return build_root()
