"""`orkestra import PATH`: adopt existing agents and skills into the registries."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from orkestra.cli.common import FormatOption, emit, new_app, project_root
from orkestra.core.errors import ExitCode
from orkestra.core.output import Format

app = new_app("Import existing agents and skills into registry YAML.")


@app.command("import")
def import_(
    path: Annotated[Path, typer.Argument(help="Folder to read: a .claude/ or a marketplace.")],
    provider: Annotated[
        str | None,
        typer.Option(
            "--provider", help="Who the content comes from (agent category, skill metadata)."
        ),
    ] = None,
    layer: Annotated[
        str, typer.Option("--layer", help="Skill tier for imported skills, K0..K4 (K4 = project/).")
    ] = "K4",
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the plan as JSON; write nothing.")
    ] = False,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Read Claude Code agent files (**/agents/*.md) and Agent Skills folders (**/SKILL.md) into
    registries/agents/ and registries/skills/<tier>/, keeping unknown frontmatter. Collisions are
    reported, never overwritten; symlinks leaving the tree, devices and huge files are refused;
    tools the files name are added to tools.yaml; each plugin (a folder with agents/ and skills/)
    becomes a scope its agents declare. A skill over an Agent Skills hard limit (description
    over 1,024 characters) is refused with its file:line and the fix. Exits 1 when it refused
    an entry (the others are still imported; the refused are listed) or the registry does not
    validate afterwards; the `hints` say what to do next."""
    from orkestra.importer.run import import_tree

    report = import_tree(project_root(), path, provider=provider, layer=layer, dry_run=dry_run)
    data = report.to_dict()
    emit(_rows(data) if fmt.human else data, fmt, title="import")
    if report.refused:
        listed = "".join(f"\n  {_where(r)}: {r['reason']}" for r in report.refused)
        sys.stderr.write(
            f"orkestra: refused {len(report.refused)} entry(ies):{listed}\n"
            f"fix them in the source and run `orkestra import {path}` again\n"
        )
    if report.validation and report.validation["errors"]:
        sys.stderr.write(
            f"orkestra: the registry has {report.validation['errors']} validation error(s); "
            "run `orkestra validate` to list them (sync refuses until they are fixed)\n"
        )
    return ExitCode.failed_if(report.failed)


def _where(refused: dict[str, Any]) -> str:
    return f"{refused['path']}:{refused['line']}" if refused.get("line") else refused["path"]


def _rows(data: dict[str, Any]) -> list[dict[str, str]]:
    """One row per imported, colliding or refused entry, for `--format table`."""
    verb = "would import" if data["dry_run"] else "imported"
    rows = [
        {"action": verb, "kind": kind[:-1], "name": e["name"], "from": e["from"], "detail": e["to"]}
        for kind in ("agents", "skills")
        for e in data[kind]
    ]
    rows += [
        {
            "action": "collision",
            "kind": c["kind"],
            "name": c["name"],
            "from": c["from"],
            "detail": f"exists: {c['existing']}",
        }
        for c in data["collisions"]
    ]
    rows += [
        {"action": "refused", "kind": "", "name": "", "from": _where(r), "detail": r["reason"]}
        for r in data["refused"]
    ]
    rows += [
        {"action": "skipped", "kind": "", "name": "", "from": r["path"], "detail": r["reason"]}
        for r in data["skipped"]
    ]
    rows += [
        {"action": "scope added", "kind": "scope", "name": s, "from": "", "detail": "scopes.yaml"}
        for s in data["scopes_added"]
    ]
    rows += [
        {"action": "tool added", "kind": "tool", "name": t, "from": "", "detail": "tools.yaml"}
        for t in data["tools_added"]
    ]
    return rows
