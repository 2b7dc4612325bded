"""An integer option beyond 64 bits is a usage error (exit 2); the largest one a command takes
runs: never an overflow deep in SQLite or the date arithmetic (exit 3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write

HUGE = "9" * 30
AGENT = "name: alpha\ndescription: Alpha agent. Use when testing.\ncategory: x\nprompt: hi\n"


@pytest.mark.parametrize(
    "args",
    [
        ["search", "alpha", "--limit", HUGE],
        ["agents", "search", "alpha", "--limit", HUGE],
        ["code", "search", "alpha", "--limit", HUGE],
        ["code", "impact", "alpha", "--depth", f"-{HUGE}"],
        ["mine", "candidates", "--limit", HUGE],
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_an_integer_beyond_64_bits_is_a_usage_error(
    cli: Any, project: Path, args: list[str]
) -> None:
    result = cli(*args, "--format", "json", cwd=project)
    assert result.exit_code == 2, result.stderr
    assert result.stdout == ""
    error = json.loads(result.stderr)["error"]
    assert error["code"] == "usage"
    assert f"{args[-1]} is out of range (at most {2**63 - 1})" in error["message"]


@pytest.mark.parametrize("command", [["search"], ["agents", "search"]])
def test_the_largest_limit_searches(cli: Any, project: Path, command: list[str]) -> None:
    write(project, "registries/agents/alpha.yaml", AGENT)
    result = cli(*command, "alpha", "--limit", str(2**63 - 1), cwd=project)
    assert result.exit_code == 0, result.stderr
    assert [hit["id"] for hit in result.json()["results"]] == ["alpha"]
