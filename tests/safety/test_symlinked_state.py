"""A planted `.orkestra -> elsewhere` never receives a lock, an index or a cache (PRODUCT.md §13).

Found after the issue 11 review: `search` and `mine sync` created their lock files inside a
symlinked `.orkestra/` before any check, i.e. outside the project. Locks taken with a project
root now pass the safe writer's checks first (`core.lock.locked(..., root=...)`).
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import UnsafePathError
from orkestra.core.lock import locked
from orkestra.scaffold import init_project


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, Path]:
    root, elsewhere = tmp_path / "p", tmp_path / "elsewhere"
    elsewhere.mkdir()
    init_project(root)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / ".orkestra").symlink_to(elsewhere)
    return root, elsewhere


@pytest.mark.parametrize("command", [("search", "example"), ("mine", "sync")])
def test_a_symlinked_state_folder_is_refused_and_receives_nothing(
    planted: tuple[Path, Path], cli: Any, command: tuple[str, ...]
) -> None:
    root, elsewhere = planted
    result = cli(*command, cwd=root)
    assert result.exit_code == 1, result.stderr
    assert "symlink" in result.stderr
    assert list(elsewhere.iterdir()) == []


def test_agents_list_still_answers_without_its_cache(planted: tuple[Path, Path], cli: Any) -> None:
    root, elsewhere = planted
    result = cli("agents", "list", cwd=root)
    assert result.exit_code == 0 and "example-agent" in result.stdout
    assert list(elsewhere.iterdir()) == []


def test_a_lock_with_a_root_is_checked_before_it_is_created(planted: tuple[Path, Path]) -> None:
    root, elsewhere = planted
    with pytest.raises(UnsafePathError), locked(root / ".orkestra" / "x.lock", root=root):
        pass
    assert not (elsewhere / "x.lock").exists()
