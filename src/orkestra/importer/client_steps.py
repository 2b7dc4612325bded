"""The import steps for other clients' files (`importer.clients` converts them): where they are
found, and how each becomes registry files of the import's batch (collisions reported)."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orkestra.core import frontmatter, jsonio, yamlio
from orkestra.core.errors import InputError
from orkestra.importer import clients, convert, mcp_configs
from orkestra.importer.parse import decode_text
from orkestra.importer.plugins import is_plugin_folder
from orkestra.importer.walk import MAX_MARKDOWN, Refused, SafeTree, undecodable
from orkestra.registry.frontmatter_values import plain

if TYPE_CHECKING:
    from orkestra.importer.run import _Importer


@dataclass
class ClientSources:
    """Files of other clients below an import source."""

    codex: list[Path] = field(default_factory=list)
    subagents: list[Path] = field(default_factory=list)
    commands: list[Path] = field(default_factory=list)
    mcp: list[Path] = field(default_factory=list)
    instructions: list[Path] = field(default_factory=list)
    marketplaces: list[Path] = field(default_factory=list)
    #: Claude Code commands (`commands/*.md` of a plugin or a .claude/ folder)
    claude_commands: list[Path] = field(default_factory=list)
    #: Claude Code plugin manifests (`.claude-plugin/plugin.json`)
    manifests: list[Path] = field(default_factory=list)
    #: clients' files no registry kind holds, with why: reported as skipped, never silently
    unread: list[tuple[Path, str]] = field(default_factory=list)


#: why a client's MCP config below a subfolder of the import is not read (only the imported
#: folder's own are, as its `.mcp.json` is)
_MCP_NESTED = (
    "a client's MCP config in a subfolder: not imported (only the imported folder's own "
    "are); import that subfolder too, or declare its servers in registries/mcp.yaml"
)
_HOOKS = (
    "a plugin's hooks: not imported (no registry kind holds hooks); keep the plugin installed "
    "for them, or add them to .claude/settings.json `hooks` by hand"
)
_CURSOR_RULE = (
    "a Cursor rule: no registry kind holds it, left as is (Cursor still reads it); to give it "
    "to every client, write it into a skill or the values"
)
_GEMINI_COMMAND = (
    "a Gemini CLI command: not imported; write it as registries/commands/<name>.yaml to "
    "render it for every client"
)


def find(tree: SafeTree) -> ClientSources:
    """Codex agent TOML, rulesync subagents/commands/mcp.json/rules, Claude Code commands and
    `.mcp.json` (a project's or a plugin's), a marketplace.json and a root AGENTS.md."""
    found = ClientSources()
    for item in tree.files(tree.base):
        if isinstance(item, Refused):
            continue  # reported by the main walk
        parent, grand = item.parent.name, item.parent.parent.name
        if item.suffix == ".toml" and parent == "agents" and grand == ".codex":
            found.codex.append(item)
        elif item.suffix == ".md" and grand == ".rulesync" and parent == "subagents":
            found.subagents.append(item)
        elif item.suffix == ".md" and grand == ".rulesync" and parent == "commands":
            found.commands.append(item)
        elif item.suffix == ".md" and _claude_command(item, tree.base):
            found.claude_commands.append(item)
        elif item.suffix == ".md" and grand == ".rulesync" and parent == "rules":
            found.instructions.append(item)
        elif item.name == "mcp.json" and parent == ".rulesync":
            found.mcp.append(item)
        elif item.name == ".mcp.json" and (
            item.parent == tree.base or is_plugin_folder(item.parent)
        ):
            found.mcp.append(item)  # Claude Code's: a project's or a plugin's MCP servers
        elif mcp_configs.client_of(item) is not None and item.parent.parent == tree.base:
            found.mcp.append(item)  # Cursor's, VS Code's, Gemini CLI's, Codex's MCP servers
        elif item.name == "AGENTS.md" and item.parent == tree.base:
            found.instructions.append(item)
        elif item.name == "marketplace.json" and parent == ".claude-plugin":
            found.marketplaces.append(item)
        elif item.name == "plugin.json" and parent == ".claude-plugin":
            found.manifests.append(item)
        else:
            reason = _unread(item)
            if reason is not None:
                found.unread.append((item, reason))
    return found


def _unread(path: Path) -> str | None:
    """Why a client's file that the import does not read is left out, or None (not one)."""
    parent = path.parent.name
    if mcp_configs.client_of(path) is not None:
        return _MCP_NESTED
    if path.name == "hooks.json" and parent == "hooks":
        return _HOOKS if is_plugin_folder(path.parent.parent) else None
    if path.suffix == ".mdc" and parent == "rules" and path.parent.parent.name == ".cursor":
        return _CURSOR_RULE
    if path.suffix == ".toml" and ".gemini" in path.parent.parts:
        inside = path.parent.parts[path.parent.parts.index(".gemini") :]
        return _GEMINI_COMMAND if inside[1:2] == ("commands",) else None
    return None


