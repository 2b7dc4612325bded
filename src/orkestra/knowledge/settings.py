"""Where the knowledge base lives and how it behaves, from `registries/orkestra.yaml` (§3.9)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from orkestra.core import yamlio
from orkestra.core.errors import InputError


@dataclass(frozen=True)
class Settings:
    """The `knowledge:` block of orkestra.yaml, with the project root it applies to."""

    root: Path
    path: str = "knowledge"
    repos: dict[str, str] = field(default_factory=dict)
    verified_max_age_days: int = 90
    commit: bool = False
    push: bool = False
    project: str = "project"

    @property
    def folder(self) -> Path:
        """The knowledge folder on disk."""
        return self.root / self.path


def load(root: Path) -> Settings:
    """Read and validate the knowledge config (the `KnowledgeConfig` model) of the project."""
    from pydantic import ValidationError

    from orkestra.registry.models.config import KnowledgeConfig

    path = root / "registries" / "orkestra.yaml"
    if not path.is_file():
        return Settings(root=root)
    name = "registries/orkestra.yaml"
    data = yamlio.load_mapping(path, display=name, allow_empty=True)
    raw = data.get("knowledge") or {}
    try:
        cfg = KnowledgeConfig.model_validate(raw)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = ("knowledge", *error["loc"])
        where = ".".join(str(p) for p in loc)
        raise InputError(
            f"{where}: {error['msg']}", file=name, line=yamlio.line_of(data, loc)
        ) from None
    project = data.get("project")
    return Settings(
        root=root,
        path=cfg.path.rstrip("/"),
        repos=dict(cfg.repos),
        verified_max_age_days=cfg.verified_max_age_days,
        commit=cfg.commit,
        push=cfg.push,
        project=project if isinstance(project, str) and project else "project",
    )
