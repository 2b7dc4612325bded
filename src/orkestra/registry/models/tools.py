"""`tools.yaml` (§3.8): the known tool names."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints

from orkestra.registry.models.common import Model

ServerName = Annotated[
    str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
]
Tool = Annotated[str, StringConstraints(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_-]+$")]

#: the tool that spawns subagents; only orchestrators may hold it
AGENT_TOOLS = frozenset({"Agent", "Task"})


class ToolsFile(Model):
    builtin: list[Tool] = Field(default_factory=list)
    mcp: dict[ServerName, list[Tool]] = Field(default_factory=dict)
    #: tool name -> markdown guidance rendered into agents that hold the tool
    guides: dict[str, str] = Field(default_factory=dict)

    def all_names(self) -> set[str]:
        """Every tool name as agents refer to it (`Read`, `mcp__server__tool`)."""
        names = set(self.builtin)
        for server, tools in self.mcp.items():
            names.update(f"mcp__{server}__{tool}" for tool in tools)
        return names