def _claude_command(path: Path, base: Path) -> bool:
    """A Claude Code command: a markdown file of a plugin's or client folder's `commands/`, or
    of a subfolder of it (namespaced: `commands/frontend/component.md` is `/component`)."""
    for folder in path.parents:
        if folder == base:
            return False
        if folder.name == "commands":
            return folder.parent.name != ".rulesync" and is_plugin_folder(folder.parent)
    return False


def run(importer: _Importer, sources: ClientSources) -> None:
    """Every step, in a stable order."""
    for path, reason in sources.unread:
        importer.report.skipped.append({"path": importer.tree.rel(path), "reason": reason})
    for path in sources.codex:
        codex_agent(importer, path)
    for path in sources.subagents:
        rulesync_agent(importer, path)
    for path in sources.commands:
        command(importer, path)
    for path in sources.claude_commands:
        command(importer, path, claude=True)
    for path in sources.mcp:
        mcp(importer, path)
    for path in sources.instructions:
        instructions(importer, path)
    for path in sources.marketplaces:
        marketplace(importer, path)


def _text(importer: _Importer, path: Path) -> str | None:
    raw = importer.tree.read(path, MAX_MARKDOWN)
    if isinstance(raw, Refused):
        importer.report.refused.append(raw.to_dict())
        return None
    try:
        return decode_text(raw)
    except UnicodeDecodeError as exc:
        importer.report.refused.append(undecodable(importer.tree.rel(path), raw, exc).to_dict())
        return None


def codex_agent(importer: _Importer, path: Path) -> None:
    rel = importer.tree.rel(path)
    text = _text(importer, path)
    if text is None:
        return
    try:
        item = clients.codex_agent(text, rel, path.stem, importer.provider or "")
    except convert.Skip as exc:
        importer.refuse(rel, str(exc), exc.line)
        return
    importer.add_agent(item, rel)


def rulesync_agent(importer: _Importer, path: Path) -> None:
    rel = importer.tree.rel(path)
    doc = importer.document(path, entry_only=True)
    if doc is None:
        return
    try:
        item = clients.rulesync_agent(doc, path, importer.provider or "")
    except convert.Skip as exc:
        importer.refuse(rel, str(exc), exc.line)
        return
    importer.add_agent(item, rel)


