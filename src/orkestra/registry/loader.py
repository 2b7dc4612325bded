"""Load a project's `registries/` into one `Registry`, collecting findings instead of stopping."""

from __future__ import annotations

import functools
import os
import re
import stat
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from orkestra.core import gcpause
from orkestra.core.errors import InputError
from orkestra.core.filenames import is_utf8, printable
from orkestra.core.project import find_root, require_registries
from orkestra.registry import cache as parse_cache
from orkestra.registry import lazy, models, prefetch
from orkestra.registry.findings import Finding
from orkestra.registry.models.names import (
    NAME_PATTERN,
    TIER_LAYER,
    device_problem,
    is_device_name,
    name_problem,
    pattern_advice,
)
from orkestra.registry.registry import DOMAIN_FILES, Domain, Location, Registry, SkillEntry

if TYPE_CHECKING:  # pydantic and YAML are imported only when a file must be parsed
    from pydantic import BaseModel

    from orkestra.core import yamlio
    from orkestra.registry.models.config import VendorRoot
    from orkestra.registry.models.vendor import AdoptedSkill, VendorOverlay

M = TypeVar("M", bound="BaseModel")
#: how one file's handler is called: (its parsed mapping, its relative path, its path)
Handler = Callable[["yamlio.LineDict", str, Path], None]
#: Registry attributes whose default is a model built from nothing, with the model's class
_DEFAULTS = {"config": "Config", "tools": "ToolsFile", "decisions_registry": "DecisionsRegistry"}
#: a skill entry's tuple fields (lists in the cache)
_SKILL_TUPLES = ("tags", "allowed_tools", "scopes")

__all__ = ["find_root", "load"]


def _still(path: Path, st: os.stat_result) -> bool:
    """True when `path` has identity `st` after it was read: the text read is the one that
    identity stands for. An edit between the stat and the read (a save by rename, a write in
    place) would pair the old identity with the new text, which a later run comparing bytes
    under a new identity (`cache.same_bytes`) would take for the bytes the old one held."""
    try:
        return parse_cache.identity(os.stat(path)) == parse_cache.identity(st)  # noqa: PTH116
    except OSError:
        return False


