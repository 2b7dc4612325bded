"""A usage error is exit 2 wherever the command is run: the arguments are checked before the
project is looked for. In a folder without registries/, `search ""` and `search --limit 0 x`
were exit 1 ("no registries/ folder") while `search --type nosuch x` was exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.registry.helpers import scaffold

USAGE = [
    ("search", ""),
    ("search", "--limit", "0", "x"),
    ("search", "-n", "-5", "x"),
    ("search", "--type", "nosuch", "x"),
    ("decisions", "search", "--limit", "0", "x"),
    ("truths", "search", "--limit", "0", "--status", "current"),
    ("agents", "search", "x", "--query", "y"),
    ("notes", "list", "--type", "essay"),
    ("notes", "list", "--confidence", "certain"),
    ("notes", "new", "essay", "A title"),
    ("learn", "list", "--confidence", "sure"),
    ("learn", "list", "--category", "opinion"),
    ("code", "search", ""),
    ("code", "search", "--limit", "0", "x"),
    ("events", "summary", "--since", "last-week"),
    ("mine", "classify", "abc1234", "--changelog", "improved"),
    ("mine", "classify", "abc1234", "--decision", "DEC-1"),
    ("mine", "classify", "abc1234"),
]


@pytest.mark.parametrize("args", USAGE, ids=" ".join)
def test_a_usage_error_outside_a_project_is_exit_2(
    tmp_path: Path, cli: Any, args: tuple[str, ...]
) -> None:
    outside = cli(*args, "--format", "json", cwd=tmp_path)
    assert (outside.exit_code, outside.stdout) == (2, ""), outside.stderr
    assert json.loads(outside.stderr)["error"]["code"] == "usage"
    inside = cli(*args, "--format", "json", cwd=scaffold(tmp_path / "proj"))
    assert (inside.exit_code, inside.stderr) == (2, outside.stderr)


def test_a_valid_command_outside_a_project_still_says_what_is_missing(
    tmp_path: Path, cli: Any
) -> None:
    result = cli("search", "x", cwd=tmp_path)
    assert result.exit_code == 1 and "no registries/ folder" in result.stderr
