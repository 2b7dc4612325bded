"""An empty path argument or --root (`"$DIR"` with DIR unset) is a usage error naming the
parameter (exit 2), never the current folder: nothing is scaffolded, imported or read there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["init", ""], "'path'"),
        (["init", " "], "'path'"),
        (["import", "", "--dry-run"], "'path'"),
        (["skills", "intake", ""], "'path'"),
        (["mine", "commit", "--input", ""], "'--input'"),
        (["learn", "propose", "--input", ""], "'--input'"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else v,
)
def test_an_empty_path_is_a_usage_error(
    cli: Any, tmp_path: Path, args: list[str], names: str
) -> None:
    result = cli(*args, "--format", "json", cwd=tmp_path)
    assert (result.exit_code, result.stdout) == (2, ""), result.stderr
    error = json.loads(result.stderr)["error"]
    assert error["code"] == "usage" and names in error["message"]
    assert "an empty path" in error["message"]
    assert list(tmp_path.iterdir()) == []  # nothing scaffolded or imported here


def test_an_empty_root_is_a_usage_error_not_the_current_project(cli: Any, project: Path) -> None:
    result = cli("--root", "", "agents", "list", cwd=project)
    assert (result.exit_code, result.stdout) == (2, "")
    assert "--root is empty" in result.stderr


def test_init_without_a_path_still_means_the_current_folder(cli: Any, tmp_path: Path) -> None:
    result = cli("init", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "registries/orkestra.yaml").is_file()


@pytest.mark.parametrize(
    "args",
    [
        ["import", "{missing}", "--dry-run"],
        ["skills", "intake", "{missing}"],
        ["learn", "propose", "--input", "{missing}"],
        ["learn", "apply", "--input", "{missing}"],
        ["learn", "propose", "--input", "{folder}"],
        ["--root", "{missing}", "agents", "list"],
    ],
    ids=lambda v: " ".join(v),
)
def test_a_path_that_names_no_usable_input_is_an_input_error_not_a_usage_error(
    cli: Any, project: Path, tmp_path_factory: pytest.TempPathFactory, args: list[str]
) -> None:
    """The same mistake (a path that is missing, or a folder where a file goes) gets the same
    exit code from every command: 1, with the path named, never the parser's usage error 2."""
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    paths = {"missing": str(elsewhere / "nowhere"), "folder": str(elsewhere)}
    before = sorted(project.glob("registries/**/*"))
    result = cli(*[a.format(**paths) for a in args], "--format", "json", cwd=project)
    assert (result.exit_code, result.stdout) == (1, ""), result.stderr
    error = json.loads(result.stderr)["error"]
    assert error["code"] != "usage"
    assert str(elsewhere) in f"{error['file']} {error['message']}"
    assert sorted(project.glob("registries/**/*")) == before  # nothing written