class _Loader:
    def __init__(
        self,
        root: Path,
        *,
        lazy_models: bool = False,
        use_cache: bool = True,
        keep_replaced: parse_cache.Keep = True,
    ) -> None:
        self.root = root
        self.prefix = str(root).rstrip(os.sep) + os.sep
        self.lazy = lazy_models
        if lazy_models:  # the defaults too stay plain until used
            plain: dict[str, Any] = {
                attr: lazy.Lazy({}, {"m": cls, "at": [], "sub": [], "f": {}, "t": []})
                for attr, cls in _DEFAULTS.items()
            }
            self.reg = Registry(root=root, **plain)
        else:
            self.reg = Registry(root=root)
        self.real_root = root.resolve()
        self.folder_inside: dict[Path, bool] = {}
        self.cache = (
            parse_cache.ParseCache(root, keep_replaced=keep_replaced) if use_cache else None
        )
        #: the helper loading every other agent and skill file of a cold load (`prefetch`)
        self.prefetch: prefetch.Prefetch | None = None
        #: while one file is processed: what it does to the registry, replayed by `apply`
        self.ops: list[list[Any]] | None = None

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
        if self.ops is not None:
            self.ops.append(["F", code, message, file, line])
        else:
            self.reg.findings.append(Finding.make(code, message, file, line))

    def read(self, path: Path, *, allow_empty: bool = False) -> yamlio.LineDict | None:
        from orkestra.core import yamlio

        if self.leaves_project(path, self.lstat(path)):
            return None
        try:
            return yamlio.load_mapping(path, display=self.rel(path), allow_empty=allow_empty)
        except InputError as exc:
            self.add("ORK001", exc.message, exc.file or self.rel(path), exc.line)
            return None

    # --- one registry file, through the parse cache ----------------------------------------------

    def unit(self, path: Path, handler: Handler, *, allow_empty: bool = False) -> None:
        """Load one YAML file: replay what it produced last time when it is unchanged, else
        parse it, let `handler` record its findings and entries, apply them and cache them."""
        file = self.rel(path)
        if self.cache is not None and self.prefetch is not None and file in self.prefetch.owned:
            # the helper's entry first, then the look at the file: a change made after the
            # helper read it shows in the identity taken below, and the entry goes unused
            self.prefetch.offer(file, self.cache)
        seen = time.time_ns()  # before the look at the file: when its identity was taken
        found = self.lstat(path)
        if self.leaves_project(path, found):
            return
        if not is_utf8(file):
            self.add("ORK001", "the file name is not valid UTF-8; rename it", printable(file))
            return
        st = None
        if self.cache is not None:  # a plain file's lstat is its stat: no second look
            known = found if found is not None and not stat.S_ISLNK(found.st_mode) else None
            hit, st, seen = self.cache.lookup(file, path, known, seen)
            if hit is not None and self.replay(hit):
                return
        from orkestra.core import yamlio

        self.ops, text, data, plain = [], None, None, True
        try:
            text = yamlio.read_text(path, display=file)
            data, plain = yamlio.parse_document(text, file, allow_empty=allow_empty)
            handler(data, file, path)
        except InputError as exc:
            self.add("ORK001", exc.message, exc.file or file, exc.line)
        finally:
            ops, self.ops = self.ops, None
            for op in ops:
                self.apply(op)
        if self.cache is None:
            return
        # the parser says plain: JSON-safe; the identity still the one taken before the read
        if st is not None and text is not None and plain and _still(path, st):
            self.cache.store(file, st, seen, text, data, [_encode_op(op) for op in ops])
        else:
            self.cache.forget(file)

    def replay(self, hit: parse_cache.Hit) -> bool:
        """Apply a cached file's ops; False (nothing applied) when the entry is malformed or its
        data no longer validates, so the file is parsed instead."""
        if not parse_cache.ops_ok(hit.ops):
            return False
        memo: dict[str, Any] = {}
        try:
            ops = [[*op[:-1], self.decode(op[-1], hit.raw, memo)] if op[0] in "PSD" else op
                   for op in hit.ops]  # fmt: skip
        except (ValueError, LookupError, TypeError, AttributeError):  # pydantic's too
            return False
        for op in ops:
            self.apply(op)
        return True

    def decode(self, obj: dict[str, Any], raw: Any, memo: dict[str, Any]) -> tuple[Any, ...]:
        """A cached object back in its live form (models lazy or validated now)."""
        if "list" in obj:
            return ("list", [self.decode(spec, raw, memo) for spec in obj["list"]])
        if "skill" in obj:
            fields = dict(obj["skill"])
            for key in _SKILL_TUPLES:
                fields[key] = tuple(fields[key])
            core = obj.get("core")
            return ("skill", fields, None if core is None else self.decode(core, raw, memo))
        if self.lazy:
            return ("m", lazy.Lazy(raw, obj))
        return ("m", lazy.build(raw, obj, memo))

    def apply(self, op: list[Any]) -> None:
        """Do one recorded op to the registry (the same code for parsed and cached files)."""
        kind = op[0]
        if kind == "F":
            self.reg.findings.append(Finding.make(op[1], op[2], op[3], op[4]))
        elif kind == "L":
            self.reg.locations[(op[1], op[2])] = Location(op[3], op[4])
        elif kind == "P":
            loc = Location(op[3], op[4])
            if self.place(op[1], op[2], loc):
                getattr(self.reg, op[5])[op[6]] = _value(op[7], loc)
        elif kind == "S":
            setattr(self.reg, op[1], _value(op[2], None))
        elif kind == "D":
            getattr(self.reg, op[1])[op[2]] = _value(op[3], None)

    def put(self, kind: str, name: str, loc: Location, target: str, obj: tuple[Any, ...]) -> None:
        """Record: place `name` (a duplicate is a finding) and store `obj` under it."""
        assert self.ops is not None
        self.ops.append(["P", kind, name, loc.file, loc.line, target, name, obj])

    def record(self, *op: Any) -> None:
        """Record an `L` (location), `S` (set an attribute) or `D` (dict item) op."""
        assert self.ops is not None
        self.ops.append(list(op))

    @staticmethod
    def lstat(path: Path) -> os.stat_result | None:
        """`path`'s lstat; None when it cannot be looked at (the read reports why)."""
        try:
            return os.lstat(path)
        except OSError:
            return None

    def leaves_project(self, path: Path, found: os.stat_result | None) -> bool:
        """True (and reported) when `path` or a folder on its way is a symlink leading outside
        the project: such a file is refused, never read (§13). `found`: its lstat."""
        folder = path.parent
        inside = self.folder_inside.get(folder)
        if inside is None:
            inside = self.folder_inside[folder] = _inside(folder, self.real_root)
        link = found is not None and stat.S_ISLNK(found.st_mode)
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
        """The YAML files of one folder, sorted; an unreadable folder is a finding naming it, and
        so is a `*.yaml` name there that is no file (it would be ignored without a word)."""
        try:
            files, others = _yaml_entries(folder)
        except OSError as exc:
            self.unreadable(folder, exc)
            return []
        for path, what in others:
            self.add("ORK004", not_read(self.rel(path), what), self.rel(path))
        return files

    def single(self, path: Path) -> bool:
        """Whether the registry's one file of a kind (`tools.yaml`, `scopes.yaml`, …) is there
        to load; something else at its name (a folder, a FIFO, a dangling symlink) is a finding
        naming it, never skipped without a word as if the file were absent."""
        if path.is_file():
            return True
        if path.is_symlink() or path.exists():
            what = "a folder" if path.is_dir() else _what_path(path)
            self.add("ORK004", not_read(self.rel(path), what), self.rel(path))
        return False

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

    def model(
        self,
        cls: type[M],
        data: Any,
        file: str,
        prefix: tuple[Any, ...] = (),
        *,
        left_out: str | None = None,
        line: int | None = None,
    ) -> M | None:
        """`data` as a `cls`, or None with an ORK002 finding per error; `left_out` names what
        the failure leaves out of the registry (said once, on the first finding); `line` is
        where `data` is written when it is a value of a larger file (a scalar or an empty value
        carries no line of its own)."""
        from pydantic import ValidationError

        from orkestra.core import yamlio

        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            for index, error in enumerate(exc.errors()):
                loc = error_loc(error)
                at = yamlio.line_of(data, loc) or line
                message = describe_error(error, prefix + loc, cls)
                if left_out and not index:
                    message += f" (until this is fixed, {left_out} is left out)"
                self.add("ORK002", message, file, at)
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
            message = "orkestra.yaml is missing; run `orkestra init` or create it"
            if path.is_symlink() or path.exists():  # something else stands at its name
                what = "a folder" if path.is_dir() else _what_path(path)
                message = f"orkestra.yaml is {what}: it is not read; replace it with a YAML file"
            self.add("ORK005", message, self.rel(path))
            return
        self.reg.locations[("config", "orkestra")] = Location(self.rel(path), 1)
        self.unit(path, self._config, allow_empty=True)

    def _config(self, data: yamlio.LineDict, file: str, path: Path) -> None:
        cfg = self.model(models.Config, data, file)
        if cfg is not None:
            self.record("S", "config", _m(cfg, "Config"))

    def characters(self) -> None:
        for kind, target in (
            ("identity", "identities"),
            ("mindset", "mindsets"),
            ("style", "styles"),
        ):
            path = self.reg.registries / "characters" / f"{_plural(kind)}.yaml"
            if self.single(path):
                self.unit(path, self._characters(kind, target), allow_empty=True)

    def _characters(self, kind: str, target: str) -> Handler:
        def handle(data: yamlio.LineDict, file: str, path: Path) -> None:
            for name, value in data.items():
                line = data.key_lines.get(name)
                problem = name_problem(name)
                if problem is not None:
                    self.add("ORK002", f"{kind} name {name!r}: {problem}", file, line)
                    continue
                item = self.model(models.Character, value, file, (name,), line=line)
                if item is not None:
                    obj = _m(item, "Character", at=[name])
                    self.put(kind, name, Location(file, line or 0), target, obj)

        return handle

    def values_and_tools(self) -> None:
        values_path = self.reg.registries / "values.yaml"
        if self.single(values_path):
            self.unit(values_path, self._values, allow_empty=True)
        tools_path = self.reg.registries / "tools.yaml"
        if self.single(tools_path):
            self.unit(tools_path, self._tools, allow_empty=True)
        mcp_path = self.reg.registries / "mcp.yaml"
        if self.single(mcp_path):
            self.unit(mcp_path, self._mcp, allow_empty=True)

    def _values(self, data: yamlio.LineDict, file: str, path: Path) -> None:
        values = self.model(models.ValuesFile, data, file)
        if values is not None:
            items = [_m(v, "ValuesFile", sub=["values", i]) for i, v in enumerate(values.values)]
            self.record("S", "values", ("list", items))

    def _mcp(self, data: yamlio.LineDict, file: str, path: Path) -> None:
        from orkestra.core import yamlio

        servers = self.model(models.McpFile, data, file)
        if servers is not None:
            for name, server in servers.root.items():
                self.record("D", "mcp_servers", name, _m(server, "McpFile", sub=["root", name]))
                self.record("L", "mcp", name, file, yamlio.line_of(data, (name,)) or 0)

    def _tools(self, data: yamlio.LineDict, file: str, path: Path) -> None:
        tools = self.model(models.ToolsFile, data, file)
        if tools is not None:
            self.record("S", "tools", _m(tools, "ToolsFile"))
            for name in sorted(tools.all_names()):  # the same entry in every process
                self.record("L", "tool", name, file, 0)

    def named_files(
        self, folder: str, cls: str, kind: str, target: str, *, slug_ok: bool = False
    ) -> None:
        """Load `<folder>/<stem>.yaml` files whose `name` (or `id`) must equal the stem.

        With `slug_ok`, a stem may also be `<id>-<slug>` (decision records), which is how two
        branches can each add the same id in different files: reported as a duplicate.
        """

        handle = self._named(cls, kind, target, slug_ok=slug_ok)
        for path in self.yaml_files(self.reg.registries / folder):
            self.unit(path, handle)

    def _named(self, cls: str, kind: str, target: str, *, slug_ok: bool) -> Handler:
        def handle(data: yamlio.LineDict, file: str, path: Path) -> None:
            item = self.model(lazy.model_class(cls), data, file)
            if item is None:
                return
            name = str(getattr(item, "name", None) or getattr(item, "id", ""))
            if name != path.stem and not (slug_ok and path.stem.startswith(f"{name}-")):
                line = data.key_lines.get("name") or data.key_lines.get("id")
                self.add(
                    "ORK003", f"{kind} '{name}' must be in a file named {name}.yaml", file, line
                )
                return
            self.put(kind, name, Location(file, data.line or 1), target, _m(item, cls))

        return handle

    def agents_and_commands(self) -> None:
        self.named_files("agents", "Agent", "agent", "agents")
        self.named_files("commands", "Command", "command", "commands")

    def bulk(self) -> list[tuple[Path, str, Callable[[Path], None]]]:
        """The agent and skill files, in the order `agents_and_commands` and `core_skills` load
        them, each with how it is loaded (what a `prefetch` helper shares)."""
        out: list[tuple[Path, str, Callable[[Path], None]]] = []

        def add(paths: list[Path], handler: Handler) -> None:
            load = functools.partial(self.unit, handler=handler)
            out.extend((p, self.rel(p), load) for p in paths)

        try:
            add(_yaml_files(self.reg.registries / "agents"),
                self._named("Agent", "agent", "agents", slug_ok=False))  # fmt: skip
            for tier_dir in _tier_folders(self.reg.registries / "skills"):
                if tier_dir.name in TIER_LAYER:
                    add(_yaml_files(tier_dir), self._core_skill(tier_dir.name))
        except OSError:  # the load itself reports what cannot be read
            return []
        return out

    def core_skills(self) -> None:
        base = self.reg.registries / "skills"
        if not base.is_dir():
            return
        for tier_dir in _tier_folders(base):
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
                self.unit(path, self._core_skill(tier))
        for stray in sorted(base.glob("*.yaml")):
            self.add(
                "ORK004",
                "skill files belong in a tier folder (skills/<tier>/<name>.yaml)",
                self.rel(stray),
            )

    def _core_skill(self, tier: str) -> Handler:
        def handle(data: yamlio.LineDict, file: str, path: Path) -> None:
            from orkestra.core import yamlio

            skill = self.model(models.SkillFile, data, file)
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
            fields = {
                "name": meta.name,
                "description": meta.description,
                "layer": meta.layer,
                "type": meta.type or "",
                "source": "core",
                "tags": tuple(skill.frontmatter.tags),
                "allowed_tools": tuple(skill.frontmatter.allowed_tools),
                "scopes": tuple(skill.scopes),
                "folder": self.rel(path.parent / skill.resources) if skill.resources else None,
                "tier": tier,
                "provider": meta.provider,
                "imported": meta.imported,
            }
            loc = Location(file, data.key_lines.get("metadata", 1))
            self.put("skill", meta.name, loc, "skills", ("skill", fields, _m(skill, "SkillFile")))

        return handle

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
        from orkestra.registry.models.vendor import VendorOverlay

        data = self.read(path)
        overlay = None if data is None else self.model(VendorOverlay, data, self.rel(path))
        return False if overlay is None else overlay

    def vendor_skill(
        self, path: Path, root_cfg: VendorRoot, adopted: AdoptedSkill | None = None
    ) -> None:
        from orkestra.core import frontmatter, yamlio

        file = self.rel(path)
        try:
            doc = frontmatter.parse(yamlio.read_text(path, display=file), file)
        except InputError as exc:
            self.add("ORK001", exc.message, exc.file or file, exc.line)
            return
        md = self.model(models.SkillMd, doc.meta, file)
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
        if self.single(path):
            self.unit(path, self._scopes, allow_empty=True)

    def _scopes(self, data: yamlio.LineDict, file: str, path: Path) -> None:
        from orkestra.core import yamlio

        scopes = self.model(models.ScopesFile, data, file, left_out="every scope of this file")
        if scopes is None:
            return
        block = data.get("scopes")
        for name in scopes.scopes:
            line = block.key_lines.get(name, 0) if isinstance(block, yamlio.LineDict) else 0
            self.record(
                "D", "scopes", name, _m(scopes.scopes[name], "ScopesFile", sub=["scopes", name])
            )
            self.record("L", "scope", name, file, line)

    def truths(self) -> None:
        for path in self.yaml_files(self.reg.registries / "truths"):
            self.device_name("truth file", path.name, path)
            self.unit(path, self._truths)

    def device_name(self, what: str, name: str, path: Path) -> None:
        """ORK002 when `name` (a file or folder name no schema field holds) is a Windows device
        name: such a file cannot be checked out on Windows (§13)."""
        if is_device_name(name):
            self.add("ORK002", f"{what} {name!r}: {device_problem(name)}", self.rel(path))

    def _truths(self, data: yamlio.LineDict, file: str, path: Path) -> None:
        from orkestra.core import yamlio

        registry = self.model(models.TruthRegistry, data, file, left_out="every truth of this file")
        if registry is None:
            return
        self.record("D", "truth_files", file, _m(registry, "TruthRegistry"))
        for index, statement in enumerate(registry.statements):
            line = yamlio.line_of(data, ("statements", index)) or 0
            obj = _m(statement, "TruthRegistry", sub=["statements", index])
            self.put("truth", statement.id, Location(file, line), "truths", obj)

    def decisions(self) -> None:
        path = self.reg.registries / "decisions" / "registry.yaml"
        if self.single(path):
            self.unit(path, self._decisions_registry, allow_empty=True)
        self.named_files(
            "decisions/records", "DecisionRecord", "decision", "decisions", slug_ok=True
        )

    def _decisions_registry(self, data: yamlio.LineDict, file: str, path: Path) -> None:
        from orkestra.core import yamlio
        from orkestra.registry.models.decisions import shared_codes

        dreg = self.model(
            models.DecisionsRegistry, data, file, left_out="every decision domain of this file"
        )
        if dreg is None:
            return
        self.record("S", "decisions_registry", _m(dreg, "DecisionsRegistry"))
        for code, names in shared_codes(dreg.domains).items():
            first = yamlio.line_of(data, ("domains", names[0]))
            for name in names[1:]:
                self.add(
                    "ORK010",
                    f"decision domain '{name}' has code {code}, as '{names[0]}' (line {first}) "
                    f"has: ids DEC-{code}-NNN would be ambiguous; give each domain its own "
                    "two-letter code",
                    file,
                    yamlio.line_of(data, ("domains", name)),
                )

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
            self.device_name("domain folder", folder.name, folder)
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


