"""Where the knowledge base lives and how it behaves, from `registries/orkestra.yaml` (§3.9)."""

from __future__ import annotations

from pathlib import Path

from orkestra.core import project


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


def load(root: Path) -> Settings:
    """The knowledge config of the project: the light reader's answer when it has one (no YAML
    library, no pydantic: notes check stays close to grep), else the `Config` model's."""
    try:
        light = project.read_light(root)
        block, name = light["knowledge"], light["project"]
    except project.NotLight:
        from orkestra.registry.config_file import load_config

        cfg = load_config(root)
        block, name = cfg.knowledge.model_dump(), cfg.project
    return Settings(
        root=root,
        path=str(block["path"]).rstrip("/"),
        repos=dict(block["repos"]),
        verified_max_age_days=block["verified_max_age_days"],
        commit=block["commit"],
        push=block["push"],
        project=name or "project",
    )
