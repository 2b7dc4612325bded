"""Pydantic models for every registry kind (PRODUCT.md §3). All forbid unknown keys."""

from orkestra.registry.models.agents import Agent
from orkestra.registry.models.characters import Character, ValueItem, ValuesFile
from orkestra.registry.models.commands import Command
from orkestra.registry.models.common import LAYERS, NAME_PATTERN, TIER_LAYER, Model
from orkestra.registry.models.config import Config, KnowledgeConfig, MiningConfig, VendorRoot
from orkestra.registry.models.decisions import DecisionRecord, DecisionsRegistry, SourceCommit
from orkestra.registry.models.ledger import ClassificationEntry, ReleaseNoteEntry
from orkestra.registry.models.scopes import Scope, ScopesFile
from orkestra.registry.models.skills import Section, SkillFile, SkillMd
from orkestra.registry.models.tools import ToolsFile
from orkestra.registry.models.truths import TruthRegistry, TruthStatement

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
