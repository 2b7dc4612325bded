"""`orkestra import PATH`: plan everything in memory, validate it, then write the registry files."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from orkestra.core import frontmatter, safewrite, yamlio, yamlmerge
from orkestra.core.errors import InputError, NotFound, UsageError
from orkestra.importer import client_steps, convert, manifests
from orkestra.importer import clients as client_formats
from orkestra.importer.parse import base_tool, decode_text, mcp_parts, registrable
from orkestra.importer.plugins import PluginScopes, agent_plugin, is_plugin_folder
from orkestra.importer.walk import (
    MAX_MARKDOWN,
    MAX_RESOURCE,
    Passed,
    Refused,
    SafeTree,
    find_sources,
    undecodable,
    with_nul,
)
from orkestra.registry.frontmatter_values import plain
from orkestra.registry.models import Agent, SkillFile, ToolsFile
from orkestra.registry.models.common import (
    TIER_LAYER,
    device_problem,
    is_device_name,
    name_problem,
)

LAYER_TIER = {layer: tier for tier, layer in TIER_LAYER.items()}


@dataclass
class ImportReport:
    """What an import found, will write (dry run) or wrote."""

    source: str
    dry_run: bool
    layer: str
    agents: list[dict[str, Any]] = field(default_factory=list)
    skills: list[dict[str, Any]] = field(default_factory=list)
    tools_added: list[str] = field(default_factory=list)
    tools_unregistered: list[str] = field(default_factory=list)
    collisions: list[dict[str, str]] = field(default_factory=list)
    refused: list[dict[str, Any]] = field(default_factory=list)
    #: markdown in an `agents/` folder that is not an entry (a README without frontmatter)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    #: plugin scopes added to scopes.yaml (§3.4)
    scopes_added: list[str] = field(default_factory=list)
    #: other clients' entries: rulesync commands, MCP servers, values of an AGENTS.md
    commands: list[dict[str, Any]] = field(default_factory=list)
    mcp_servers: list[dict[str, Any]] = field(default_factory=list)
    values: list[dict[str, Any]] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    validation: dict[str, int] | None = None
    #: imported skills no agent reaches: registered but not rendered until an agent uses them
    dormant: list[str] = field(default_factory=list)
    #: what to do next (plain sentences)
    hints: list[str] = field(default_factory=list)
    #: path -> bytes, the batch written at the end
    files: dict[str, bytes] = field(default_factory=dict, repr=False)
    executable: set[str] = field(default_factory=set, repr=False)

    @property
    def failed(self) -> bool:
        """True when an entry was refused or the written registry does not validate (exit 1)."""
        return bool(self.refused) or bool(self.validation and self.validation["errors"])

    @property
    def imported(self) -> bool:
        """True when anything at all was taken in."""
        return bool(self.agents or self.skills or self.commands or self.mcp_servers or self.values)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "dry_run": self.dry_run,
            "layer": self.layer,
            "agents": self.agents,
            "skills": self.skills,
            "tools_added": self.tools_added,
            "tools_unregistered": self.tools_unregistered,
            "collisions": self.collisions,
            "refused": self.refused,
            "skipped": self.skipped,
            "scopes_added": self.scopes_added,
            "commands": self.commands,
            "mcp_servers": self.mcp_servers,
            "values": self.values,
            "dormant": self.dormant,
            "hints": self.hints,
            "written": self.written,
            "validation": self.validation,
        }


class _Importer:
    def __init__(
        self,
        root: Path,
        tree: SafeTree,
        report: ImportReport,
        provider: str | None,
        plugins: PluginScopes,
        clashes: dict[tuple[str, str], list[str]] | None = None,
    ):
        from orkestra.registry.loader import load

        self.root = root
        self.tree = tree
        self.report = report
        self.provider = provider
        self.plugins = plugins
        self.reg = load(root)
        self.tier = LAYER_TIER[report.layer]
        self.taken: dict[tuple[str, str], str] = {}
        for kind, name in self.reg.locations:
            if kind in ("agent", "skill"):
                self.taken[(kind, name)] = str(self.reg.loc(kind, name))
        #: (kind, name) -> the source files of this import that define it differently: found
        #: by a first pass, refused all by the next (`refusing`)
        self.clashes: dict[tuple[str, str], list[str]] = clashes or {}
        self.refusing = clashes is not None
        #: (kind, name) -> (the source file of this import that claimed it, what it imports)
        self.here: dict[tuple[str, str], tuple[str, bytes]] = {}
        #: (kind, name) -> every source file of this import naming it
        self.seen: dict[tuple[str, str], list[str]] = {}
        self.tools: list[str] = []
        #: names of skills refused here, and (agent, skill) pairs left out of an agent for it
        self.refused_skills: set[str] = set()
        self.unlisted: list[tuple[str, str]] = []
        #: skills imported without some of their files (refused): name, paths inside its folder
        self.partial: list[tuple[str, list[str]]] = []

    def refuse(self, path: str, reason: str, line: int | None = None) -> None:
        self.report.refused.append(Refused(path, reason, line).to_dict())

    def claim(
        self, kind: str, name: str, origin: str, dest: str, line: int = 1, same: bytes = b""
    ) -> bool:
        """True when `name` is free for this entry. Taken in the registry, it is a collision
        (a rerun). Taken by another file of this import holding the same entry (`same`: what
        it would import, but for its plugin; a symlink to it, a copy), it is a collision too:
        nothing is lost. Taken by a different one, it is a clash: recorded, and the next pass
        (`refusing`) refuses every file of it, naming the others, since either may be the one
        to rename."""
        key = (kind, name)
        if not self.unique(kind, name, origin, line, same):
            return False
        existing = self.taken.get(key)
        if existing is None and (self.root / dest).exists():
            existing = dest
        if existing is not None:
            self.report.collisions.append(
                {"kind": kind, "name": name, "from": origin, "existing": existing}
            )
            return False
        self.taken[key] = origin
        self.mark(kind, name, origin, same)
        return True

    def unique(self, kind: str, name: str, origin: str, line: int | None, same: bytes) -> bool:
        """False when another file of this import has `name` (`claim`): the same entry is a
        collision, a different one a clash, refused (with every file of it) by the next pass."""
        key = (kind, name)
        if self.refusing and key in self.clashes:
            self.refuse(origin, _clash_reason(kind, name, origin, self.clashes[key]), line)
            if kind == "skill":
                self.refused_skills.add(name)
            return False
        first = self.here.get(key)
        if first is None:
            return True
        self.seen[key].append(origin)
        if key in self.clashes or same != first[1]:
            self.clashes[key] = self.seen[key]
        else:
            self.report.collisions.append(
                {"kind": kind, "name": name, "from": origin, "existing": first[0]}
            )
        return False

    def mark(self, kind: str, name: str, origin: str, same: bytes) -> None:
        """`origin` brings in `name`: a later file of this import naming it is checked against
        it (`unique`)."""
        self.here[(kind, name)] = (origin, same)
        self.seen[(kind, name)] = [origin]

    def document(self, path: Path, *, entry_only: bool = False) -> frontmatter.Document | None:
        """The parsed file, or None (refused, or with `entry_only` skipped when it has no
        frontmatter: a README beside the agents is not an agent)."""
        rel = self.tree.rel(path)
        raw = self.tree.read(path, MAX_MARKDOWN)
        if isinstance(raw, Refused):
            self.report.refused.append(raw.to_dict())
            return None
        if b"\x00" in raw:  # text fields may not hold NUL (§13): it would reach rendered files
            self.report.refused.append(with_nul(rel, raw, "UTF-8 markdown").to_dict())
            return None
        try:
            text = decode_text(raw)
        except UnicodeDecodeError as exc:
            self.report.refused.append(undecodable(rel, raw, exc).to_dict())
            return None
        if entry_only and not text.startswith("---"):
            reason = "markdown without frontmatter: not an agent (a README or notes)"
            self.report.skipped.append({"path": rel, "reason": reason})
            return None
        try:
            return frontmatter.parse(text, rel)
        except InputError as exc:
            self.refuse(rel, exc.message, exc.line)
        return None

    def check_model(self, cls: type[BaseModel], data: dict[str, Any], rel: str) -> bool:
        try:
            cls.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            self.refuse(rel, f"does not fit the registry schema: {where}: {first['msg']}")
            return False
        return True

    def agent(self, path: Path) -> None:
        rel = self.tree.rel(path)
        doc = self.document(path, entry_only=True)
        if doc is None:
            return
        owner = agent_plugin(path) or path.parent.parent
        if not ({"name", "description"} & set(doc.meta)) and not is_plugin_folder(owner):
            reason = "frontmatter without `name` or `description`: not an agent (a page of docs)"
            self.report.skipped.append({"path": rel, "reason": reason})
            return
        plugin = owner.name if owner != self.tree.base else ""
        category = self.provider or ("" if plugin.startswith(".") else plugin)
        scope = self.plugins.for_agent(path)
        client = client_formats.client_of(path)
        try:
            if client is not None:
                item = client_formats.agent(doc, path, client, self.provider or "")
            else:
                item = convert.agent(doc, path.stem, category, scope)
        except convert.Skip as exc:
            self.refuse(rel, str(exc), exc.line)
            return
        if self.add_agent(item, rel) and scope is not None and client is None:
            self.plugins.declare(scope, path)

    def add_agent(self, item: convert.Converted, rel: str) -> bool:
        """Plan one converted agent (schema checked, collisions reported); True when planned."""
        dest = f"registries/agents/{item.name}.yaml"
        if not self.check_model(Agent, item.data, rel) or not self.claim(
            "agent", item.name, rel, dest, item.line, _same(item.data)
        ):
            return False
        self.report.files[dest] = yamlio.dumps(item.data).encode("utf-8")
        self.tools.extend(item.tools)
        self.report.agents.append(
            {
                "name": item.name,
                "from": rel,
                "to": dest,
                "role": item.data.get("role", "specialist"),
                "kept_frontmatter": item.kept,
            }
        )
        return True

    def skill(self, path: Path) -> None:
        rel = self.tree.rel(path)
        doc = self.document(path)
        if doc is None:
            return
        scope = self.plugins.for_skill(path)
        try:
            item = convert.skill(doc, path.parent.name, self.report.layer, self.provider, scope)
        except convert.Skip as exc:
            self.refuse(rel, str(exc), exc.line)
            self.refused_skills.add(str(doc.meta.get("name") or path.parent.name).strip())
            return
        base = f"registries/skills/{self.tier}"
        dest = f"{base}/{item.name}.yaml"
        bare = yamlio.dumps(item.data).encode("utf-8")
        resources, left_out = self.resources(path.parent, f"{base}/{item.name}")
        if resources:
            item.data["resources"] = f"{item.name}/"
        if not self.check_model(SkillFile, item.data, rel) or self.resume(
            item, rel, dest, bare, resources
        ):
            return
        if not self.claim("skill", item.name, rel, dest, item.line, _same(item.data, resources)):
            return
        if resources and (self.root / base / item.name).exists():
            self.report.collisions.append(
                {
                    "kind": "skill",
                    "name": item.name,
                    "from": rel,
                    "existing": f"{base}/{item.name}/",
                }
            )
            return
        self.report.files[dest] = yamlio.dumps(item.data).encode("utf-8")
        self.report.files.update(resources)
        self.tools.extend(item.tools)
        self.report.skills.append(_skill_row(item, rel, dest, resources))
        if left_out:
            self.partial.append((item.name, left_out))

    def resume(
        self,
        item: convert.Converted,
        rel: str,
        dest: str,
        bare: bytes,
        resources: dict[str, bytes],
    ) -> bool:
        """True when `item` finishes its own earlier import, which left out files refused then
        and present now (`importer.resume`): the missing files are planned, nothing else."""
        from orkestra.importer.resume import missing_files

        if ("skill", item.name) in self.clashes:
            return False  # another file of this import has its name: refused with it
        where = self.taken.get(("skill", item.name), "")
        if not where.startswith(f"{dest}:"):
            return False  # not in the registry at that path (or taken by this import)
        wanted = yamlio.dumps(item.data).encode("utf-8")
        missing = missing_files(self.root, dest, (wanted, bare), resources)
        if missing is None:
            return False
        self.taken[("skill", item.name)] = rel
        self.mark("skill", item.name, rel, _same(item.data, resources))
        if (self.root / dest).read_bytes() != wanted:
            self.report.files[dest] = wanted  # now with its `resources` folder
        self.report.files.update({path: resources[path] for path in missing})
        folder = dest.removesuffix(".yaml") + "/"
        completed = [path.removeprefix(folder) for path in missing]
        self.report.skills.append(_skill_row(item, rel, dest, resources, completed=completed))
        return True

    def resources(self, folder: Path, dest: str) -> tuple[dict[str, bytes], list[str]]:
        """(the files of a skill's folder to copy, path -> bytes; the ones refused, as paths
        inside the folder, each reported)."""
        out: dict[str, bytes] = {}
        left_out: list[str] = []
        # an executable SKILL.md: every file is (a FAT or NTFS mount, a zip unpacked 0777), so
        # the modes say nothing and the contents decide
        modeless = bool((folder / "SKILL.md").stat().st_mode & 0o100)  # a link: its file
        for item in self.tree.files(folder):
            if isinstance(item, Passed):
                continue  # a link to a folder of the skill, whose files are copied from there
            if isinstance(item, Refused):
                # reported once, by the walk of the whole tree (find_sources)
                left_out.append(item.path.removeprefix(self.tree.rel(folder) + "/"))
                continue
            if item.parent == folder and item.name == "SKILL.md":
                continue
            inner = item.relative_to(folder).as_posix()
            device = next((p for p in inner.split("/") if is_device_name(p)), None)
            if device is not None:
                self.refuse(self.tree.rel(item), device_problem(device))
                left_out.append(inner)
                continue
            raw = self.tree.read(item, MAX_RESOURCE)
            if isinstance(raw, Refused):
                self.report.refused.append(raw.to_dict())
                left_out.append(inner)
                continue
            rel = f"{dest}/{inner}"
            out[rel] = raw
            if _executable(inner, raw, item.stat().st_mode, modeless=modeless):
                self.report.executable.add(rel)
        return out, left_out

    def dormant(self) -> list[str]:
        """Imported skills that will not render (§3.4): in scopes no agent declares, listed by no
        agent, not K0. Plugin scopes are declared by their agents, so this is rarely any."""
        if self.report.layer == "K0":
            return []
        declared: set[str] = set()
        explicit: set[str] = set()
        for agent in self.reg.agents.values():
            declared.update(agent.scopes)
            explicit.update(agent.skills)
        for entry in self.report.agents:
            data = self.planned(entry["to"])
            declared.update(data.get("scopes") or [])
            explicit.update(data.get("skills") or [])
        member = self.reg.skill_scopes()
        dormant = []
        for entry in self.report.skills:
            scopes = set(self.planned(entry["to"]).get("scopes") or [])
            scopes |= member.get(entry["name"], set())
            if scopes and not scopes & declared and entry["name"] not in explicit:
                dormant.append(entry["name"])
        return sorted(dormant)

    def unlist_refused(self) -> None:
        """An imported agent that lists a refused skill, or one neither the import nor the
        registry has (it lives in the user's own ~/.claude/skills, say), would fail validation
        and stop every sync: the name is left out of its `skills` (and said in the hints) so the
        rest renders."""
        for entry in self.report.agents:
            data = self.planned(entry["to"])
            listed = data.get("skills") or []
            gone = [
                n for n in listed if ("skill", n) not in self.taken and n not in self.reg.skills
            ]
            if not gone:
                continue
            kept = [n for n in listed if n not in gone]
            if kept:
                data["skills"] = kept
            else:
                del data["skills"]
            self.report.files[entry["to"]] = yamlio.dumps(data).encode("utf-8")
            self.unlisted.extend((entry["name"], n) for n in gone)

    def plan_registry_file(self, rel: str, data: dict[str, Any]) -> None:
        """Plan `rel` (a registry YAML the import adds to) holding `data`: an existing file
        (or one planned earlier) gets the additions as text, its comments kept."""
        if rel in self.report.files:
            old_text: str | None = self.report.files[rel].decode("utf-8")
        elif (self.root / rel).is_file():
            old_text = yamlio.read_text(self.root / rel, display=rel, bom=True)
        else:
            old_text = None
        if old_text is None:
            self.report.files[rel] = yamlio.dumps(data).encode("utf-8")
            return
        old = plain(yamlio.loads(old_text, rel) or {})
        text = yamlmerge.updated(old_text, old, data, rel)
        self.report.files[rel] = text.encode("utf-8")

    def planned(self, rel: str) -> Any:
        """A registry file as the import leaves it: planned, else as it is (a resumed skill)."""
        if rel in self.report.files:
            return yamlio.loads(self.report.files[rel].decode("utf-8"), rel)
        return yamlio.loads(yamlio.read_text(self.root / rel, display=rel, bom=True), rel)

    def register_scopes(self) -> None:
        """Add the plugin scopes imported agents declare to scopes.yaml (reported)."""
        new = {s: p for s, p in sorted(self.plugins.declared.items()) if s not in self.reg.scopes}
        if not new:
            return
        rel = "registries/scopes.yaml"
        data: dict[str, Any] = {"scopes": {}}
        if (self.root / rel).is_file():
            data.update(plain(yamlio.load_mapping(self.root / rel, display=rel, allow_empty=True)))
        scopes = dict(data.get("scopes") or {})
        for scope, folder in new.items():
            where = self.tree.rel(folder) if folder != self.tree.base else folder.name
            scopes[scope] = {"description": f"Plugin {scope} (imported from {where}/)"}
            self.report.scopes_added.append(scope)
        data["scopes"] = scopes
        self.plan_registry_file(rel, data)

    def register_tools(self) -> None:
        """Add tools the imported files name to tools.yaml (reported)."""
        path = self.root / "registries" / "tools.yaml"
        data: dict[str, Any] = {"builtin": [], "mcp": {}}
        if path.is_file():
            data.update(
                plain(yamlio.load_mapping(path, display="registries/tools.yaml", allow_empty=True))
            )
        known = ToolsFile.model_validate(data).all_names()
        builtin: list[str] = list(data.get("builtin") or [])
        mcp: dict[str, list[str]] = {k: list(v) for k, v in (data.get("mcp") or {}).items()}
        for tool in dict.fromkeys(base_tool(t) for t in self.tools):
            if tool in known:
                continue
            server, tool_name = mcp_parts(tool)
            if server is not None and tool_name is not None:
                mcp.setdefault(server, []).append(tool_name)
            elif server is None and registrable(tool):
                builtin.append(tool)
            else:
                self.report.tools_unregistered.append(tool)
                continue
            known.add(tool)
            self.report.tools_added.append(tool)
        if self.report.tools_added:
            data["builtin"], data["mcp"] = builtin, mcp
            self.plan_registry_file("registries/tools.yaml", data)


def import_tree(
    root: Path,
    source: Path,
    *,
    provider: str | None = None,
    layer: str = "K4",
    dry_run: bool = False,
) -> ImportReport:
    """Import Claude Code agents (`**/agents/*.md`) and skills (`**/SKILL.md`) below `source`.

    Collisions are reported, never overwritten; unreadable or unsafe files, and skills over a
    hard limit of the Agent Skills spec, are refused with a reason and line while the rest is
    imported; tools the files name are added to tools.yaml and each plugin's scope to
    scopes.yaml. With `dry_run` nothing is written.
    """
    if layer not in LAYER_TIER:
        raise UsageError(f"unknown layer '{layer}'; use one of: {', '.join(LAYER_TIER)}")
    if provider is not None and name_problem(provider) is not None:
        raise UsageError(f"--provider '{provider}' is not a valid name: {name_problem(provider)}")
    if not source.is_dir():
        raise NotFound(
            f"import source '{source}' is not a folder; give the folder to read (a .claude/ or a "
            "plugin marketplace)"
        )
    report = ImportReport(source=str(source), dry_run=dry_run, layer=layer)
    tree = SafeTree(source)
    agent_files, skill_files, refused = find_sources(tree)
    sources = client_steps.find(tree)
    extra = manifests.declared(
        tree, sources.manifests, {*agent_files, *sources.claude_commands, *sources.mcp}
    )
    agent_files += extra.agents
    sources.claude_commands += extra.commands
    sources.mcp += extra.mcp
    refused += extra.refused
    report.skipped += extra.skipped
    report.skipped += [r.skipped() for r in refused if isinstance(r, Passed)]
    refused = [r for r in refused if not isinstance(r, Passed)]
    found = [r.to_dict() for r in refused]
    skipped = list(report.skipped)

    def plan(clashes: dict[tuple[str, str], list[str]] | None) -> _Importer:
        report.refused, report.skipped = list(found), list(skipped)
        plugins = PluginScopes(agent_files, skill_files)
        importer = _Importer(root.resolve(), tree, report, provider, plugins, clashes)
        plugins.live = {scope for agent in importer.reg.agents.values() for scope in agent.scopes}
        for path in agent_files:
            importer.agent(path)
        for path in skill_files:
            importer.skill(path)
        client_steps.run(importer, sources)
        importer.unlist_refused()
        importer.register_tools()
        importer.register_scopes()
        report.dormant = importer.dormant()
        return importer

    importer = plan(None)
    if importer.clashes:
        # two files of the source define one name: none of them may win by walk order (the
        # rename the refusal asks for may be of either), so everything is planned again
        # with all of them refused
        clashes = importer.clashes
        report = ImportReport(source=str(source), dry_run=dry_run, layer=layer)
        importer = plan(clashes)
    if not dry_run:
        _write(importer.root, report)
        report.validation = _validation(importer.root)
    report.hints = _hints(importer.root, source, report)
    report.hints[1:1] = [
        f"agent '{agent}' lists the {_what(importer, skill)}: it was left out of the agent's "
        f"`skills` so the rest renders; add it back in registries/agents/{agent}.yaml once "
        f"'{skill}' is {'imported' if skill in importer.refused_skills else 'registered'}"
        for agent, skill in importer.unlisted
    ]
    report.hints[1:1] = [
        f"skill '{name}' was imported without {', '.join(files)} (refused): fix "
        f"{'it' if len(files) == 1 else 'them'} in the source and run `orkestra import "
        f"{source}` again to add {'it' if len(files) == 1 else 'them'}"
        for name, files in importer.partial
    ]
    return report


#: how a program starts: a `#!` line, an ELF or a Mach-O executable
_PROGRAM = (b"#!", b"\x7fELF", b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe", b"\xca\xfe\xba\xbe")


def _executable(inner: str, raw: bytes, mode: int, *, modeless: bool) -> bool:
    """Whether a skill's file (`inner`: its path in the skill's folder) is copied executable:
    as it is, and a program in `scripts/` (the Agent Skills folder of code to run) whose
    checkout lost the bit (a zip, a filesystem without exec bits) too; when the modes say
    nothing (`modeless`), a program outside the spec's folders of data (references/, assets/)
    only."""
    program = raw.startswith(_PROGRAM)
    if modeless:
        return program and not inner.startswith(("references/", "assets/"))
    return bool(mode & 0o100) or (program and inner.startswith("scripts/"))


def _same(data: dict[str, Any], resources: dict[str, bytes] | None = None) -> bytes:
    """What an entry imports but for the plugin it came from (`category`, `scopes`): two files
    of one import equal in this are one entry (a symlink, a copy), not a clash."""
    kept = {k: v for k, v in data.items() if k not in ("category", "scopes")}
    out = yamlio.dumps(kept).encode("utf-8")
    for path, raw in sorted((resources or {}).items()):
        out += b"\0" + path.encode("utf-8") + b"\0" + raw
    return out


def _clash_reason(kind: str, name: str, origin: str, sources: list[str]) -> str:
    """Why an entry sharing its name with others of the same import is refused, and the fix."""
    others = ", ".join(s for s in sources if s != origin)
    where = {"skill": "its folder and its `name:`", "mcp": "its key"}.get(
        kind, "its `name:` or its file"
    )
    kind = "MCP server" if kind == "mcp" else kind
    return (
        f"{kind} '{name}' is also defined by {others}, differently: a registry holds one "
        f"{kind} of a name, so none of them was imported; rename all but one in the source "
        f"({where}) and import again (one {kind} written for several clients: import its "
        "folders one at a time)"
    )


def _what(importer: _Importer, skill: str) -> str:
    if skill in importer.refused_skills:
        return f"refused skill '{skill}'"
    return f"skill '{skill}', which neither this import nor the registry has"


def _skill_row(
    item: convert.Converted, rel: str, dest: str, resources: dict[str, bytes], **extra: Any
) -> dict[str, Any]:
    """An imported skill's line of the report (`completed`: the files a rerun added)."""
    return {
        "name": item.name,
        "from": rel,
        "to": dest,
        "resources": len(resources),
        "kept_frontmatter": item.kept,
        **extra,
    }