@gcpause.paused()
def load(
    root: Path,
    *,
    lazy_models: bool = False,
    use_cache: bool = True,
    keep_replaced: parse_cache.Keep = True,
) -> Registry:
    """Load every registry kind under `root/registries`. Content problems become findings.

    Files unchanged since the last load are not parsed again (`registry.cache`); the result is
    the same either way. With `lazy_models` the entries of unchanged files stand in for their
    models and are validated again only when something beyond their plain fields is used (list
    and info commands answer without loading pydantic). `keep_replaced`: which of the cache's
    replaced entries to keep (`ParseCache.entry_for`): all, or those a test of (path, identity)
    accepts (a sync keeps those its record names, which stays if it records nothing).
    """
    require_registries(root)
    loader = _Loader(
        root, lazy_models=lazy_models, use_cache=use_cache, keep_replaced=keep_replaced
    )
    if loader.cache is not None:
        loader.prefetch = prefetch.start(loader.cache, loader.bulk)
    try:
        _load_kinds(loader)
    finally:
        if loader.prefetch is not None:
            loader.prefetch.stop()
    if loader.cache is not None:
        loader.cache.save()
    return loader.reg


def entry_file(root: Path, rel: str) -> tuple[Registry, Any, Any]:
    """One agent file (`registries/agents/<name>.yaml`) or core skill file
    (`registries/skills/<tier>/<name>.yaml`) loaded as `load` loads it, through its parse cache
    shard alone: (the registry it makes on its own: its agent or skill, where it is, its load
    findings; the file's cache entry before; after). An entry is `[size, mtime_ns, ctime_ns,
    inode, device, seen, sha256, data, ops]` (`registry.cache`); None when there is none."""
    return entry_files(root, [rel])[rel]