def command(importer: _Importer, path: Path, *, claude: bool = False) -> None:
    """A rulesync or (`claude`) a Claude Code command into registries/commands/."""
    from orkestra.registry.models import Command

    rel = importer.tree.rel(path)
    text = _text(importer, path) if claude else None
    if claude and text is None:
        return
    if text is not None and not text.startswith("---"):  # Claude reads a bare body too
        doc: frontmatter.Document | None = frontmatter.Document(yamlio.LineDict(1), text, 1)
    else:
        doc = importer.document(path)
    if doc is None:
        return
    try:
        item = convert.command(doc, path.stem) if claude else clients.command(doc, path.stem)
    except convert.Skip as exc:
        importer.refuse(rel, str(exc), exc.line)
        return
    dest = f"registries/commands/{item.name}.yaml"
    if importer.check_model(Command, item.data, rel) and importer.claim(
        "command", item.name, rel, dest, item.line, yamlio.dumps(item.data).encode("utf-8")
    ):
        importer.report.files[dest] = yamlio.dumps(item.data).encode("utf-8")
        importer.report.commands.append({"name": item.name, "from": rel, "to": dest})
        importer.tools.extend(item.tools)
        if item.kept:
            keys = ", ".join(item.kept)
            reason = f"frontmatter {keys}: no registry field for commands, left out"
            importer.report.skipped.append({"path": rel, "reason": reason})


def mcp(importer: _Importer, path: Path) -> None:
    """Servers of an `mcp.json`, or of another client's MCP config (`mcp_configs`), into
    registries/mcp.yaml (an existing name is a collision)."""
    from orkestra.registry.models import McpFile

    rel = importer.tree.rel(path)
    text = _text(importer, path)
    if text is None:
        return
    client = mcp_configs.client_of(path) or "claude"
    try:
        data = _mcp_data(importer, text, rel, client)
        if data is None:
            return
        servers, notes = clients.mcp_servers(data, rel)
        for name in list(servers):
            why = mcp_configs.editor_only(servers[name], name, client)
            if why is not None:
                notes[name] = (True, why)
                del servers[name]
    except (InputError, convert.Skip) as exc:
        importer.refuse(rel, getattr(exc, "message", str(exc)), getattr(exc, "line", None))
        return

    def line_of(name: str) -> int | None:
        return mcp_configs.line_of(text, name, client)

    for name, (refused, reason) in notes.items():
        if refused:
            importer.refuse(rel, reason, line_of(name))
        else:
            importer.report.skipped.append({"path": rel, "reason": reason})
    dest = "registries/mcp.yaml"
    current: dict[str, Any] = {}
    if dest in importer.report.files:
        current = dict(yamlio.loads(importer.report.files[dest].decode("utf-8"), dest) or {})
    elif (importer.root / dest).is_file():
        loaded = yamlio.load_mapping(importer.root / dest, display=dest, allow_empty=True)
        current = dict(plain(loaded) or {})
    for name, server in servers.items():
        if _serve_entry(name, server):
            importer.report.skipped.append({"path": rel, "reason": _SERVE_ENTRY})
            continue
        same = yamlio.dumps(server).encode("utf-8")
        if not importer.unique("mcp", name, rel, line_of(name), same):
            continue
        if name in current:
            importer.report.collisions.append(
                {"kind": "mcp", "name": name, "from": rel, "existing": dest}
            )
            continue
        if importer.check_model(McpFile, {name: server}, rel):
            importer.mark("mcp", name, rel, same)
            current[name] = server
            importer.report.mcp_servers.append({"name": name, "from": rel, "to": dest})
    if current:
        importer.plan_registry_file(dest, current)


_SERVE_ENTRY = (
    "MCP server 'orkestra': Orkestra's own entry for `orkestra mcp serve` of the imported "
    "project, not imported; set `mcp: {serve: true}` in registries/orkestra.yaml for sync to "
    "write this project's own"
)


def _serve_entry(name: str, server: dict[str, Any]) -> bool:
    """True for the `orkestra` entry sync writes with `mcp: {serve: true}` (`orkestra ... mcp
    serve`): it serves the project it was written for, never the one importing it."""
    args = server.get("args") or []
    return name == "orkestra" and ("mcp", "serve") in pairwise(args)


def _mcp_data(importer: _Importer, text: str, rel: str, client: str) -> Any:
    """The `mcpServers` data of an MCP config, None (said in `skipped`) when it has none; the
    other settings of a client's config are said to be left out."""
    if client == "claude":
        return jsonio.loads(text, source=rel)
    data, others = mcp_configs.parse(text, rel, client)
    if others:
        importer.report.skipped.append({"path": rel, "reason": f"{', '.join(others)}: the "
                                        "client's own settings, no registry kind holds them, "
                                        "left as they are"})  # fmt: skip
    if data is None:
        importer.report.skipped.append({"path": rel, "reason": "declares no MCP servers"})
    return data


