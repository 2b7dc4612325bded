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
