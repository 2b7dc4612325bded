"""Red team 2: a folder swapped for a symlink between the checks and the write (PRODUCT.md §13).

The safe writer checks that no folder on a path is a symlink, then writes. A process that swaps a
checked folder for a symlink to somewhere else in between must not get the file written there.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest

from orkestra.core import safewrite
from orkestra.core.errors import UnsafePathError


@pytest.fixture
def swap(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A project whose `.claude/agents` becomes a symlink to `outside` just before the temporary
    file is created (after every check has passed)."""
    root, outside = tmp_path / "proj", tmp_path / "outside"
    (root / ".claude/agents").mkdir(parents=True)
    outside.mkdir()
    real = os.open

    def racing(path: object, *args: object, **kw: object) -> int:
        name = os.fspath(path)  # type: ignore[call-overload]
        agents = root / ".claude/agents"
        if name.endswith(".tmp") and not agents.is_symlink():
            agents.rename(root / ".claude/moved")
            agents.symlink_to(outside, target_is_directory=True)
        return real(path, *args, **kw)  # type: ignore[call-overload]

    with mock.patch.object(os, "open", racing):
        yield root, outside


def test_a_folder_swapped_for_a_symlink_before_the_write_receives_nothing(
    swap: tuple[Path, Path],
) -> None:
    # broke: write_file checked the folders, then created its temporary file and renamed it
    # through the symlink that replaced `.claude/agents` meanwhile: the file landed outside
    root, outside = swap
    with pytest.raises(UnsafePathError) as err:
        safewrite.write_file(root, ".claude/agents/a.md", "hello\n")
    assert err.value.file == ".claude/agents" and "symlink" in err.value.message
    assert list(outside.iterdir()) == []


def test_a_batch_never_renames_into_a_folder_swapped_for_a_symlink(
    swap: tuple[Path, Path],
) -> None:
    # broke the same way for sync's batch: its folders are checked with the whole plan, long
    # before a file is staged; the staged file and its rename both went through the new symlink
    root, outside = swap
    with pytest.raises(UnsafePathError) as err, safewrite.Batch(root) as batch:
        batch.file(".claude/agents/a.md", "hello\n")
        batch.file(".claude/b.md", "kept out too\n")
    assert err.value.file == ".claude/agents"
    assert list(outside.iterdir()) == []
    assert not (root / ".claude/b.md").exists()  # all or nothing
