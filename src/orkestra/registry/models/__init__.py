"""Pydantic models for every registry kind (PRODUCT.md §3). All forbid unknown keys.

Names are imported on first use (PEP 562), so a standard-library submodule such as
`search_fields` can be read without loading pydantic.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from orkestra.registry.models.agents import Agent
    from orkestra.registry.models.characters import Character, ValueItem, ValuesFile
    from orkestra.registry.models.commands import Command
    from orkestra.registry.models.common import LAYERS, NAME_PATTERN, TIER_LAYER, Model
    from orkestra.registry.models.config import Config, KnowledgeConfig, MiningConfig, VendorRoot
    from orkestra.registry.models.decisions import DecisionRecord, DecisionsRegistry, SourceCommit
    from orkestra.registry.models.ledger import ClassificationEntry, ReleaseNoteEntry
    from orkestra.registry.models.mcp import McpFile, McpServer
    from orkestra.registry.models.scopes import Scope, ScopesFile
    from orkestra.registry.models.skills import Section, SkillFile, SkillMd
    from orkestra.registry.models.tools import ToolsFile
    from orkestra.registry.models.truths import TruthRegistry, TruthStatement

_WHERE: dict[str, str] = {
    "Agent": "orkestra.registry.models.agents",
    "Character": "orkestra.registry.models.characters",
    "ClassificationEntry": "orkestra.registry.models.ledger",
    "Command": "orkestra.registry.models.commands",
    "Config": "orkestra.registry.models.config",
    "DecisionRecord": "orkestra.registry.models.decisions",
    "DecisionsRegistry": "orkestra.registry.models.decisions",
    "KnowledgeConfig": "orkestra.registry.models.config",
    "LAYERS": "orkestra.registry.models.common",
    "MiningConfig": "orkestra.registry.models.config",
    "Model": "orkestra.registry.models.common",
    "NAME_PATTERN": "orkestra.registry.models.common",
    "ReleaseNoteEntry": "orkestra.registry.models.ledger",
    "Scope": "orkestra.registry.models.scopes",
    "ScopesFile": "orkestra.registry.models.scopes",
    "Section": "orkestra.registry.models.skills",
    "SkillFile": "orkestra.registry.models.skills",
    "SkillMd": "orkestra.registry.models.skills",
    "SourceCommit": "orkestra.registry.models.decisions",
    "TIER_LAYER": "orkestra.registry.models.common",
    "ToolsFile": "orkestra.registry.models.tools",
    "McpFile": "orkestra.registry.models.mcp",
    "McpServer": "orkestra.registry.models.mcp",
    "TruthRegistry": "orkestra.registry.models.truths",
    "TruthStatement": "orkestra.registry.models.truths",
    "ValueItem": "orkestra.registry.models.characters",
    "ValuesFile": "orkestra.registry.models.characters",
    "VendorRoot": "orkestra.registry.models.config",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "LAYERS",
    "NAME_PATTERN",
    "TIER_LAYER",
    "Agent",
    "Character",
    "ClassificationEntry",
    "Command",
    "Config",
    "DecisionRecord",
    "DecisionsRegistry",
    "KnowledgeConfig",
    "McpFile",
    "McpServer",
    "MiningConfig",
    "Model",
    "ReleaseNoteEntry",
    "Scope",
    "ScopesFile",
    "Section",
    "SkillFile",
    "SkillMd",
    "SourceCommit",
    "ToolsFile",
    "TruthRegistry",
    "TruthStatement",
    "ValueItem",
    "ValuesFile",
    "VendorRoot",
]
