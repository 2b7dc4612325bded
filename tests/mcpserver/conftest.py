"""Fixtures for the MCP server: a project (the search fixture registry plus notes and code) and a
server on it driven through the SDK's in-memory client."""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.conftest import write
from tests.knowledge.helpers import note

FIXTURE = Path(__file__).resolve().parents[1] / "search" / "fixture"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """The search fixture registry, the code its truths cite, and two knowledge notes."""
    target = tmp_path / "proj"
    shutil.copytree(FIXTURE, target)
    write(target, "packages/canonical/pipelines/runner.py", "def run():\n    return 1\n")
    write(target, "src/orkestra/render/writer.py", "def plan():\n    pass\n")
    note(
        target,
        "duckdb-runner",
        kind="glossary",
        title="DuckDB runner",
        sources=["packages/canonical/pipelines/runner.py#def run"],
        body="The runner executes each stage in DuckDB.\n",
    )
    note(target, "unrelated", title="Unrelated", sources=["docs/other.md"])
    return target


Session = Callable[[Callable[[Any], Awaitable[Any]]], Any]


@pytest.fixture
def workspace(root: Path) -> Any:
    """The server's workspace on `root`, opened (its registry loading in the background)."""
    from orkestra.mcpserver.workspace import Workspace

    ws = Workspace.open(root)
    yield ws
    ws.close()


@pytest.fixture
def session(workspace: Any) -> Session:
    """`session(fn)` runs `await fn(client)` against a server on `root` (in memory)."""
    from mcp import Client

    from orkestra.mcpserver.server import build

    def run(fn: Callable[[Any], Awaitable[Any]]) -> Any:
        async def main() -> Any:
            async with Client(build(workspace)) as client:
                return await fn(client)

        return anyio.run(main)

    return run


async def call(client: Any, tool: str, **args: Any) -> dict[str, Any]:
    """A tool's structured answer; fails the test when the call is an error result."""
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content
    data = result.structured_content
    assert isinstance(data, dict)
    return data
