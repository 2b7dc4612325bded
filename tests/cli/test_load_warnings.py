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


@pytest.mark.parametrize(
    ("kind", "name", "broken_file"),
    [
        ("agents", "gamma", "registries/truths/broken.yaml"),  # a truths file holds no agent
        ("agents", "gamma", "registries/agents/beta.yaml"),  # beta.yaml holds beta only
        ("truths", "GT-NOPE-001", "registries/agents/beta.yaml"),
    ],
)
def test_info_points_only_at_a_broken_file_that_may_hold_the_name(
    cli: Any, project: Path, kind: str, name: str, broken_file: str
) -> None:
    write(project, broken_file, TAB)
    r = cli(kind, "info", name, "--format", "json", cwd=project)
    assert r.exit_code == 1
    error = json.loads(r.stderr.splitlines()[-1])["error"]
    assert error["code"] == "not_found" and "failed to load" not in error["message"]
    assert error["file"] is None


def test_info_of_a_truth_points_at_a_broken_truths_file(cli: Any, project: Path) -> None:
    write(project, "registries/agents/beta.yaml", TAB)  # listed first, and cannot hold a truth
    write(project, "registries/truths/broken.yaml", TAB)
    r = cli("truths", "info", "GT-NOPE-001", "--format", "json", cwd=project)
    error = json.loads(r.stderr.splitlines()[-1])["error"]
    assert (error["file"], error["line"]) == ("registries/truths/broken.yaml", 2)


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


# --- search: the index records the files it left out --------------------------------------------


def test_search_warns_about_the_file_it_left_out(cli: Any, broken: Path) -> None:
    r = cli("search", "agent", "--format", "table", cwd=broken)
    assert r.exit_code == 0 and "alpha" in r.stdout
    (line,) = r.stderr.splitlines()
    assert line.startswith("orkestra: warning: registries/agents/beta.yaml:2: ORK001: ")
    assert "left out of this answer" in line and "`orkestra validate`" in line


def test_search_with_json_keeps_its_envelope_and_warns_in_json(cli: Any, broken: Path) -> None:
    for args in (("search", "agent"), ("search", "agent", "--summary"), ("agents", "search", "a")):
        r = cli(*args, "--format", "json", cwd=broken)
        assert r.exit_code == 0 and "warnings" not in r.json()
        (line,) = r.stderr.splitlines()
        warning = json.loads(line)["warning"]
        assert (warning["code"], warning["file"], warning["line"]) == (
            "ORK001",
            "registries/agents/beta.yaml",
            2,
        )


def test_search_stops_warning_once_the_file_is_fixed(cli: Any, broken: Path) -> None:
    assert cli("search", "agent", cwd=broken).stderr  # indexed with the problem
    write(broken, "registries/agents/beta.yaml", GOOD.replace("alpha", "beta"))
    r = cli("search", "agent", cwd=broken)
    assert (r.exit_code, r.stderr) == (0, "")
    assert {h["id"] for h in r.json()["results"]} == {"alpha", "beta"}


def test_search_warns_about_a_note_that_failed_to_load(cli: Any, project: Path) -> None:
    write(project, "registries/agents/alpha.yaml", GOOD)
    write(project, "knowledge/gotchas/bad.md", "---\ntitle: [unclosed\n---\nbody\n")
    (line,) = cli("search", "alpha", cwd=project).stderr.splitlines()
    assert line.startswith("orkestra: warning: knowledge/gotchas/bad.md:")
    assert "`orkestra notes check` lists every problem" in line


def test_search_from_the_sources_reports_the_same_files(broken: Path) -> None:
    from orkestra.search import service

    indexed: list[Any] = []
    service.search(broken, "agent", unloaded=indexed)
    direct: list[Any] = []
    service.search(broken, "agent", use_index=False, unloaded=direct)
    assert indexed == direct
    assert [(p.code, p.file, p.line) for p in direct] == [
        ("ORK001", "registries/agents/beta.yaml", 2)
    ]


def test_search_rereads_the_knowledge_base_when_its_settings_change(
    cli: Any, project: Path
) -> None:
    write(project, "registries/agents/alpha.yaml", GOOD)
    assert cli("search", "alpha", cwd=project).stderr == ""
    write(project, "registries/orkestra.yaml", "project: demo\nknowledge:\n  path: /etc\n")
    (line,) = cli("search", "alpha", cwd=project).stderr.splitlines()
    assert line.startswith("orkestra: warning: registries/orkestra.yaml:3: ")
    assert "knowledge.path" in line and "`orkestra notes check`" in line
    write(project, "registries/orkestra.yaml", "project: demo\n")
    assert cli("search", "alpha", cwd=project).stderr == ""
