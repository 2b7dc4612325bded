"""Claude Code plugin manifests (`.claude-plugin/plugin.json`): the agents, commands and MCP
server files a plugin declares at paths of its own choosing, beside the default `agents/`,
`commands/` and `.mcp.json` the walk finds anyway. A declared path that leaves the imported
folder is refused; one that does not exist is reported as skipped."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from orkestra.core import jsonio
from orkestra.core.errors import InputError
from orkestra.importer.parse import decode_text
from orkestra.importer.walk import MAX_MARKDOWN, Refused, SafeTree, undecodable


@dataclass
class Declared:
    """What the manifests add to the walk's findings."""

    agents: list[Path] = field(default_factory=list)
    commands: list[Path] = field(default_factory=list)
    mcp: list[Path] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)


def declared(tree: SafeTree, manifests: list[Path], known: set[Path]) -> Declared:
    """The agent and command files and MCP server files the `manifests` name (`known`: files
    the walk found already, never added twice)."""
    out = Declared()
    for manifest in manifests:
        data, text = _load(tree, manifest, out)
        if not isinstance(data, dict):
            continue
        plugin = manifest.parent.parent
        for key, bucket, suffix in (
            ("agents", out.agents, ".md"),
            ("commands", out.commands, ".md"),
            ("mcpServers", out.mcp, ".json"),
        ):
            for entry in _entries(data.get(key)):
                line = _key_line(text, key)
                for path in _files(tree, manifest, plugin, (key, line), entry, suffix, out):
                    if path not in known:
                        known.add(path)
                        bucket.append(path)
    return out


def _load(tree: SafeTree, manifest: Path, out: Declared) -> tuple[Any, str]:
    """(the manifest's data, its text), or (None, "") when it is refused."""
    rel = tree.rel(manifest)
    raw = tree.read(manifest, MAX_MARKDOWN)
    if isinstance(raw, Refused):
        out.refused.append(raw)
        return None, ""
    try:
        text = decode_text(raw)
        return jsonio.loads(text, source=rel), text
    except UnicodeDecodeError as exc:
        out.refused.append(undecodable(rel, raw, exc))
    except InputError as exc:
        out.refused.append(Refused(rel, exc.message, exc.line))
    return None, ""


def _key_line(text: str, key: str) -> int | None:
    """The line of the manifest's `"key":` (the first), or None."""
    found = re.search(rf'"{re.escape(key)}"\s*:', text)
    return text.count("\n", 0, found.start()) + 1 if found else None


def _entries(value: Any) -> list[str]:
    """A manifest's path value: one string or a list of them (inline objects are not paths)."""
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _files(
    tree: SafeTree,
    manifest: Path,
    plugin: Path,
    where: tuple[str, int | None],
    entry: str,
    suffix: str,
    out: Declared,
) -> list[Path]:
    """The files a manifest's `key` (at its line: `where`) names by `entry`."""
    key, line = where
    rel = tree.rel(manifest)
    path = plugin / entry
    if not path.resolve().is_relative_to(tree.real):
        out.refused.append(
            Refused(
                rel,
                f"`{key}` names {entry!r}, outside the imported folder; import the folder "
                "that holds both the manifest and what it names",
                line,
            )
        )
        return []
    if path.is_dir() and not path.is_symlink():
        return sorted(p for p in path.iterdir() if p.suffix == suffix and p.is_file())
    if path.is_file() and path.suffix == suffix:
        return [path]
    out.skipped.append({"path": rel, "reason": f"`{key}` names {entry!r}, which does not exist"})
    return []