def entry_files(
    root: Path, rels: list[str], was: Mapping[str, Any] | None = None
) -> dict[str, tuple[Registry, Any, Any]]:
    """`entry_file` of each of `rels` (with `was`: path -> identity, a run's record, whose
    replaced entries the cache keeps, those of other files too), in that order, each shard
    they use read once."""
    handlers: list[tuple[str, Any]] = []
    for rel in rels:
        parts = rel.split("/")
        agent = len(parts) == 3 and parts[:2] == ["registries", "agents"]
        skill = len(parts) == 4 and parts[:2] == ["registries", "skills"] and parts[2] in TIER_LAYER
        if not (agent or skill):
            raise ValueError(f"not an agent's or a core skill's file: {rel}")
        handlers.append((rel, parts[2] if skill else None))
    cache = parse_cache.ParseCache(
        root,
        {parse_cache.shard_of(rel) for rel in rels},
        keep_replaced=True if was is None else parse_cache.named_by(was),
    )
    out: dict[str, tuple[Registry, Any, Any]] = {}
    for rel, tier in handlers:
        loader = _Loader(root, use_cache=False)
        if tier is None:
            handler = loader._named("Agent", "agent", "agents", slug_ok=False)
        else:
            handler = loader._core_skill(tier)
        loader.cache = cache
        before = cache.files.get(rel) if was is None else cache.entry_for(rel, was.get(rel))
        loader.unit(root / rel, handler)
        out[rel] = (loader.reg, before, cache.files.get(rel))
    cache.save()
    return out


