"""`decisions list --domain D` with a domain decisions/registry.yaml does not register (a typo,
or its two-letter code) is a usage error naming the domains, as `--status bogus` is and as
`decisions new --domain` is, never an empty list that reads as "no decisions here"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import UsageError
from orkestra.registry.inventory import decisions_list
from orkestra.registry.loader import load
from tests.registry.helpers import scaffold


def test_a_registered_domain_lists_its_records(tmp_path: Path) -> None:
    root = scaffold(tmp_path)
    rows = decisions_list(load(root), domain="architecture")
    assert [r["id"] for r in rows] == ["DEC-AR-001"]


def test_an_unknown_domain_is_a_usage_error_naming_the_domains(tmp_path: Path) -> None:
    root = scaffold(tmp_path)
    with pytest.raises(UsageError) as caught:
        decisions_list(load(root), domain="architecure")
    assert "architecture" in caught.value.message


def test_a_domain_code_points_at_its_domain(tmp_path: Path) -> None:
    root = scaffold(tmp_path)
    with pytest.raises(UsageError) as caught:
        decisions_list(load(root), domain="AR")
    assert "did you mean architecture" in caught.value.message


def test_the_cli_exits_2_with_a_json_error(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path)
    result = cli("decisions", "list", "--domain", "archi", "--format", "json", cwd=root)
    assert result.exit_code == 2
    assert result.stdout == ""
    error = json.loads(result.stderr)["error"]
    assert error["code"] == "usage" and "architecture" in error["message"]


def test_the_domain_check_is_one_function_for_list_and_search(tmp_path: Path) -> None:
    from orkestra.registry.inventory import known_decision_domain

    reg = load(scaffold(tmp_path))
    known_decision_domain(reg, "architecture")
    with pytest.raises(UsageError) as caught:
        known_decision_domain(reg, "AR")
    assert "did you mean architecture" in caught.value.message


@pytest.mark.parametrize(
    "args",
    [
        ["decisions", "search", "x", "--domain", "archi"],
        ["decisions", "search", "--domain", "AR"],
        ["decisions", "search", "x", "--domain", "architecture,nope"],
        ["registry", "decisions", "search", "--query", "x", "--domain", "nope"],
    ],
)
def test_search_with_an_unknown_domain_is_the_same_usage_error(
    tmp_path: Path, cli: Any, args: list[str]
) -> None:
    """`decisions search --domain` answers as `decisions list --domain` does: exit 2 naming
    the known domains, never an empty result that reads as "no decisions here"."""
    root = scaffold(tmp_path)
    result = cli(*args, cwd=root)
    assert result.exit_code == 2, result.stdout
    assert result.stdout == ""
    assert "unknown decision domain" in result.stderr and "architecture (AR)" in result.stderr


def test_search_with_a_known_domain_still_answers(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path)
    result = cli("decisions", "search", "--domain", "architecture", cwd=root)
    assert result.exit_code == 0, result.stderr
    assert [h["id"] for h in result.json()["results"]] == ["DEC-AR-001"]
    assert cli("decisions", "search", "zzqx", "--domain", "architecture", cwd=root).exit_code == 0
