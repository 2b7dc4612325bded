"""Load a project's `registries/` into one `Registry`, collecting findings instead of stopping."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from orkestra.core import frontmatter, yamlio
from orkestra.core.errors import InputError, NotFound
from orkestra.core.project import find_root
from orkestra.registry.findings import Finding
from orkestra.registry.models import (
    Agent,
    Character,
    Command,
    Config,
    DecisionRecord,
    DecisionsRegistry,
    ScopesFile,
    SkillFile,
    SkillMd,
    ToolsFile,
    TruthRegistry,
    ValuesFile,
)
from orkestra.registry.models.common import TIER_LAYER, name_problem
from orkestra.registry.models.vendor import AdoptedSkill, VendorOverlay
from orkestra.registry.registry import DOMAIN_FILES, Domain, Location, Registry, SkillEntry

M = TypeVar("M", bound=BaseModel)

__all__ = ["find_root", "load"]


class _Loader:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.prefix = str(root).rstrip(os.sep) + os.sep
        self.reg = Registry(root=root)
        self.real_root = root.resolve()
        self.folder_inside: dict[Path, bool] = {}

    # --- helpers --------------------------------------------------------------------------------

    def rel(self, path: Path) -> str:
        """`path` relative to the project root, posix (string slicing: this runs per file)."""
        text = str(path)
        if text.startswith(self.prefix):
            return text[len(self.prefix) :].replace(os.sep, "/")
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:  # outside the project: shown as it is
            return path.as_posix()

    def add(self, code: str, message: str, file: str, line: int | None = None) -> None:
        self.reg.findings.append(Finding.make(code, message, file, line))

    def read(self, path: Path, *, allow_empty: bool = False) -> yamlio.LineDict | None:
        if self.leaves_project(path):
            return None
        try:
            return yamlio.load_mapping(path, display=self.rel(path), allow_empty=allow_empty)
        except InputError as exc:
            self.add("ORK001", exc.message, exc.file or self.rel(path), exc.line)
            return None

    def leaves_project(self, path: Path) -> bool:
        """True (and reported) when `path` or a folder on its way is a symlink leading outside
        the project: such a file is refused, never read (§13)."""
        folder = path.parent
        inside = self.folder_inside.get(folder)
        if inside is None:
            inside = self.folder_inside[folder] = _inside(folder, self.real_root)
        try:
            link = stat.S_ISLNK(os.lstat(path).st_mode)
        except OSError:
            link = False  # a missing or unreadable file is reported by the read itself
        if inside and (not link or _inside(path, self.real_root)):
            return False
        where = path if link else folder
        self.add(
            "ORK045",
            f"'{self.rel(where)}' is a symlink to '{where.resolve()}', outside the project; "
            "registry files are only read inside the project (copy the file in instead)",
            self.rel(path),
        )
        return True

    def yaml_files(self, folder: Path) -> list[Path]:
        """The YAML files of one folder, sorted; an unreadable folder is a finding naming it."""
        try:
            return _yaml_files(folder)
        except OSError as exc:
            self.unreadable(folder, exc)
            return []

    def blocked(self, path: Path) -> Path:
        """The outermost folder between the project and `path` that cannot be listed, else
        `path`: the one to name when a file below an unreadable folder cannot be looked at."""
        try:
            parts = path.relative_to(self.root).parts
        except ValueError:
            return path
        folder = self.root
        for part in parts[:-1]:
            folder = folder / part
            if not os.access(folder, os.R_OK | os.X_OK):
                return folder
        return path

    def unreadable(self, path: Path, exc: OSError) -> None:
        """Report a file or folder the operating system would not let us read."""
        where = self.blocked(Path(exc.filename) if isinstance(exc.filename, str) else path)
        try:
            kind = "folder" if where.is_dir() else "file"
        except OSError:
            kind = "path"
        self.add(
            "ORK001",
            f"cannot read this {kind}: {exc.strerror or exc}; fix its permissions",
            self.rel(where),
        )

    def model(self, cls: type[M], data: Any, file: str, prefix: tuple[Any, ...] = ()) -> M | None:
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            for error in exc.errors():
                loc = tuple(error["loc"])
                line = yamlio.line_of(data, loc)
                self.add("ORK002", _describe(error, prefix + loc, cls), file, line)
            return None

    def place(self, kind: str, name: str, loc: Location) -> bool:
        """Record where `name` is defined; a second definition is a duplicate finding."""
        key = (kind, name)
        first = self.reg.locations.get(key)
        if first is not None:
            self.add(
                "ORK010", f"duplicate {kind} '{name}' (also defined at {first})", loc.file, loc.line
            )
            return False
        self.reg.locations[key] = loc
        return True

    # --- kinds ----------------------------------------------------------------------------------

    def config(self) -> None:
        path = self.reg.registries / "orkestra.yaml"
        if not path.is_file():
            self.add(
                "ORK005",
                "orkestra.yaml is missing; run `orkestra init` or create it",
                self.rel(path),
            )
            return
        self.reg.locations[("config", "orkestra")] = Location(self.rel(path), 1)
        data = self.read(path, allow_empty=True)
        if data is not None:
            cfg = self.model(Config, data, self.rel(path))
            if cfg is not None:
                self.reg.config = cfg

    def characters(self) -> None:
        for kind, target in (
            ("identity", self.reg.identities),
            ("mindset", self.reg.mindsets),
            ("style", self.reg.styles),
        ):
            path = self.reg.registries / "characters" / f"{_plural(kind)}.yaml"
            if not path.is_file():
                continue
            data = self.read(path, allow_empty=True)
            if data is None:
                continue
            file = self.rel(path)
            for name, value in data.items():
                line = data.key_lines.get(name)
                problem = name_problem(name)
                if problem is not None:
                    self.add("ORK002", f"{kind} name {name!r}: {problem}", file, line)
                    continue
                item = self.model(Character, value, file, (name,))
                if item is not None and self.place(kind, name, Location(file, line or 0)):
                    target[name] = item

    def values_and_tools(self) -> None:
        values_path = self.reg.registries / "values.yaml"
        if values_path.is_file():
            data = self.read(values_path, allow_empty=True)
            if data is not None:
                values = self.model(ValuesFile, data, self.rel(values_path))
                if values is not None:
                    self.reg.values = list(values.values)
        tools_path = self.reg.registries / "tools.yaml"
        if tools_path.is_file():
            data = self.read(tools_path, allow_empty=True)
            if data is not None:
                tools = self.model(ToolsFile, data, self.rel(tools_path))
                if tools is not None:
                    self.reg.tools = tools
                    for name in tools.all_names():
                        self.reg.locations[("tool", name)] = Location(self.rel(tools_path), 0)

    def named_files(
        self, folder: str, cls: type[M], kind: str, *, slug_ok: bool = False
    ) -> list[tuple[M, Location]]:
        """Load `<folder>/<stem>.yaml` files whose `name` (or `id`) must equal the stem.

        With `slug_ok`, a stem may also be `<id>-<slug>` (decision records), which is how two
        branches can each add the same id in different files: reported as a duplicate.
        """
        out: list[tuple[M, Location]] = []
        for path in self.yaml_files(self.reg.registries / folder):
            data = self.read(path)
            if data is None:
                continue
            file = self.rel(path)
            item = self.model(cls, data, file)
            if item is None:
                continue
            name = str(getattr(item, "name", None) or getattr(item, "id", ""))
            if name != path.stem and not (slug_ok and path.stem.startswith(f"{name}-")):
                line = data.key_lines.get("name") or data.key_lines.get("id")
                self.add(
                    "ORK003", f"{kind} '{name}' must be in a file named {name}.yaml", file, line
                )
                continue
            loc = Location(file, data.line or 1)
            if self.place(kind, name, loc):
                out.append((item, loc))
        return out

    def agents_and_commands(self) -> None:
        for agent, _ in self.named_files("agents", Agent, "agent"):
            self.reg.agents[agent.name] = agent
        for command, _ in self.named_files("commands", Command, "command"):
            self.reg.commands[command.name] = command

    def core_skills(self) -> None:
        base = self.reg.registries / "skills"
        if not base.is_dir():
            return
        for tier_dir in sorted(p for p in base.iterdir() if p.is_dir()):
            tier = tier_dir.name
            if tier not in TIER_LAYER:
                allowed = ", ".join(TIER_LAYER)
                self.add(
                    "ORK004",
                    f"unknown skill tier folder '{tier}' (use one of: {allowed})",
                    self.rel(tier_dir),
                )
                continue
            for path in self.yaml_files(tier_dir):
                self.core_skill(path, tier)
        for stray in sorted(base.glob("*.yaml")):
            self.add(
                "ORK004",
                "skill files belong in a tier folder (skills/<tier>/<name>.yaml)",
                self.rel(stray),
            )

    def core_skill(self, path: Path, tier: str) -> None:
        data = self.read(path)
        if data is None:
            return
        file = self.rel(path)
        skill = self.model(SkillFile, data, file)
        if skill is None:
            return
        meta = skill.metadata
        if not (meta.identifier == meta.name == path.stem):
            line = yamlio.line_of(data, ("metadata", "name"))
            self.add(
                "ORK003",
                f"skill identifier '{meta.identifier}' and name '{meta.name}' must both equal the file stem '{path.stem}'",
                file,
                line,
            )
            return
        if TIER_LAYER[tier] != meta.layer:
            line = yamlio.line_of(data, ("metadata", "layer"))
            self.add(
                "ORK040",
                f"skill '{meta.name}' declares layer {meta.layer} but lives in {tier}/ ({TIER_LAYER[tier]})",
                file,
                line,
            )
        loc = Location(file, data.key_lines.get("metadata", 1))
        folder = None
        if skill.resources:
            folder = self.rel(path.parent / skill.resources)
        entry = SkillEntry(
            name=meta.name,
            description=meta.description,
            layer=meta.layer,
            type=meta.type or "",
            source="core",
            tags=tuple(skill.frontmatter.tags),
            allowed_tools=tuple(skill.frontmatter.allowed_tools),
            scopes=tuple(skill.scopes),
            loc=loc,
            folder=folder,
            tier=tier,
            provider=meta.provider,
            imported=meta.imported,
            core=skill,
        )
        if self.place("skill", meta.name, loc):
            self.reg.skills[meta.name] = entry

    def vendor_skills(self) -> None:
        for root_cfg in self.reg.config.vendor_roots:
            base = self.root / root_cfg.path
            if not base.is_dir():
                self.add(
                    "ORK030",
                    f"vendor root '{root_cfg.path}' ({root_cfg.provider}) does not exist",
                    "registries/orkestra.yaml",
                )
                continue
            if not _inside(base, self.real_root):
                self.add(
                    "ORK045",
                    f"vendor root '{root_cfg.path}' ({root_cfg.provider}) leaves the project "
                    "through a symlink; put the skills inside the project (e.g. a submodule)",
                    "registries/orkestra.yaml",
                )
                continue
            overlay = self.vendor_overlay(root_cfg.provider)
            if overlay is False:
                continue  # an unreadable overlay loads nothing rather than everything
            adopted: dict[Path, AdoptedSkill] = {}
            if overlay is not None:
                prefix = f"{root_cfg.path.rstrip('/')}/"
                for item in overlay.skills.values():
                    if f"{item.path.rstrip('/')}/".startswith(prefix):
                        adopted[self.root / item.path / "SKILL.md"] = item
                found = sorted(adopted)
            else:
                found = sorted(base.glob("*/SKILL.md"))
            for skill_md in found:
                if (
                    skill_md.parent.is_symlink()
                    or skill_md.is_symlink()
                    or not _inside(skill_md.parent, self.real_root)
                ):
                    self.add(
                        "ORK045",
                        "vendor skill is a symlink; only real folders are read",
                        self.rel(skill_md),
                    )
                    continue
                if not skill_md.is_file():
                    self.add(
                        "ORK041",
                        f"adopted vendor skill folder has no SKILL.md (listed in "
                        f"registries/vendor/{root_cfg.provider}.yaml)",
                        self.rel(skill_md),
                    )
                    continue
                self.vendor_skill(skill_md, root_cfg, adopted.get(skill_md))

    def vendor_overlay(self, provider: str) -> VendorOverlay | Literal[False] | None:
        """The provider's overlay (`registries/vendor/<provider>.yaml`), None if absent, False if bad."""
        path = self.reg.registries / "vendor" / f"{provider}.yaml"
        if not path.is_file():
            return None
        data = self.read(path)
        overlay = None if data is None else self.model(VendorOverlay, data, self.rel(path))
        return False if overlay is None else overlay

    def vendor_skill(self, path: Path, root_cfg: Any, adopted: AdoptedSkill | None = None) -> None:
        file = self.rel(path)
        try:
            doc = frontmatter.parse(yamlio.read_text(path, display=file), file)
        except InputError as exc:
            self.add("ORK001", exc.message, exc.file or file, exc.line)
            return
        md = self.model(SkillMd, doc.meta, file)
        if md is None:
            return
        if md.name != path.parent.name:
            self.add(
                "ORK003",
                f"vendor skill name '{md.name}' must equal its folder '{path.parent.name}'",
                file,
                doc.meta.key_lines.get("name"),
            )
            return
        meta = md.metadata or {}
        layer = str(meta.get("layer", root_cfg.layer))
        if layer not in TIER_LAYER.values():
            layer = root_cfg.layer
        tags = meta.get("tags", [])
        tag_list = (
            tags.split(",")
            if isinstance(tags, str)
            else list(tags)
            if isinstance(tags, list)
            else []
        )
        loc = Location(file, 1)
        tags_out = tuple(str(t).strip() for t in tag_list if str(t).strip())
        skill_type, tools, scopes = (
            str(meta.get("type", "workflow")),
            tuple(md.tools()),
            tuple(root_cfg.default_scopes),
        )
        if adopted is not None:  # the overlay's normalised metadata wins over SKILL.md's
            layer, skill_type, tags_out = adopted.layer, adopted.type, tuple(adopted.tags)
            tools = tuple(adopted.allowed_tools)
            scopes = tuple(dict.fromkeys([*adopted.scopes, *root_cfg.default_scopes]))
        entry = SkillEntry(
            name=md.name,
            description=md.description,
            layer=layer,
            type=skill_type,
            source="vendor",
            tags=tags_out,
            allowed_tools=tools,
            scopes=scopes,
            loc=loc,
            folder=self.rel(path.parent),
            provider=root_cfg.provider,
            vendor=md,
            vendor_root=root_cfg,
            vendor_body=doc.body,
        )
        if self.place("skill", md.name, loc):
            self.reg.skills[md.name] = entry

    def scopes(self) -> None:
        path = self.reg.registries / "scopes.yaml"
        if not path.is_file():
            return
        data = self.read(path, allow_empty=True)
        if data is None:
            return
        scopes = self.model(ScopesFile, data, self.rel(path))
        if scopes is None:
            return
        block = data.get("scopes")
        for name, scope in scopes.scopes.items():
            line = block.key_lines.get(name, 0) if isinstance(block, yamlio.LineDict) else 0
            self.reg.scopes[name] = scope
            self.reg.locations[("scope", name)] = Location(self.rel(path), line)

    def truths(self) -> None:
        for path in self.yaml_files(self.reg.registries / "truths"):
            data = self.read(path)
            if data is None:
                continue
            file = self.rel(path)
            registry = self.model(TruthRegistry, data, file)
            if registry is None:
                continue
            self.reg.truth_files[file] = registry
            for index, statement in enumerate(registry.statements):
                line = yamlio.line_of(data, ("statements", index)) or 0
                if self.place("truth", statement.id, Location(file, line)):
                    self.reg.truths[statement.id] = statement

    def decisions(self) -> None:
        path = self.reg.registries / "decisions" / "registry.yaml"
        if path.is_file():
            data = self.read(path, allow_empty=True)
            if data is not None:
                dreg = self.model(DecisionsRegistry, data, self.rel(path))
                if dreg is not None:
                    self.reg.decisions_registry = dreg
        for record, _ in self.named_files(
            "decisions/records", DecisionRecord, "decision", slug_ok=True
        ):
            self.reg.decisions[record.id] = record

    def domains(self) -> None:
        base = self.reg.registries / "domains"
        if not base.is_dir():
            return
        for dirpath, dirnames, filenames in os.walk(
            base, onerror=lambda exc: self.unreadable(base, exc)
        ):
            dirnames.sort()
            folder = Path(dirpath)
            if folder == base:
                for stray in sorted(filenames):
                    self.add(
                        "ORK107",
                        "files directly under domains/ are ignored; put them in a domain folder",
                        self.rel(folder / stray),
                    )
                continue
            name = folder.relative_to(base).as_posix()
            present = tuple(f for f in DOMAIN_FILES if f in filenames)
            self.reg.domains[name] = Domain(name=name, folder=self.rel(folder), files=present)
            self.reg.locations[("domain", name)] = Location(self.rel(folder), 0)
            missing = [f for f in DOMAIN_FILES if f not in filenames]
            if missing:
                self.add(
                    "ORK043",
                    f"domain '{name}' lacks {', '.join(missing)} (each domain holds {', '.join(DOMAIN_FILES)})",
                    self.rel(folder),
                )
            for extra in sorted(set(filenames) - set(DOMAIN_FILES)):
                self.add(
                    "ORK107",
                    f"domain '{name}' holds an extra file '{extra}'",
                    self.rel(folder / extra),
                )


