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