def _load_kinds(loader: _Loader) -> None:
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


def _m(
    value: Any, cls: str, *, at: list[Any] | None = None, sub: list[Any] | None = None
) -> tuple[Any, ...]:
    """A live model with where it comes from: class `cls` validated from the file's data at `at`,
    the entry at `sub` inside it."""
    return ("m", value, cls, at or [], sub or [])


def _value(obj: tuple[Any, ...], loc: Location | None) -> Any:
    """What a live object puts on the registry."""
    if obj[0] == "list":
        return [_value(item, loc) for item in obj[1]]
    if obj[0] == "skill":
        assert loc is not None
        core = None if obj[2] is None else _value(obj[2], loc)
        return SkillEntry(**obj[1], loc=loc, core=core)
    return obj[1]


def _encode(obj: tuple[Any, ...]) -> dict[str, Any]:
    """A live object in the cache's JSON form."""
    if obj[0] == "list":
        return {"list": [_encode(item) for item in obj[1]]}
    if obj[0] == "skill":
        fields = {k: list(v) if k in _SKILL_TUPLES else v for k, v in obj[1].items()}
        return {"skill": fields, "core": None if obj[2] is None else _encode(obj[2])}
    _, value, cls, at, sub = obj
    return lazy.snapshot(value, cls, at, sub)


