"""A registry file that fails to load is never left out in silence: list and info commands warn
on stderr with its file and line, and an info of a name that may be in it points at it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from orkestra.cli.common import MAX_WARNINGS
from tests.conftest import write

GOOD = "name: alpha\ndescription: Alpha agent. Use when testing.\ncategory: x\nprompt: hi\n"
TAB = "name: beta\n\tdescription: broken\n"


@pytest.fixture
def broken(project: Path) -> Path:
    write(project, "registries/agents/alpha.yaml", GOOD)
    write(project, "registries/agents/beta.yaml", TAB)
    return project


def test_a_list_warns_about_the_file_it_left_out(cli: Any, broken: Path) -> None:
    r = cli("agents", "list", cwd=broken)
    assert r.exit_code == 0
    assert [a["name"] for a in r.json()["agents"]] == ["alpha"]
    (line,) = r.stderr.splitlines()
    assert line.startswith("orkestra: warning: registries/agents/beta.yaml:2: ORK001: ")
    assert "tab" in line and "left out of this answer" in line


def test_with_json_each_warning_is_a_json_object(cli: Any, broken: Path) -> None:
    r = cli("agents", "list", "--format", "json", cwd=broken)
    assert r.exit_code == 0 and r.json()["total"] == 1
    (line,) = r.stderr.splitlines()
    warning = json.loads(line)["warning"]
    assert (warning["code"], warning["file"], warning["line"]) == (
        "ORK001",
        "registries/agents/beta.yaml",
        2,
    )


def test_info_of_a_name_in_a_broken_file_points_at_it(cli: Any, broken: Path) -> None:
    r = cli("agents", "info", "beta", "--format", "json", cwd=broken)
    assert (r.exit_code, r.stdout) == (1, "")
    error = json.loads(r.stderr.splitlines()[-1])["error"]
    assert error["code"] == "not_found"
    assert (error["file"], error["line"]) == ("registries/agents/beta.yaml", 2)
    assert "no agent named 'beta'" in error["message"] and "failed to load" in error["message"]


def test_a_clean_registry_warns_about_nothing(cli: Any, project: Path) -> None:
    write(project, "registries/agents/alpha.yaml", GOOD)
    listed = cli("agents", "list", cwd=project)
    assert (listed.exit_code, listed.stderr) == (0, "")
    missing = cli("agents", "info", "gamma", cwd=project)
    assert missing.exit_code == 1 and "failed to load" not in missing.stderr


def test_many_broken_files_are_warned_about_up_to_a_limit(cli: Any, project: Path) -> None:
    for n in range(MAX_WARNINGS + 3):
        write(project, f"registries/agents/b{n:02}.yaml", TAB)
    lines = cli("scopes", "list", cwd=project).stderr.splitlines()
    assert len(lines) == MAX_WARNINGS + 1
    assert "and 3 more load error(s)" in lines[-1]
