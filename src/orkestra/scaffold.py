"""`orkestra init`: a minimal valid project with one example of every registry kind."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from orkestra.core import gitfiles, safewrite, yamlio
from orkestra.core.clock import today
from orkestra.core.errors import ConflictError, InputError, WriteFailed
from orkestra.registry import ledger

GITATTRIBUTES = (
    "registries/changelog/commits_processed.jsonl merge=union",
    "registries/changelog/release_notes.jsonl merge=union",
    "knowledge/.usage.jsonl merge=union",
)


def gitattributes(root: Path) -> tuple[str, ...]:
    """The lines init adds to `.gitattributes`: the ledgers' and the usage log's of the
    knowledge folder orkestra.yaml names (`knowledge/` when it names none or cannot be read)."""
    from orkestra.core.errors import OrkestraError
    from orkestra.knowledge import settings

    try:
        path = settings.load(root).path
    except (OrkestraError, OSError):  # unreadable or invalid: init never fails over it
        path = "knowledge"
    return (*GITATTRIBUTES[:2], gitfiles.usage_attribute(path))


GITIGNORE = (".orkestra/",)
#: init's examples reach only the example agent: values (every agent gets them) start empty and
#: the example skill is a project skill of the example scope, not a K0 skill every agent gets,
#: so agents imported into a fresh project render as they were (§4 Import)
VALUES = """\
# Values: the shared bottom layer rendered into every agent, in this order. For example:
#   values:
#     - name: Simplicity first
#       statement: Choose the simplest design that works.
#     - name: Evidence-based
#       statement: Claims about the code cite the code.
values: []
"""


#: the append-only ledgers init creates empty: an existing one is history, kept even by --force
LEDGERS = (ledger.CLASSIFICATIONS.as_posix(), ledger.RELEASE_NOTES.as_posix())


@dataclass
class InitResult:
    root: str
    created: list[str] = field(default_factory=list)
    #: existing files holding the example's bytes already
    unchanged: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    #: existing files that differ from the example (the user's edits, a ledger's history):
    #: `--force` never overwrites them
    kept: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "created": self.created,
            "unchanged": self.unchanged,
            "updated": self.updated,
            "kept": self.kept,
        }


def _files(project: str) -> dict[str, str]:
    date = today().isoformat()
    y = yamlio.dumps
    return {
        "registries/orkestra.yaml": y({"project": project, "targets": ["claude"]}),
        "registries/characters/identities.yaml": y(
            {
                "architect": {
                    "description": "Designs boundaries and keeps the system coherent.",
                    "guidance": "Prefer small, well-named modules. State trade-offs explicitly.",
                }
            }
        ),
        "registries/characters/mindsets.yaml": y(
            {
                "analytical": {
                    "description": "Breaks problems down and checks each step.",
                    "guidance": "Gather evidence before concluding; name your assumptions.",
                }
            }
        ),
        "registries/characters/styles.yaml": y(
            {
                "concise": {
                    "description": "Short, precise answers.",
                    "guidance": "Lead with the answer. Cut filler. Show file:line for claims.",
                }
            }
        ),
        "registries/values.yaml": VALUES,
        "registries/tools.yaml": y(
            {
                "builtin": ["Read", "Write", "Edit", "Grep", "Glob", "Bash", "Agent", "TodoWrite"],
                "mcp": {},
            }
        ),
        "registries/agents/example-agent.yaml": y(
            {
                "name": "example-agent",
                "description": "Example specialist. Use when you need a starting point for your own agents.",
                "category": "example",
                "model": "inherit",
                "identity": ["architect"],
                "mindset": "analytical",
                "style": "concise",
                "domains": ["example"],
                "scopes": ["example"],
                "tools": ["Read", "Grep", "Glob"],
                "prompt": "Replace this with the agent's own instructions.\n",
            }
        ),
        "registries/skills/project/example-skill.yaml": y(
            {
                "metadata": {
                    "identifier": "example-skill",
                    "name": "example-skill",
                    "description": "Example workflow skill. Use when you want to see the shape of a skill before writing one.",
                    "type": "workflow",
                    "layer": "K4",
                    "source": "core",
                    "last_updated": date,
                },
                "frontmatter": {"tags": ["example"], "allowed_tools": ["Read"]},
                "scopes": ["example"],
                "sections": [
                    {"title": "When to use", "body": "When learning how Orkestra skills look.\n"},
                    {
                        "title": "Steps",
                        "body": "1. Copy this file.\n2. Rename it.\n3. Write real steps.\n",
                    },
                    {"title": "Success criteria", "body": "`orkestra validate --strict` passes.\n"},
                    {
                        "title": "Recovery",
                        "body": "Run `orkestra validate --show-warnings` and fix what it names.\n",
                    },
                ],
            }
        ),
        "registries/scopes.yaml": y(
            {
                "scopes": {
                    "example": {"description": "Example scope", "primary_skills": ["example-skill"]}
                }
            }
        ),
        "registries/truths/project.yaml": y(
            {
                "metadata": {
                    "title": f"{project} ground truths",
                    "summary": "Constraints every agent must respect in this repository.",
                    "owner": "project",
                    "last_updated": date,
                },
                "statements": [
                    {
                        "id": "GT-PRJ-001",
                        "status": "current",
                        "source": "orkestra init",
                        "scope": "platform",
                        "statement": "The registries/ folder is the source of truth for agent configuration.",
                        "rationale": "Rendered files under .claude/ are derived and overwritten by orkestra sync.",
                        "evidence": ["registries/orkestra.yaml"],
                        "last_verified": date,
                        "tags": ["architecture"],
                    }
                ],
            }
        ),
        "registries/decisions/registry.yaml": y({"domains": {"architecture": "AR"}}),
        "registries/decisions/records/DEC-AR-001.yaml": y(
            {
                "id": "DEC-AR-001",
                "title": "Manage agent configuration with Orkestra",
                "domain": "architecture",
                "status": "active",
                "created": date,
                "summary": "Agents, skills and ground truths live in registries/ and are rendered.\n",
                "context": "Hand-edited agent files drift between clients and sessions.\n",
                "rationale": ["One validated source of truth", "Rendering is deterministic"],
            }
        ),
        "registries/domains/example/decisions.md": "# Example: key decisions\n",
        "registries/domains/example/patterns.md": "# Example: patterns\n",
        "registries/domains/example/anti-patterns.md": "# Example: anti-patterns\n",
        "registries/domains/example/evolution.md": f"# Example: evolution\n\n- {date}: domain created.\n",
        "registries/changelog/commits_processed.jsonl": "",
        "registries/changelog/release_notes.jsonl": "",
    }


def init_project(path: Path, *, force: bool = False) -> InitResult:
    """Scaffold `path`; refuse (naming them) when any of its files exist, unless `force`:
    then only the missing files are created, and every existing one is kept as it is (one the
    user changed is listed in `kept`; delete it first to get the example back). Registry files
    are the source of truth: nothing proves an existing one is the example init wrote, so it is
    never overwritten (§13: no command loses data)."""
    root = path.resolve()
    if root.exists() and not root.is_dir():
        raise InputError(f"{path} is not a folder; give `orkestra init` a project folder")
    files = _files(root.name or "project")
    _check_folders(root, files)
    _check_writable(root, [*files, ".gitattributes", ".gitignore"])
    existing = sorted(rel for rel in files if (root / rel).exists())
    if existing and not force:
        raise ConflictError(
            f"refusing to overwrite {len(existing)} existing file(s) in {root}: "
            f"{', '.join(existing)}; use --force to create only the missing files and keep "
            "these as they are (delete one first to get the example back)"
        )
    # read (and check) the git files before writing anything, so a bad one leaves no half project
    git_files = {
        name: gitfiles.with_lines(root, name, lines)
        for name, lines in ((".gitattributes", gitattributes(root)), (".gitignore", GITIGNORE))
    }
    result = InitResult(root=str(root))
    # one batch: every file staged and synced before the first rename, so a full disk leaves
    # the folder as it was (never a half project that a rerun refuses as existing files)
    with safewrite.Batch(root) as batch:
        for rel, text in files.items():
            if os.path.lexists(root / rel):
                same = _holds(root / rel, text)
                (result.unchanged if same else result.kept).append(rel)
                continue
            result.created.append(rel)
            batch.file(rel, text, expected_old=None)  # still absent when it is renamed
        for name, new_text in git_files.items():
            if new_text is not None:
                batch.file(name, new_text)
                result.updated.append(name)
    return result


def _holds(path: Path, text: str) -> bool:
    """Whether the file at `path` holds exactly `text` (a symlink or a folder never does)."""
    from orkestra.core.readfile import read_regular

    try:
        raw, size = read_regular(path, max_bytes=1 << 20, follow=False)
    except OSError:
        return False
    return size <= 1 << 20 and raw == text.encode("utf-8")


def _check_folders(root: Path, files: dict[str, str]) -> None:
    """Every path init writes is checked (no symlink on the way) before the first write."""
    guard = safewrite.Guard(root)
    for rel in files:
        safewrite.check_target(root, rel, guard=guard)


def _check_writable(root: Path, rels: list[str]) -> None:
    """Every folder init writes into (or the nearest existing folder it must create one in) is
    writable, checked before the first write: a read-only project gets nothing, not half."""
    checked: set[Path] = set()
    for rel in rels:
        folder = (root / rel).parent
        while not os.path.isdir(folder) and folder != folder.parent:  # noqa: PTH112
            folder = folder.parent
        if folder in checked:
            continue
        checked.add(folder)
        if not os.access(folder, os.W_OK | os.X_OK):
            shown = _shown(root, folder)
            why = (
                "a read-only file system"
                if safewrite.read_only_fs(folder)
                else "not writable by you"
            )
            raise WriteFailed(
                f"cannot write into '{shown}' ({why}); nothing was written: run `orkestra init` "
                "in a folder you can write to",
                file=shown,
            )


def _shown(root: Path, folder: Path) -> str:
    """A folder below the project as a relative path; the project itself or above it in full."""
    inside = folder != root and folder.is_relative_to(root)
    return folder.relative_to(root).as_posix() if inside else str(folder)