def _encode_op(op: list[Any]) -> list[Any]:
    return [*op[:-1], _encode(op[-1])] if op[0] in "PSD" else op


def _yaml_files(folder: Path) -> list[Path]:
    """The YAML files of one folder, sorted (scandir: no extra stat per file); OSError other
    than a missing folder propagates."""
    return _yaml_entries(folder)[0]


def _yaml_entries(folder: Path) -> tuple[list[Path], list[tuple[Path, str]]]:
    """(the YAML files of one folder, sorted; the `*.yaml` names there that are no file, each
    with what it is instead). A name only looked at further when it is not a file."""
    files, others = [], []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if not entry.name.endswith((".yaml", ".yml")):
                    continue
                if entry.is_file():
                    files.append(entry.name)
                else:
                    others.append((folder / entry.name, what_is(entry)))
    except (FileNotFoundError, NotADirectoryError):  # no such folder: no files of this kind
        return [], []
    return [folder / name for name in sorted(files)], sorted(others)


def not_read(rel: str, what: str) -> str:
    """ORK004's message for a YAML name of the registry layout that is `what` (a folder, a FIFO)
    instead of a file (search warns about it in these words too)."""
    return f"'{rel}' is {what}: it is not read; replace it with a YAML file or remove it"


def what_is(entry: os.DirEntry[str] | Path) -> str:
    """What a directory entry (or path) that is not a (link to a) regular file is."""
    if entry.is_dir():
        return "a folder"
    if entry.is_symlink() and not Path(entry).exists():
        return "a symlink to nothing (its target is missing)"
    if entry.is_symlink():
        return "a symlink to something that is not a regular file (a FIFO, socket or device)"
    return "not a regular file (a FIFO, socket or device)"


