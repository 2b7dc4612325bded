"""Where the knowledge base lives and how it behaves, from `registries/orkestra.yaml` (§3.9)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from orkestra.core.errors import InputError


class Settings:
    """The `knowledge:` block of orkestra.yaml, with the project root it applies to."""

    __slots__ = ("commit", "path", "project", "push", "repos", "root", "verified_max_age_days")

    def __init__(
        self,
        root: Path,
        path: str = "knowledge",
        repos: dict[str, str] | None = None,
        verified_max_age_days: int = 90,
        commit: bool = False,
        push: bool = False,
        project: str = "project",
    ) -> None:
        self.root = root
        self.path = path
        self.repos = repos or {}
        self.verified_max_age_days = verified_max_age_days
        self.commit = commit
        self.push = push
        self.project = project

    @property
    def folder(self) -> Path:
        """The knowledge folder on disk."""
        return self.root / self.path


def find_root(start: Path) -> Path:
    """ORKESTRA_ROOT, else the nearest folder at or above `start` holding registries/.

    One rule for the whole CLI (`orkestra.core.paths`), without importing the registry models.
    """
    import os

    from orkestra.core import paths

    pinned = os.environ.get("ORKESTRA_ROOT")
    return Path(pinned).resolve() if pinned else paths.find_root(start)


_KEYS = {"path", "repos", "verified_max_age_days", "commit", "push"}


def _plain(raw: object) -> dict[str, object] | None:
    """The knowledge block when it is obviously valid (checked without pydantic), else None."""
    if not isinstance(raw, dict) or not set(raw) <= _KEYS:
        return None
    path = raw.get("path", "knowledge")
    repos = raw.get("repos", {})
    age = raw.get("verified_max_age_days", 90)
    safe = isinstance(path, str) and re.fullmatch(r"[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*/?", path)
    if not safe or ".." in str(path).split("/"):
        return None
    if not isinstance(repos, dict) or not all(isinstance(v, str) for v in repos.values()):
        return None
    if isinstance(age, bool) or not isinstance(age, int) or age < 1:
        return None
    flags = [raw.get(k, False) for k in ("commit", "push")]
    if not all(isinstance(f, bool) for f in flags):
        return None
    return {
        "path": path,
        "repos": repos,
        "verified_max_age_days": age,
        "commit": flags[0],
        "push": flags[1],
    }


_PROJECT = re.compile(r"^project:[ \t]*([A-Za-z0-9_.-]+)[ \t]*$", re.MULTILINE)


def _without_knowledge(path: Path) -> str | None:
    """The project name of a config with no `knowledge` key at all (defaults apply), read
    without a YAML parser; None when the file needs the real loader."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if "knowledge" in text:
        return None
    match = _PROJECT.search(text)
    if match is None:
        return None if "project" in text else "project"
    return match.group(1)


def _validated(raw: object, data: Any, name: str) -> dict[str, object]:
    """Validate with the `KnowledgeConfig` model (only when the cheap check is not enough)."""
    from pydantic import ValidationError

    from orkestra.core import yamlio
    from orkestra.registry.models.config import KnowledgeConfig

    try:
        cfg = KnowledgeConfig.model_validate(raw)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = ("knowledge", *error["loc"])
        where = ".".join(str(p) for p in loc)
        line = yamlio.line_of(data, loc)
        raise InputError(f"{where}: {error['msg']}", file=name, line=line) from None
    return cfg.model_dump()


def load(root: Path) -> Settings:
    """Read and validate the knowledge config (the `KnowledgeConfig` model) of the project.

    pydantic is only imported when the block is not obviously valid, so reading a plain config
    costs a YAML parse and nothing more (notes check must stay close to grep).
    """
    path = root / "registries" / "orkestra.yaml"
    if not path.is_file():
        return Settings(root=root)
    name = "registries/orkestra.yaml"
    quick = _without_knowledge(path)
    if quick is not None:
        return Settings(root=root, project=quick)
    from orkestra.core import yamlio

    data = yamlio.load_mapping(path, display=name, allow_empty=True)
    raw = data.get("knowledge") or {}
    cfg = _plain(raw) or _validated(raw, data, name)
    project = data.get("project")
    return Settings(
        root=root,
        path=str(cfg["path"]).rstrip("/"),
        repos={str(k): str(v) for k, v in dict(cfg["repos"]).items()},  # type: ignore[call-overload]
        verified_max_age_days=int(cfg["verified_max_age_days"]),  # type: ignore[call-overload]
        commit=bool(cfg["commit"]),
        push=bool(cfg["push"]),
        project=project if isinstance(project, str) and project else "project",
    )
