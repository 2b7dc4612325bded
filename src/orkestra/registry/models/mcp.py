"""`registries/mcp.yaml` (§4): MCP servers declared once, rendered into every target's config.

The file maps a server name to how a client starts or reaches it: `command` (with `args`, `env`)
for a local server, or `url` (with `headers`) for a remote one, never both.
"""

from __future__ import annotations

from pydantic import Field, RootModel, model_validator

from orkestra.registry.models.common import Model, NonEmpty
from orkestra.registry.models.tools import ServerName


class McpServer(Model):
    """One MCP server: a command to start (stdio) or a URL to reach (http)."""

    command: NonEmpty | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    url: NonEmpty | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    description: str = ""

    @model_validator(mode="after")
    def _one_transport(self) -> McpServer:
        if (self.command is None) == (self.url is None):
            raise ValueError("give exactly one of `command` (a local server) or `url` (remote)")
        if self.url is None and self.headers:
            raise ValueError("`headers` need a `url`")
        if self.command is None and (self.args or self.env):
            raise ValueError("`args` and `env` need a `command`")
        return self


class McpFile(RootModel[dict[ServerName, McpServer]]):
    """The whole file: server name -> server."""

    root: dict[ServerName, McpServer] = Field(default_factory=dict)
