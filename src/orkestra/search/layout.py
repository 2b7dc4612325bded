"""Which files feed the search, found with cheap directory scans (no YAML parsing).

The layout mirrors `orkestra.registry.loader`: agents/*.yaml, skills/<tier>/*.yaml, scopes.yaml,
truths/*.yaml, decisions/records/*.yaml, domains/**/<four files>.md, vendor roots'
`<name>/SKILL.md` (from orkestra.yaml) and the knowledge folder. Ledgers are never scanned.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass

from orkestra.core import project
from orkestra.core.stamp import changed_at

CONFIG = project.CONFIG
SCOPES = "registries/scopes.yaml"
#: vendor overlays written by `skills intake --apply`: `registries/vendor/<provider>.yaml`
OVERLAYS = "registries/vendor"
#: skill tier folders (the keys of `registry.models.common.TIER_LAYER`; copied here so the
#: search path never imports pydantic)
TIERS = ("foundations", "identities", "domains", "stacks", "project")
DOMAIN_FILES = ("decisions.md", "patterns.md", "anti-patterns.md", "evolution.md")
YAML = (".yaml", ".yml")
#: the group all knowledge files belong to: any change re-reads the whole knowledge base
KNOWLEDGE = "@knowledge"

#: path -> (when it last changed, size): `core.stamp.changed_at`
Stats = dict[str, tuple[int, int]]


@dataclass(frozen=True)
class Settings:
    """The parts of orkestra.yaml that decide where sources are."""

    vendor_roots: tuple[str, ...] = ()
    knowledge: str = "knowledge"
    #: vendor root -> skill folders (relative to the root) its provider's overlay adopted;
    #: a root absent here has no overlay, so all of its `<name>/SKILL.md` are searchable
    vendor_allow: tuple[tuple[str, tuple[str, ...]], ...] = ()


def scan(root: str, settings: Settings, left: list[str] | None = None) -> dict[str, Stats]:
    """Scan units (a folder, a vendor root, the knowledge tree) -> name in unit -> (when it last
    changed, size).

    A file's project-relative path is `unit/name`. Each unit is compared with the index as a
    whole first (one fingerprint per unit), so an unchanged registry costs one `stat` per file
    and no per-file lookups. A file or folder whose name is not valid UTF-8 is left out (`utf8`);
    its path is added to `left` when given (the MCP server still watches it: `validate` names
    it).
    """
    units: dict[str, Stats] = {}
    top: Stats = {}
    for name in ("orkestra.yaml", "scopes.yaml"):
        try:
            st = os.stat(f"{root}/registries/{name}")  # noqa: PTH116 - hot path, str paths
        except OSError:  # absent: nothing to index (validate reports a missing orkestra.yaml)
            continue
        if stat.S_ISREG(st.st_mode):
            top[name] = (changed_at(st), st.st_size)
    overlays = _folder(
        f"{root}/{OVERLAYS}", YAML, left
    )  # intake's allow-lists (`skills intake --apply`)
    top.update((f"vendor/{name}", stats) for name, stats in overlays.items())
    units["registries"] = top
    for folder in ("agents", "truths", "decisions/records"):
        units[f"registries/{folder}"] = _folder(f"{root}/registries/{folder}", YAML, left)
    for tier in TIERS:
        units[f"registries/skills/{tier}"] = _folder(f"{root}/registries/skills/{tier}", YAML, left)
    domains: Stats = {}
    _domains(f"{root}/registries/domains", "", domains, left)
    units["registries/domains"] = domains
    allow = dict(settings.vendor_allow)
    for vendor in settings.vendor_roots:
        units.setdefault(vendor, {}).update(_vendor(f"{root}/{vendor}", allow.get(vendor), left))
    knowledge: Stats = {}
    if settings.knowledge:
        _tree(f"{root}/{settings.knowledge}", "", knowledge, left)
    units[KNOWLEDGE] = knowledge
    return units


def unit_path(unit: str, name: str, settings: Settings) -> str:
    """The project-relative path of file `name` of a scan unit."""
    if unit == KNOWLEDGE:
        return f"{settings.knowledge}/{name}"
    return f"{unit}/{name}"


def _folder(folder: str, suffixes: tuple[str, ...], left: list[str] | None = None) -> Stats:
    """Files of one folder with a suffix: names relative to the folder (the hot loop of search)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # no such folder: this kind has no files
        return {}
    try:
        listed = os.listdir(fd)  # noqa: PTH208 - hot path
        names = [n for n in listed if n.endswith(suffixes) and (n.isascii() or utf8(n))]
        if left is not None and len(names) < len(listed):
            left.extend(f"{folder}/{n}" for n in listed if not (n.isascii() or utf8(n)))
    except OSError:  # not a folder (or gone since): no files, as the loader sees it
        os.close(fd)
        return {}
    st = os.stat
    try:
        try:
            return {
                n: (max(s.st_mtime_ns, s.st_ctime_ns), s.st_size)  # `changed_at`, inlined
                for n in names
                for s in (st(n, dir_fd=fd),)
            }
        except OSError:  # a file vanished between listing and stat: go one by one
            out: Stats = {}
            for name in names:
                with contextlib.suppress(OSError):
                    s = st(name, dir_fd=fd)
                    out[name] = (changed_at(s), s.st_size)
            return out
    finally:
        os.close(fd)


