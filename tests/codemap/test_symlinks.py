"""PRODUCT.md §13: a file reached through a symlinked folder that leads out of the project is
never indexed, searched nor served (`get_file`), even when git still tracks its path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, MCPError

from orkestra.codemap import api, walk
from orkestra.core.errors import NotFound
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter

SECRET = 'SECRET_TOKEN = "hunter2"\n\n\ndef outside_fn():\n    pass\n'


@pytest.fixture
def linked(project: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git project whose tracked folder `lib` became a symlink to a folder outside it."""
    write(project, "lib/x.py", "def inside():\n    pass\n")
    write(project, "app/y.py", "def kept():\n    pass\n")
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "init")
    api.index(project)  # indexed while `lib` was a real folder
    outside = tmp_path_factory.mktemp("outside")
    write(outside, "x.py", SECRET)
    for child in (project / "lib").iterdir():
        child.unlink()
    (project / "lib").rmdir()
    (project / "lib").symlink_to(outside, target_is_directory=True)
    (project / "alias").symlink_to(project / "app", target_is_directory=True)
    return project


def test_files_below_a_symlink_leaving_the_project_are_skipped(linked: Path) -> None:
    report = api.index(linked)
    # lib/x.py below the link, and the link `lib` itself (git lists it as an untracked file);
    # `alias`, a link to a folder inside, is skipped as a symlink (its files are mapped as app/)
    assert (report["skipped"]["outside"], report["skipped"]["symlink"]) == (2, 1)
    assert api.find_symbol(linked, "outside_fn")["symbols"] == []
    assert api.find_symbol(linked, "inside")["symbols"] == []  # the old facts went away
    assert api.code_search(linked, '"hunter2"')["results"] == []
    with pytest.raises(NotFound, match="symlink leaving the project"):
        api.get_file(linked, "lib/x.py")
    assert api.get_file(linked, "app/y.py")["text"].startswith("def kept")


def test_a_symlinked_folder_leading_inside_the_project_stays_in(linked: Path) -> None:
    inside = walk.Inside(linked)
    assert inside("alias/y.py") and inside("app/y.py") and inside("top.py")
    assert not inside("lib/x.py")
    assert not inside("lib/deeper/x.py")


def test_the_mcp_get_file_tool_refuses_a_file_outside(linked: Path) -> None:
    from orkestra.mcpserver.server import build
    from orkestra.mcpserver.workspace import Workspace

    ws = Workspace.open(linked)

    async def go() -> str:
        async with Client(build(ws)) as client:
            try:
                await client.call_tool("get_file", {"path": "lib/x.py"})
            except MCPError as exc:
                return exc.error.message
        return "no error"

    try:
        message = anyio.run(go)
    finally:
        ws.close()
    assert "not in the code map" in message and "hunter2" not in message


def test_code_symbol_through_the_cli_skips_them(cli: Any, linked: Path) -> None:
    out = cli("code", "index", cwd=linked)
    assert (out.exit_code, out.json()["skipped"]["outside"]) == (0, 2)
    found = cli("code", "search", '"hunter2"', cwd=linked)
    assert (found.exit_code, found.json()["results"]) == (0, [])


def test_the_mcp_get_file_tool_takes_the_agents_spelling_of_the_root(
    linked: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """An agent whose cwd is a symlink to the project names files under that spelling: served;
    a relative path climbing out is named as outside the project, not as missing from the map."""
    from orkestra.mcpserver.server import build
    from orkestra.mcpserver.workspace import Workspace

    spelling = tmp_path_factory.mktemp("links") / "checkout"
    spelling.symlink_to(linked, target_is_directory=True)
    ws = Workspace.open(linked)

    async def go() -> tuple[Any, str]:
        async with Client(build(ws)) as client:
            served = await client.call_tool("get_file", {"path": str(spelling / "app/y.py")})
            try:
                await client.call_tool("get_file", {"path": "../outside/x.py"})
            except MCPError as exc:
                return served, exc.error.message
        return served, "no error"

    try:
        served, message = anyio.run(go)
    finally:
        ws.close()
    assert not served.is_error and served.structured_content["path"] == "app/y.py"
    assert "is outside the project" in message


@pytest.fixture
def file_links(project: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git project tracking symlinks to files: one leading out of the project, one to a file
    in it, one dangling."""
    outside = tmp_path_factory.mktemp("elsewhere")
    write(outside, "secret.py", SECRET)
    write(project, "app/y.py", "def kept():\n    pass\n")
    (project / "app" / "out.py").symlink_to(outside / "secret.py")
    (project / "app" / "same.py").symlink_to("y.py")
    (project / "app" / "dangling.py").symlink_to("gone.py")
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "init")
    return project


def test_a_tracked_file_symlink_is_skipped_as_what_it_is(file_links: Path) -> None:
    report = api.index(file_links)
    assert report["skipped"] == {
        "binary": 0, "oversized": 0, "unreadable": 0, "outside": 1, "symlink": 2
    }  # fmt: skip
    assert report["files"] == 2  # app/y.py and registries/orkestra.yaml
    assert api.find_symbol(file_links, "outside_fn")["symbols"] == []
    assert [s["location"] for s in api.find_symbol(file_links, "kept")["symbols"]] == ["app/y.py:1"]


def test_code_index_reports_a_file_symlink_leaving_the_project_as_outside(
    cli: Any, file_links: Path
) -> None:
    out = cli("code", "index", cwd=file_links)
    assert out.exit_code == 0
    skipped = out.json()["skipped"]
    assert (skipped["outside"], skipped["symlink"], skipped["unreadable"]) == (1, 2, 0)