def load(root: Path) -> Registry:
    """Load every registry kind under `root/registries`. Content problems become findings."""
    if not (root / "registries").is_dir():
        raise NotFound(f"no registries/ folder in {root}; run `orkestra init` to create one")
    loader = _Loader(root)
    for kind in (
        loader.config,
        loader.characters,
        loader.values_and_tools,
        loader.agents_and_commands,
        loader.core_skills,
        loader.vendor_skills,
        loader.scopes,
        loader.truths,
        loader.decisions,
        loader.domains,
    ):
        try:
            kind()
        except OSError as exc:  # a folder or file the OS will not let us look at (EACCES, ...)
            loader.unreadable(loader.reg.registries, exc)
    return loader.reg


def _yaml_files(folder: Path) -> list[Path]:
    """The YAML files of one folder, sorted (scandir: no extra stat per file); OSError other
    than a missing folder propagates."""
    try:
        with os.scandir(folder) as entries:
            names = sorted(
                e.name for e in entries if e.name.endswith((".yaml", ".yml")) and e.is_file()
            )
    except (FileNotFoundError, NotADirectoryError):  # no such folder: no files of this kind
        return []
    return [folder / name for name in names]


def _inside(path: Path, real_root: Path) -> bool:
    """True when `path`, symlinks resolved, stays inside the (resolved) project root."""
    return path.resolve().is_relative_to(real_root)


def _plural(kind: str) -> str:
    return {"identity": "identities", "mindset": "mindsets", "style": "styles"}[kind]


def _describe(error: Any, loc: tuple[Any, ...], cls: type[BaseModel]) -> str:
    path = ".".join(str(p) for p in loc) or "(root)"
    kind = error.get("type", "")
    if kind == "extra_forbidden":
        return f"unknown key '{path}': remove it or check its spelling"
    if kind == "missing":
        return f"missing required key '{path}'"
    message = str(error.get("msg", "invalid value")).removeprefix("Value error, ")
    if kind == "string_pattern_mismatch" and loc and str(loc[-1]) in {"name", "identifier"}:
        message = "must be lowercase letters, digits and single hyphens (^[a-z0-9]+(-[a-z0-9]+)*$)"
    return f"{path}: {message}"