def _listing(folder: str, left: list[str] | None = None) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except OSError:  # no such folder: nothing to list
        return []
    named = [e for e in entries if e.name.isascii() or utf8(e.name)]
    if left is not None and len(named) < len(entries):
        left.extend(e.path for e in entries if not (e.name.isascii() or utf8(e.name)))
    return sorted(named, key=lambda e: e.name)


def utf8(name: str) -> bool:
    """True when a file name is valid UTF-8. One that is not (its bytes kept as surrogate
    escapes) cannot be a search source: the index keeps paths as UTF-8 text, and `validate`
    names such a registry file for renaming."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _domains(folder: str, prefix: str, out: Stats, left: list[str] | None = None) -> None:
    for entry in _listing(folder, left):
        if entry.is_dir():
            _domains(entry.path, f"{prefix}{entry.name}/", out, left)
        elif prefix and entry.name in DOMAIN_FILES and entry.is_file():
            st = entry.stat()
            out[prefix + entry.name] = (changed_at(st), st.st_size)


def _vendor(folder: str, allowed: tuple[str, ...] | None, left: list[str] | None = None) -> Stats:
    out: Stats = {}
    if allowed is not None:  # the overlay lists exactly what was adopted (nested paths too)
        for name in allowed:
            try:
                st = os.lstat(f"{folder}/{name}/SKILL.md")
            except OSError:  # adopted but gone: validate reports the overlay entry
                continue
            if stat.S_ISREG(st.st_mode) and not os.path.islink(f"{folder}/{name}"):  # noqa: PTH114
                out[f"{name}/SKILL.md"] = (changed_at(st), st.st_size)
        return out
    for entry in _listing(folder, left):
        if entry.is_dir(follow_symlinks=False):
            try:
                st = os.lstat(f"{entry.path}/SKILL.md")
            except OSError:  # a folder without SKILL.md is not a skill
                continue
            if stat.S_ISREG(st.st_mode):
                out[f"{entry.name}/SKILL.md"] = (changed_at(st), st.st_size)
    return out


def _tree(folder: str, prefix: str, out: Stats, left: list[str] | None = None) -> None:
    for entry in _listing(folder, left):
        if entry.is_dir(follow_symlinks=False):
            if not entry.name.startswith("."):  # .git and the like; hidden files (the usage
                _tree(entry.path, f"{prefix}{entry.name}/", out, left)  # log) do count
        elif entry.is_file(follow_symlinks=False) or entry.is_symlink():
            # a symlink counts by its own identity (never followed): a note linked from outside
            # the project is refused by the loader, which must hear of it coming and going
            st = entry.stat(follow_symlinks=False)
            out[prefix + entry.name] = (changed_at(st), st.st_size)


def kind_of(rel: str, settings: Settings) -> str | None:
    """The source kind of a scanned path (agent, skill, vendor, scopes, truths, ...)."""
    if rel == CONFIG:
        return "config"
    if rel == SCOPES:
        return "scopes"
    parts = rel.split("/")
    if parts[0] == "registries" and len(parts) >= 3:
        head = parts[1]
        if head == "agents" and len(parts) == 3:
            return "agent"
        if head == "truths" and len(parts) == 3:
            return "truths"
        if head == "decisions" and parts[2] == "records" and len(parts) == 4:
            return "decision"
        if head == "skills" and len(parts) == 4 and parts[2] in TIERS:
            return "skill"
        if head == "domains" and len(parts) >= 4 and parts[-1] in DOMAIN_FILES:
            return "domain"
    if rel.endswith("/SKILL.md"):
        return "vendor"
    return None
