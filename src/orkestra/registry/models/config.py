"""`registries/orkestra.yaml` (§3.9): every key has a default, so an empty file is valid."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from orkestra.registry.models.common import Model, Name, RelPath

Target = Literal["claude", "agents-md", "codex", "cursor", "gemini", "copilot"]
_DEFAULT_TARGETS: tuple[Target, ...] = ("claude",)


class VendorRoot(Model):
    """A folder of third-party Agent Skills folders (`<name>/SKILL.md`)."""

    path: RelPath
    provider: Name
    default_scopes: list[Name] = Field(default_factory=list)
    trust: Literal["vendor", "community", "untrusted"] = "vendor"
    link: Literal["symlink", "copy"] = "symlink"
    layer: Literal["K0", "K1", "K2", "K3", "K4"] = "K3"


class MiningConfig(Model):
    packages: dict[str, str] = Field(default_factory=dict)
    domains_by_path: dict[str, str] = Field(default_factory=dict)
    releasable_types: list[str] = Field(default_factory=lambda: ["feat", "fix", "perf", "revert"])


class KnowledgeConfig(Model):
    path: RelPath = "knowledge"
    repos: dict[str, str] = Field(default_factory=dict)
    verified_max_age_days: int = Field(default=90, ge=1)
    commit: bool = False
    push: bool = False


class TruthsConfig(Model):
    stale_after_days: int = Field(default=90, ge=1)


class RenderConfig(Model):
    claude_md: bool = False
    claude_md_path: RelPath = "CLAUDE.md"


class Config(Model):
    project: str = "project"
    targets: list[Target] = Field(default_factory=lambda: list(_DEFAULT_TARGETS))
    vendor_roots: list[VendorRoot] = Field(default_factory=list)
    mining: MiningConfig = Field(default_factory=MiningConfig)
    knowledge: KnowledgeConfig = Field(default_factory=KnowledgeConfig)
    truths: TruthsConfig = Field(default_factory=TruthsConfig)
    render: RenderConfig = Field(default_factory=RenderConfig)