def _what_path(path: Path) -> str:
    """What a path that is neither a regular file nor a folder is (see `what_is`)."""
    if path.is_symlink() and not path.exists():
        return "a symlink to nothing (its target is missing)"
    return "not a regular file (a FIFO, socket or device)"


def _tier_folders(base: Path) -> list[Path]:
    """The folders of `registries/skills/`, sorted (none when it is not a folder)."""
    return sorted(p for p in base.iterdir() if p.is_dir()) if base.is_dir() else []


def _inside(path: Path, real_root: Path) -> bool:
    """True when `path`, symlinks resolved, stays inside the (resolved) project root."""
    return path.resolve().is_relative_to(real_root)


def _plural(kind: str) -> str:
    return {"identity": "identities", "mindset": "mindsets", "style": "styles"}[kind]


def error_loc(error: Any) -> tuple[Any, ...]:
    """Where one Pydantic error is in the data: its `loc`, with a mapping key that is not text
    named by the key itself (Pydantic spells null 'None', which `yamlio.line_of` cannot find)."""
    loc = tuple(error["loc"])
    if error.get("type") == "invalid_key" and loc:
        loc = (*loc[:-1], error.get("input"))
    return loc


def refused(exc: Any, data: Any, cls: type[BaseModel], file: str) -> InputError:
    """The first error of a `ValidationError` of `cls` over `data` (read from `file`) as the
    `InputError` a command reading that one file raises: validate's words, at its line."""
    from orkestra.core import yamlio

    error = exc.errors()[0]
    loc = error_loc(error)
    return InputError(describe_error(error, loc, cls), file=file, line=yamlio.line_of(data, loc))


def describe_error(error: Any, loc: tuple[Any, ...], cls: type[BaseModel]) -> str:
    """One Pydantic error of `cls` in words a person can act on: what is wrong and what to write."""
    key = bool(loc) and loc[-1] == "[key]"  # a mapping's key (a scope's or domain's name) is wrong
    if key:
        loc = loc[:-1]
    path = ".".join(str(p) for p in loc) or "(root)"
    kind = error.get("type", "")
    if kind == "extra_forbidden":
        return f"unknown key '{path}': remove it or check its spelling"
    if kind == "missing":
        return f"missing required key '{path}'"
    if kind == "invalid_key":  # `1:`, `on:`, `null:` are a number, a boolean, nothing to YAML
        return key_not_text(error.get("input"))
    shape = _SHAPES.get(kind)
    if shape is not None:
        return f"{path}: {_shape_advice(shape, error, loc, cls)}"
    if kind in ("literal_error", "enum"):
        return f"{path}: {choice_advice(error)}"
    message = str(error.get("msg", "invalid value")).removeprefix("Value error, ")
    if kind == "string_pattern_mismatch":
        message = _pattern_advice(error, key or (bool(loc) and str(loc[-1]) in NAME_KEYS))
    return f"{path}: {message}"