def _write(root: Path, report: ImportReport) -> None:
    guard = safewrite.Guard(root)
    for rel in sorted(report.files):  # every check first: a refusal leaves nothing written
        safewrite.check_target(root, rel, guard=guard)
    # a file that already holds what the import planned (a registry file a rerun edits back to
    # the same text: every server or value collided) is not rewritten, nor listed as written
    changed = {rel: data for rel, data in report.files.items() if not _holds(root / rel, data)}
    safewrite.clean_stale(root, {str(Path(rel).parent) for rel in changed})
    # one batch: every file is written before the first is renamed into place, so a full disk
    # never leaves agents naming tools or scopes that tools.yaml and scopes.yaml do not list yet
    # (a rerun skips what landed as collisions and would never add them)
    with safewrite.Batch(root, guard=guard) as batch:
        for rel, data in sorted(changed.items()):
            executable = rel in report.executable  # a file there keeps its mode otherwise
            new = None if not os.path.lexists(root / rel) else safewrite.UNSET
            batch.file(rel, data, executable=executable, expected_old=new)
    report.written.extend(sorted(changed))


def _holds(path: Path, data: bytes) -> bool:
    """True when `path` (checked by the safe writer: inside the project, no symlinked parent) is
    a regular file holding `data` (a symlink, a folder or a FIFO never does)."""
    from orkestra.core.readfile import read_regular

    try:
        raw, size = read_regular(path, max_bytes=len(data), follow=False)
    except OSError:
        return False
    return size == len(data) and raw == data