def instructions(importer: _Importer, path: Path) -> None:
    """The values of an AGENTS.md or rulesync rule into values.yaml; other sections reported."""
    rel = importer.tree.rel(path)
    text = _text(importer, path)
    if text is None:
        return
    if text.startswith("---"):
        doc = importer.document(path)
        if doc is None:
            return
        text = doc.body
    found, unmapped = clients.values_of(text)
    for title in unmapped:
        importer.report.skipped.append(
            {"path": rel, "reason": f"section '{title}' maps to no registry kind (left as is)"}
        )
    if not found:
        return
    dest = "registries/values.yaml"
    data: dict[str, Any] = {"values": []}
    if dest in importer.report.files:
        data = dict(yamlio.loads(importer.report.files[dest].decode("utf-8"), dest))
    elif (importer.root / dest).is_file():
        loaded = yamlio.load_mapping(importer.root / dest, display=dest, allow_empty=True)
        data.update(plain(loaded) or {})
    values = list(data.get("values") or [])
    names = {str(v.get("name", "")).casefold() for v in values if isinstance(v, dict)}
    for value in found:
        if value["name"].casefold() in names:
            importer.report.collisions.append(
                {"kind": "value", "name": value["name"], "from": rel, "existing": dest}
            )
            continue
        names.add(value["name"].casefold())
        values.append(value)
        importer.report.values.append({"name": value["name"], "from": rel, "to": dest})
    data["values"] = values
    importer.plan_registry_file(dest, data)


def marketplace(importer: _Importer, path: Path) -> None:
    """A Claude plugin marketplace's plugins that the walk cannot reach are reported as skipped:
    a remote source (GitHub, git, a URL), a folder outside the imported tree, a missing folder.
    Plugins inside the tree are found by the walk itself."""
    rel = importer.tree.rel(path)
    text = _text(importer, path)
    if text is None:
        return
    try:
        data = jsonio.loads(text, source=rel)
    except InputError as exc:
        importer.refuse(rel, exc.message, exc.line)
        return
    plugins = data.get("plugins") if isinstance(data, dict) else None
    meta = data.get("metadata") if isinstance(data, dict) else None
    root = meta.get("pluginRoot") if isinstance(meta, dict) else None
    for entry in plugins if isinstance(plugins, list) else []:
        if isinstance(entry, dict):
            reason = _unreachable(importer, path.parent.parent, entry, root)
            if reason is not None:
                importer.report.skipped.append({"path": rel, "reason": reason})


def _unreachable(
    importer: _Importer, base: Path, entry: dict[str, Any], plugin_root: Any
) -> str | None:
    """Why the walk cannot import this marketplace entry, or None when it can (a bare folder
    name is looked up below the marketplace's `metadata.pluginRoot`)."""
    name, source = entry.get("name", "?"), entry.get("source")
    bare = isinstance(source, str) and not source.startswith(("./", "../", "/"))
    if bare and isinstance(plugin_root, str):
        source = f"{plugin_root.rstrip('/')}/{source}"
    if isinstance(source, dict):
        where = source.get("repo") or source.get("url") or source.get("source") or "?"
        return (
            f"plugin '{name}' comes from {where} (not in this folder): not imported; clone it "
            "and import its folder"
        )
    if not isinstance(source, str):
        return f"plugin '{name}' has no `source`: not imported"
    folder = (base / source).resolve()
    if not folder.is_relative_to(importer.tree.real):
        return (
            f"plugin '{name}' (source {source!r}) is outside the imported folder: not imported; "
            "import that folder on its own"
        )
    if not folder.is_dir():
        return f"plugin '{name}' (source {source!r}) does not exist: not imported"
    return None
