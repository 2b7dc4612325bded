"""A plain number too long to read is reported shortened, with advice that fits (quote it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.core import yamlio
from orkestra.core.errors import InputError
from tests.registry.helpers import scaffold


def test_a_5000_digit_number_is_shown_short_and_quoting_is_advised() -> None:
    with pytest.raises(InputError) as info:
        yamlio.loads("description: " + "1" * 5000 + "\n", "a.yaml")
    message = info.value.message
    assert "has 5000 digits" in message and "quote it" in message
    assert "remove the tag" not in message and len(message) < 200
    assert info.value.line == 1


def test_a_bad_explicit_tag_still_says_remove_the_tag() -> None:
    with pytest.raises(InputError, match=r"'abc' is not a valid 'tag:yaml\.org,2002:int'; remove"):
        yamlio.loads("description: !!int abc\n", "a.yaml")


def test_validate_cli(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path / "p")
    big = "name: big\ndescription: " + "1" * 5000 + "\n"
    (root / "registries/agents/big.yaml").write_text(big, encoding="utf-8")
    result = cli("validate", cwd=root)
    assert result.exit_code == 1 and "has 5000 digits" in result.stdout
    assert len(result.stdout) < 2000