def _hints(root: Path, source: Path, report: ImportReport) -> list[str]:
    """What to do next, true for this outcome: never "sync" while sync would refuse."""
    hints = []
    if report.refused:
        hints.append(
            f"{len(report.refused)} entr{'y was' if len(report.refused) == 1 else 'ies were'} "
            f"refused (listed with file:line and the fix): fix them in the source and run "
            f"`orkestra import {source}` again; what was imported now is skipped as a collision"
        )
    if report.dormant:
        hints.append(
            "dormant skills are registered but not rendered until an agent declares one of "
            "their scopes in `scopes` or lists them in `skills`"
        )
    imported = report.imported
    errors = report.validation["errors"] if report.validation else 0
    if report.dry_run:
        if imported:
            hints.append(f"nothing was written (dry run): run `orkestra import {source}`")
    elif errors:
        hints.append(
            f"the registry has {errors} validation error(s), so `orkestra sync` would refuse "
            "to run: `orkestra validate` lists them with file:line; fix them, then sync"
        )
    elif imported:
        if source.resolve().is_relative_to(root / ".claude"):
            hints.append(
                "the imported files live in this project's .claude/, which Orkestra did not "
                "write: run `orkestra sync --dry-run` to compare, then `orkestra sync --force` "
                "to take them over"
            )
        else:
            hints.append("run `orkestra sync` to render them")
    return hints


def _validation(root: Path) -> dict[str, int]:
    from orkestra.registry.loader import load
    from orkestra.registry.validate import validate

    found = validate(load(root)).findings
    return {
        "errors": sum(f.severity == "error" for f in found),
        "warnings": sum(f.severity == "warning" for f in found),
    }
