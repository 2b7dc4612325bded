"""Projects for render tests: the `orkestra init` scaffold and a rich registry using every shape."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import yamlio
from orkestra.scaffold import init_project
from tests.conftest import write

TODAY = "2026-11-30"


@pytest.fixture(autouse=True)
def _pinned_today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", TODAY)


def put(root: Path, rel: str, data: Any) -> Path:
    """Write registry data as YAML below root."""
    return write(root, rel, yamlio.dumps(data))


@pytest.fixture
def scaffold(tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "proj"
    init_project(root)
    yield root


def _skill(name: str, layer: str, description: str, **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "metadata": {
            "identifier": name,
            "name": name,
            "description": description,
            "type": "workflow",
            "layer": layer,
            "source": "core",
            "last_updated": "2026-11-01",
        },
        "sections": [
            {"title": "When to use", "body": "When it fits.\n"},
            {"title": "Steps", "body": "1. Do it.\n2. Check it.\n"},
            {"title": "Success criteria", "body": "It works.\n"},
            {"title": "Recovery", "body": "Undo it.\n"},
        ],
    }
    data.update(extra)
    return data


def build_rich(root: Path) -> Path:
    """A project exercising every template shape (agents, skills, vendor, commands, truths)."""
    init_project(root)
    reg = "registries"
    put(
        root,
        f"{reg}/orkestra.yaml",
        {
            "project": "rich",
            "targets": ["claude"],
            "vendor_roots": [
                {"path": "vendor/linked", "provider": "acme", "default_scopes": ["database"]},
                {
                    "path": "vendor/copied",
                    "provider": "other",
                    "default_scopes": ["database"],
                    "link": "copy",
                },
            ],
            "render": {"claude_md": True},
        },
    )
    put(
        root,
        f"{reg}/characters/identities.yaml",
        {
            "architect": {"description": "Designs boundaries.", "guidance": "Keep modules small."},
            "guardian": {"description": "Protects data.", "guidance": "Never lose data.\n"},
        },
    )
    put(
        root,
        f"{reg}/values.yaml",
        {
            "values": [
                {"name": "Simplicity first", "statement": "Choose the simplest design that works."},
                {"name": "Evidence-based", "statement": "Claims about the code cite the code."},
            ]
        },
    )
    put(
        root,
        f"{reg}/tools.yaml",
        {
            "builtin": ["Read", "Write", "Edit", "Grep", "Glob", "Bash", "Agent", "TodoWrite"],
            "mcp": {"github": ["get_pr", "list_issues"]},
            "guides": {"Bash": "Quote paths. Prefer `rg` over grep.\n"},
        },
    )
    put(
        root,
        f"{reg}/scopes.yaml",
        {
            "scopes": {
                "example": {"description": "Example scope", "primary_skills": ["example-skill"]},
                "database": {"description": "Databases", "primary_skills": ["schema-migration"]},
                "unused": {"description": "Nobody uses it", "primary_skills": ["dormant-skill"]},
            }
        },
    )
    put(
        root,
        f"{reg}/agents/db-guardian.yaml",
        {
            "name": "db-guardian",
            "description": 'Guards the database: reviews migrations.\nUse when "schema" changes. <example>x</example>',
            "category": "database",
            "model": "opus",
            "identity": ["guardian", "architect"],
            "mindset": "analytical",
            "style": "concise",
            "domains": ["example", "project"],
            "scopes": ["database"],
            "tools": ["Read", "Grep", "Bash", "Agent"],
            "mcp_tools": ["mcp__github__get_pr"],
            "role": "orchestrator",
            "color": "blue",
            "frontmatter_extra": {"permissionMode": "plan", "hooks": {"Stop": ["echo done"]}},
            "prompt": "# Guardian\n\nCheck every migration twice.\n",
        },
    )
    put(
        root,
        f"{reg}/agents/plain-helper.yaml",
        {"name": "plain-helper", "description": "Helps plainly.", "prompt": "Be plain.\n"},
    )
    resources = "schema-migration/"
    put(
        root,
        f"{reg}/skills/domains/schema-migration.yaml",
        _skill(
            "schema-migration",
            "K2",
            "Safe schema migration steps. Use when changing a database schema: it matters.",
            frontmatter={
                "tags": ["database", "migrations"],
                "allowed_tools": ["Bash(psql:*)", "Read"],
                "extra": {"argument-hint": "[table]", "disable-model-invocation": "true"},
            },
            resources=resources,
        ),
    )
    write(root, f"{reg}/skills/domains/schema-migration/references/guide.md", "# Guide\n")
    script = write(root, f"{reg}/skills/domains/schema-migration/scripts/check.sh", "#!/bin/sh\n")
    script.chmod(0o755)
    put(
        root,
        f"{reg}/skills/project/dormant-skill.yaml",
        _skill("dormant-skill", "K4", "Never reached by any agent. Use when nobody asks for it."),
    )
    for folder, name in (("vendor/linked", "acme-pdf"), ("vendor/copied", "other-csv")):
        write(
            root,
            f"{folder}/{name}/SKILL.md",
            f"---\nname: {name}\ndescription: Vendor skill {name}. Use when files of that kind appear.\n---\n\n# {name}\n\nVendor body.\n",
        )
        write(root, f"{folder}/{name}/references/notes.md", "notes\n")
    put(
        root,
        f"{reg}/commands/learn.yaml",
        {
            "name": "learn",
            "description": "Record a claim: what you learned.",
            "argument_hint": "[claim]",
            "allowed_tools": ["Bash(orkestra learn:*)"],
            "body": 'Run `orkestra learn add "$ARGUMENTS"`.\n',
        },
    )
    put(
        root,
        f"{reg}/truths/project.yaml",
        {
            "metadata": {
                "title": "Rich ground truths",
                "summary": "Constraints every agent must respect.",
                "owner": "project",
                "last_updated": "2026-11-01",
                "render": {
                    "include_statuses": ["current", "tentative"],
                    "show_deprecated": True,
                    "groups": [
                        {"title": "Architecture", "tags": ["architecture"]},
                        {"title": "Process", "tags": ["process"]},
                    ],
                },
            },
            "statements": [
                {
                    "id": "GT-PRJ-001",
                    "status": "current",
                    "statement": "The registries are the source of truth.",
                    "rationale": "Rendered files are derived.",
                    "evidence": ["registries/orkestra.yaml"],
                    "last_verified": "2026-11-01",
                    "tags": ["architecture"],
                    "agent_guidance": {"do": ["Edit the YAML"], "avoid": ["Editing .claude/"]},
                },
                {
                    "id": "GT-PRJ-002",
                    "status": "tentative",
                    "statement": "Reviews happen before merge.",
                    "tags": ["process"],
                },
                {
                    "id": "GT-PRJ-003",
                    "status": "deprecated",
                    "statement": "Agents are edited by hand.",
                    "superseded_by": "GT-PRJ-001",
                    "tags": ["architecture"],
                },
                {"id": "GT-PRJ-004", "status": "current", "statement": "Untagged truth."},
            ],
        },
    )
    for name in ("decisions", "patterns", "anti-patterns", "evolution"):
        write(root, f"{reg}/domains/project/{name}.md", f"# Project: {name}\n")
    write(root, "CLAUDE.md", "# My project\n\nHand-written intro.\n")
    return root


@pytest.fixture
def rich(tmp_path: Path) -> Path:
    return build_rich(tmp_path / "rich")


def synced_rich(root: Path, today: str = "2026-11-30") -> Path:
    """`build_rich`, synced once (on `today`), every file then aged past the racy window: the
    project the no-op record tests copy."""
    import os
    import time

    from orkestra.render import noop
    from orkestra.render.sync import sync

    os.environ["ORKESTRA_TODAY"] = today
    try:
        build_rich(root)
        sync(root, mode="write")
    finally:
        del os.environ["ORKESTRA_TODAY"]
    old = time.time_ns() - 10 * noop.RACY_NS  # nothing in the project is racy
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            os.utime(Path(dirpath) / name, ns=(old, old))
    return root


def at_call(
    monkeypatch: pytest.MonkeyPatch,
    owner: Any,
    name: str,
    act: Any,
    *,
    before: bool = True,
    call: int = 1,
) -> list[bool]:
    """Run `act()` once, just before (or after) the `call`-th call of `owner.name`: an edit
    made at a chosen moment of a run. The list returned holds True once it has run."""
    real = getattr(owner, name)
    calls: list[int] = []
    fired: list[bool] = []

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        mine = len(calls) == call
        if mine and before and not fired:
            fired.append(True)
            act()
        out = real(*args, **kwargs)
        if mine and not before and not fired:
            fired.append(True)
            act()
        return out

    monkeypatch.setattr(owner, name, wrapped)
    return fired
