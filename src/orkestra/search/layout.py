"""Which files feed the search, found with cheap directory scans (no YAML parsing).

The layout mirrors `orkestra.registry.loader`: agents/*.yaml, skills/<tier>/*.yaml, scopes.yaml,
truths/*.yaml, decisions/records/*.yaml, domains/**/<four files>.md, vendor roots'
`<name>/SKILL.md` (from orkestra.yaml) and the knowledge folder. Ledgers are never scanned.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

CONFIG = "registries/orkestra.yaml"
SCOPES = "registries/scopes.yaml"
#: skill tier folders (the keys of `registry.models.common.TIER_LAYER`; copied here so the
#: search path never imports pydantic)
TIERS = ("foundations", "identities", "domains", "stacks", "project")
DOMAIN_FILES = ("decisions.md", "patterns.md", "anti-patterns.md", "evolution.md")
YAML = (".yaml", ".yml")
#: the group all knowledge files belong to: any change re-reads the whole knowledge base
KNOWLEDGE = "@knowledge"

#: path -> (mtime_ns, size)
Stats = dict[str, tuple[int, int]]


@dataclass(frozen=True)
class Settings:
    """The parts of orkestra.yaml that decide where sources are."""

    vendor_roots: tuple[str, ...] = ()
    knowledge: str = "knowledge"


def scan(root: str, settings: Settings) -> tuple[Stats, Stats]:
    """(registry and vendor files, knowledge files) with their mtime and size."""
    files: Stats = {}
    _one(root, CONFIG, files)
    _one(root, SCOPES, files)
    for folder in ("agents", "truths", "decisions/records"):
        _folder(root, f"registries/{folder}", YAML, files)
    for tier in TIERS:
        _folder(root, f"registries/skills/{tier}", YAML, files)
    _domains(root, "registries/domains", files, top=True)
    for vendor in settings.vendor_roots:
        _vendor(root, vendor, files)
    knowledge: Stats = {}
    if settings.knowledge and os.path.isdir(f"{root}/{settings.knowledge}"):  # noqa: PTH112
        _tree(root, settings.knowledge, knowledge)
    return files, knowledge


def _one(root: str, rel: str, out: Stats) -> None:
    try:
        st = os.stat(f"{root}/{rel}")  # noqa: PTH116 - str paths: this runs per file per search
    except OSError:
        return
    if stat.S_ISREG(st.st_mode):
        out[rel] = (st.st_mtime_ns, st.st_size)


def _entries(root: str, rel: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(f"{root}/{rel}") as it:
            return list(it)
    except OSError:
        return []


def _folder(root: str, rel: str, suffixes: tuple[str, ...], out: Stats) -> None:
    for entry in _entries(root, rel):
        if entry.name.endswith(suffixes):
            try:
                st = entry.stat()
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                out[f"{rel}/{entry.name}"] = (st.st_mtime_ns, st.st_size)


def _domains(root: str, rel: str, out: Stats, *, top: bool = False) -> None:
    for entry in sorted(_entries(root, rel), key=lambda e: e.name):
        if entry.is_dir():
            _domains(root, f"{rel}/{entry.name}", out)
        elif not top and entry.name in DOMAIN_FILES:
            _one(root, f"{rel}/{entry.name}", out)


def _vendor(root: str, rel: str, out: Stats) -> None:
    for entry in _entries(root, rel):
        if entry.is_dir(follow_symlinks=False):
            skill = f"{rel}/{entry.name}/SKILL.md"
            try:
                st = os.lstat(f"{root}/{skill}")
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                out[skill] = (st.st_mtime_ns, st.st_size)


def _tree(root: str, rel: str, out: Stats) -> None:
    for entry in _entries(root, rel):
        if entry.name.startswith("."):
            continue  # usage logs, git metadata
        path = f"{rel}/{entry.name}"
        if entry.is_dir(follow_symlinks=False):
            _tree(root, path, out)
        elif entry.is_file(follow_symlinks=False):
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            out[path] = (st.st_mtime_ns, st.st_size)


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
