"""The place for the code-map tools (PRODUCT.md §12): registered from `orkestra.codemap.api`."""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from orkestra.mcpserver.server import CODEMAP_TOOLS, build, register_codemap
from orkestra.mcpserver.workspace import Workspace


def _fake_api() -> types.ModuleType:
    api = types.ModuleType("fake_codemap_api")

    def find_symbol(
        root: Path, name: str, kind: str | None = None, *, refresh: bool = True
    ) -> dict[str, Any]:
        """Definitions named `name`."""
        return {"root": str(root), "name": name, "kind": kind, "hits": [{"cite": "a.py:3"}]}

    def get_file(root: Path, path: str, start: int = 1, end: int | None = None) -> list[str]:
        """Lines of a file."""
        return [path, str(start), str(end)]

    api.find_symbol = find_symbol  # type: ignore[attr-defined]
    api.get_file = get_file  # type: ignore[attr-defined]
    return api


def test_code_map_tools_register_with_their_schemas(root: Path) -> None:
    ws = Workspace.open(root)
    server = build(ws, codemap=False)
    assert register_codemap(server, ws, _fake_api()) == ["find_symbol", "get_file"]

    async def go() -> Any:
        async with Client(server) as client:
            listed = {t.name: t for t in (await client.list_tools()).tools}
            found = await client.call_tool("find_symbol", {"name": "run"})
            lines = await client.call_tool("get_file", {"path": "a.py", "start": 2})
            bad = await client.call_tool("find_symbol", {"kind": "function"})
            return listed, found, lines, bad

    try:
        listed, found, lines, bad = anyio.run(go)
    finally:
        ws.close()
    schema = listed["find_symbol"].input_schema
    assert schema["required"] == ["name"] and set(schema["properties"]) == {"name", "kind"}
    assert listed["find_symbol"].description == "Definitions named `name`."
    assert found.structured_content["root"] == str(root.resolve())
    assert found.structured_content["hits"] == [{"cite": "a.py:3"}]
    assert lines.structured_content == {"result": ["a.py", "2", "None"]}
    assert bad.is_error and "name" in bad.content[0].text


def test_without_the_code_map_only_the_registry_tools_exist(root: Path) -> None:
    ws = Workspace.open(root)
    try:
        server = build(ws)

        async def go() -> set[str]:
            async with Client(server) as client:
                return {t.name for t in (await client.list_tools()).tools}

        names = anyio.run(go)
    finally:
        ws.close()
    try:
        import orkestra.codemap.api  # noqa: F401
    except ModuleNotFoundError:
        assert not names & set(CODEMAP_TOOLS)
    else:
        assert set(CODEMAP_TOOLS) <= names


def test_the_real_code_map_answers_through_the_server(root: Path) -> None:
    import json

    import pytest

    pytest.importorskip("orkestra.codemap.api")
    from tests.mining.gitrepo import GitRepo

    repo = GitRepo(root)
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "chore: fixture")
    ws = Workspace.open(root)

    async def go() -> Any:
        async with Client(build(ws)) as client:
            return await client.call_tool("find_symbol", {"name": "run"})

    try:
        found = anyio.run(go)
    finally:
        ws.close()
    assert not found.is_error, found.content
    assert "packages/canonical/pipelines/runner.py" in json.dumps(found.structured_content)


def _code_errors(root: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """The error message of each code-map tool call (each must fail), on the real code map."""
    import pytest
    from mcp import MCPError

    pytest.importorskip("orkestra.codemap.api")
    ws = Workspace.open(root)

    async def go() -> list[str]:
        out = []
        async with Client(build(ws)) as client:
            for tool, args in calls:
                try:
                    result = await client.call_tool(tool, args)
                except MCPError as exc:
                    out.append(exc.error.message)
                    continue
                assert result.is_error, f"{tool}({args}) did not fail"
                out.append(str(result.content[0].text))
        return out

    try:
        return anyio.run(go)
    finally:
        ws.close()


def test_bad_code_map_arguments_are_mcp_errors(root: Path) -> None:
    path = "packages/canonical/pipelines/runner.py"
    kind, lines = _code_errors(
        root,
        [
            ("find_symbol", {"name": "run", "kind": "nonsense"}),
            ("get_file", {"path": path, "start": -5, "end": -1}),
        ],
    )
    assert "unknown kind 'nonsense'" in kind and "function" in kind
    assert "start must be a line number of 1 or more, got -5" in lines


def test_code_map_numbers_are_checked_as_the_registry_tools_check_them(root: Path) -> None:
    path = "packages/canonical/pipelines/runner.py"
    errors = _code_errors(
        root,
        [
            ("code_search", {"query": "run", "limit": "5"}),
            ("code_search", {"query": "run", "limit": 100_000_000}),
            ("code_search", {"query": "run", "limit": 0}),
            ("code_search", {"query": "run", "limit": True}),
            ("get_file", {"path": path, "start": "1"}),
            ("analyze_dependencies", {"target": path, "depth": "2"}),
        ],
    )
    assert all("limit" in e for e in errors[:4]), errors
    assert "less than or equal to 500" in errors[1]
    assert "start" in errors[4] and "depth" in errors[5]


def test_code_map_switches_take_only_true_or_false(root: Path) -> None:
    # lax mode read "yes" as true and "no" as false
    errors = _code_errors(
        root,
        [("find_symbol", {"name": "run", "similar": value}) for value in ("yes", "no", 1)],
    )
    assert all("similar" in e and "valid boolean" in e for e in errors), errors