def choice_advice(error: Any) -> str:
    """What to write for a value that is not one of a field's choices (Pydantic's
    `literal_error`: "Input should be 'red', 'blue' …"): the choices, and the one it resembles
    (`Red` for red). A value YAML reads as no text (`0x1F`, `yes`) is said to be so."""
    from orkestra.registry.references import closest

    given = error.get("input")
    expected = str((error.get("ctx") or {}).get("expected", ""))
    choices = re.findall(r"'([^']*)'", expected) or [expected]
    if isinstance(given, str):
        close = closest(given, choices)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        return f"{given!r} is not one of its choices; write one of: {', '.join(choices)}{hint}"
    return (
        f"{_written(given)} is not one of its choices (YAML reads the value as no text); "
        f"write one of: {', '.join(choices)}"
    )


#: Pydantic's error types for a value of the wrong shape, and the shape wanted
_SHAPES = {
    "dict_type": "mapping",
    "model_type": "mapping",
    "model_attributes_type": "mapping",
    "list_type": "list",
    "string_type": "text",
}


def _written(value: Any) -> str:
    """What a YAML value of the wrong shape is, as its author would say it."""
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    return "another kind of value"


def _shape_advice(shape: str, error: Any, loc: tuple[Any, ...], cls: type[BaseModel]) -> str:
    """What shape a value must have and how to write it, never Pydantic's wording about Python
    types (`instance of Character`)."""
    keys: tuple[str, ...] = ()
    ctx = error.get("ctx") or {}
    if shape == "mapping" and ctx.get("class_name") == cls.__name__:  # the whole entry
        keys = tuple(cls.model_fields)
    return wrong_shape(shape, error.get("input"), keys)


def key_not_text(given: Any) -> str:
    """The message for a mapping key YAML reads as no text (`1:`, `on:`, `null:`): quote it.
    Search says it of the files it reads so."""
    if given is None or isinstance(given, bool):
        spelled = {None: "null", True: "true", False: "false"}[given]
    else:
        spelled = str(given)
    return (
        f"the key {spelled} is read by YAML as {_written(given)}, not as text; quote it "
        f"('{spelled}': ...) or rename it"
    )


def wrong_shape(shape: str, given: Any, keys: tuple[str, ...] = ()) -> str:
    """The message for a value `given` where a `shape` (mapping, list or text) goes: what to
    write instead; `keys`: those the mapping takes. Search says it of the files it reads so."""
    what = _written(given)
    if shape == "list":
        return f"expected a list (`- item` lines indented below the key, or [a, b]), not {what}"
    if shape == "text":
        return f"expected a single text value, not {what}"
    named = f" with the keys {', '.join(keys)}" if keys else ""
    return f"expected a mapping (`key: value` lines indented below it{named}), not {what}"


#: the keys holding an entry's own name
NAME_KEYS = frozenset({"name", "identifier"})


def _pattern_advice(error: Any, name: bool) -> str:
    """What a value that does not match its pattern must look like, and what to do."""
    given = error.get("input")
    pattern = (error.get("ctx") or {}).get("pattern", "")
    if name and pattern == NAME_PATTERN:
        return pattern_advice(given)
    if pattern == NAME_PATTERN and isinstance(given, str):  # a reference to a name
        hint = ""
        if re.fullmatch(NAME_PATTERN, given.lower()):
            hint = f" ({given.lower()!r}?)"
        return (
            f"the name {given!r} must be lowercase letters, digits and single hyphens "
            f"({NAME_PATTERN}): write it as the entry it refers to is named{hint}"
        )
    what = "the key" if name else "the value"
    return f"{what} {given!r} does not match {pattern}; correct it"
