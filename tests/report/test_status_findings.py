"""`system status` on a broken project says what is wrong, not only how much (§5 level 1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.registry.loader import load
from orkestra.report.status import MAX_SHOWN, system_status
from tests.conftest import write

BROKEN_AGENT = "name: broken\ndescription: [\n"


@pytest.fixture
def proj(tmp_path: Path, cli: Any) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    assert cli("init", str(root)).exit_code == 0
    return root


def test_status_lists_the_errors_with_file_and_line(proj: Path) -> None:
    write(proj, "registries/agents/broken.yaml", BROKEN_AGENT)
    write(proj, "registries/orkestra.yaml", "project: demo\ntargets: [claude, cursr]\n")
    report = system_status(load(proj))
    validation = report["validation"]
    assert report["healthy"] is False and validation["errors"] == 2
    where = {(f["file"], f["line"]) for f in validation["findings"]}
    assert ("registries/agents/broken.yaml", 3) in where
    assert any(f == "registries/orkestra.yaml" for f, _ in where)
    assert all(
        f["severity"] == "error" and f["code"] and f["message"] for f in validation["findings"]
    )
    assert "orkestra validate" in validation["hint"]


def test_status_of_a_healthy_project_lists_no_finding(proj: Path) -> None:
    validation = system_status(load(proj))["validation"]
    assert validation == {"errors": 0, "warnings": 0, "findings": []}


def test_status_shows_the_first_errors_only(proj: Path) -> None:
    for n in range(MAX_SHOWN + 3):
        write(proj, f"registries/agents/broken-{n:02}.yaml", BROKEN_AGENT)
    validation = system_status(load(proj))["validation"]
    assert validation["errors"] == MAX_SHOWN + 3 and len(validation["findings"]) == MAX_SHOWN
    assert f"{MAX_SHOWN} of {MAX_SHOWN + 3}" in validation["hint"]


def test_cli_status_names_what_is_wrong(proj: Path, cli: Any) -> None:
    write(proj, "registries/agents/broken.yaml", BROKEN_AGENT)
    result = cli("system", "status", cwd=proj)
    assert result.exit_code == 1
    found = result.json()["validation"]["findings"]
    assert found[0]["file"] == "registries/agents/broken.yaml" and found[0]["line"] == 3
    table = cli("system", "status", "--format", "table", cwd=proj)
    assert table.exit_code == 1
    assert "registries/agents/broken.yaml" in table.stdout and "ORK001" in table.stdout


def test_a_file_that_failed_to_load_is_shown_before_what_follows_from_it(proj: Path) -> None:
    """Errors sort by file: a broken tools.yaml's error came after more than the shown ones
    (here agents naming a skill that does not exist; the "unknown tool" errors a broken
    tools.yaml caused are no longer reported at all), so the file that failed to load was cut
    from the shown ones."""
    example = (proj / "registries/agents/example-agent.yaml").read_text(encoding="utf-8")
    for n in range(MAX_SHOWN):
        name = f"agent-{n:02}"
        text = example.replace("name: example-agent", f"name: {name}")
        write(proj, f"registries/agents/{name}.yaml", text + "skills:\n  - missing-skill\n")
    write(proj, "registries/tools.yaml", "builtin: [Read]\nbuiltin: [Grep, Glob]\n")
    validation = system_status(load(proj))["validation"]
    assert validation["errors"] > MAX_SHOWN
    first = validation["findings"][0]
    assert (first["file"], first["line"], first["code"]) == ("registries/tools.yaml", 2, "ORK001")


def test_a_sync_that_would_fail_names_its_file_and_line(proj: Path, cli: Any) -> None:
    """`render.reason` held the message alone: which client file has the comments was left out."""
    write(proj, "registries/orkestra.yaml", "project: demo\ntargets: [claude, gemini]\n")
    write(proj, "registries/mcp.yaml", "docs:\n  command: docs-mcp\n")
    write(proj, ".gemini/settings.json", '{\n  // mine\n  "theme": "x"\n}\n')
    render = cli("system", "status", cwd=proj).json()["render"]
    assert render["drift"] is None and "JSONC" in render["reason"]
    assert (render["file"], render["line"]) == (".gemini/settings.json", 2)
