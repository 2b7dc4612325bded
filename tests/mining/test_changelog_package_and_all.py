"""`changelog render --all --package P` says "not both" (it said "give --package NAME or --all",
as if neither had been given)."""

from __future__ import annotations

from typing import Any

import pytest

from orkestra.core.errors import UsageError
from orkestra.mining.changelog import parse_packages
from tests.mining.gitrepo import GitRepo


def test_package_and_all_together_say_not_both(repo: GitRepo, cli: Any) -> None:
    with pytest.raises(UsageError, match="not both"):
        parse_packages("core", True)
    with pytest.raises(UsageError) as neither:
        parse_packages(None, False)
    assert "not both" not in neither.value.message
    result = cli("changelog", "render", "--all", "--package", "core", cwd=repo.path)
    assert result.exit_code == 2 and "give --package NAME or --all, not both" in result.stderr
