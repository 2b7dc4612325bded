"""The one table of commands: name -> help text and the modules that contribute its subcommands.

Pure data, imported by the root group without importing any command module. A module exposes a
typer app called `app` (or the attribute after `:`); several modules may fill one group. An entry
with `groups` is a group of other entries (the `orkestra registry ...` compatibility spellings).
"""

from __future__ import annotations

from typing import NamedTuple


class Entry(NamedTuple):
    """One top-level command: its help line, the modules that define it, or the entries it groups."""

    help: str
    modules: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()


COMMANDS: dict[str, Entry] = {
    "validate": Entry(
        "Validate every registry: schema, references, quality gates.", ("orkestra.cli.validate",)
    ),
    "sync": Entry("Render the registries into each client's files.", ("orkestra.cli.sync",)),
    "import": Entry(
        "Import existing agents and skills into registry YAML.", ("orkestra.cli.importer",)
    ),
    "init": Entry("Scaffold a minimal valid Orkestra project.", ("orkestra.cli.init",)),
    "search": Entry("Search every registry at once.", ("orkestra.cli.search",)),
    "code": Entry(
        "The code map: symbols, references, dependencies, impact, search.", ("orkestra.cli.code",)
    ),
    "system": Entry("Project health: status and counts.", ("orkestra.cli.system",)),
    "agents": Entry(
        "Agents: list, info, search.",
        ("orkestra.cli.agents", "orkestra.cli.search_groups:agents"),
    ),
    "skills": Entry(
        "Skills: list, info, search, intake, audit.",
        ("orkestra.cli.skills", "orkestra.cli.search_groups:skills", "orkestra.cli.intake"),
    ),
    "scopes": Entry(
        "Scopes: list, info, search.",
        ("orkestra.cli.scopes", "orkestra.cli.search_groups:scopes"),
    ),
    "truths": Entry(
        "Ground truths: list, info, search, verify.",
        ("orkestra.cli.truths", "orkestra.cli.search_groups:truths"),
    ),
    "decisions": Entry(
        "Decision records: list, info, search, new, update, renumber.",
        (
            "orkestra.cli.decisions",
            "orkestra.cli.search_groups:decisions",
            "orkestra.cli.decisions_ids",
        ),
    ),
    "mine": Entry("Mine git history into the classification ledger.", ("orkestra.cli.mine",)),
    "changelog": Entry(
        "Render per-package changelogs from the ledger.", ("orkestra.cli.changelog",)
    ),
    "notes": Entry("Knowledge notes checked against the code.", ("orkestra.cli.notes",)),
    "learn": Entry("Claims that grow with repetition.", ("orkestra.cli.learn",)),
    "hooks": Entry("Install or remove Claude Code hooks.", ("orkestra.cli.hooks",)),
    "events": Entry("Summaries of the local hook events log.", ("orkestra.cli.events",)),
    "mcp": Entry(
        "Serve the registries and knowledge over MCP (stdio or HTTP).", ("orkestra.cli.mcp",)
    ),
    "registry": Entry(
        "Compatibility spellings: registry decisions|truths|changelog ...",
        groups=("agents", "skills", "scopes", "truths", "decisions", "changelog"),
    ),
}
