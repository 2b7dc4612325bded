"""`write_file(expected_old=None)` creates a file only where none exists, in one step."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import safewrite
from orkestra.core.errors import ChangedOnDisk


def _other_run_creates(monkeypatch: pytest.MonkeyPatch, target: Path) -> None:
    """Another process creates `target` after this write checked it and staged its data."""
    stage = safewrite._stage

    def racing(full: str, rel: str, make: Any) -> str:
        tmp = stage(full, rel, make)
        target.write_text("the other run's\n", encoding="utf-8")
        return tmp

    monkeypatch.setattr(safewrite, "_stage", racing)


def _left(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_file_created_meanwhile_is_never_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "rec" / "a.yaml"
    target.parent.mkdir()
    _other_run_creates(monkeypatch, target)
    with pytest.raises(ChangedOnDisk, match="appeared on disk") as info:
        safewrite.write_file(tmp_path, target, "mine\n", expected_old=None)
    assert info.value.file == "rec/a.yaml"
    assert target.read_text(encoding="utf-8") == "the other run's\n"
    assert _left(target.parent) == ["a.yaml"]  # no temporary file left


def test_a_created_file_gets_its_data_and_mode(tmp_path: Path) -> None:
    path = safewrite.write_file(tmp_path, "new/b.txt", "b\n", expected_old=None, mode=0o600)
    assert path.read_text(encoding="utf-8") == "b\n"
    assert path.stat().st_mode & 0o777 == 0o600 and path.stat().st_nlink == 1
    assert _left(path.parent) == ["b.txt"]


def test_without_hard_links_the_name_is_checked_once_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_links(*_: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    path = safewrite.write_file(tmp_path, "c.txt", "c\n", expected_old=None)
    assert path.read_text(encoding="utf-8") == "c\n" and _left(tmp_path) == ["c.txt"]
    target = tmp_path / "d.txt"
    _other_run_creates(monkeypatch, target)
    with pytest.raises(ChangedOnDisk):
        safewrite.write_file(tmp_path, target, "mine\n", expected_old=None)
    assert target.read_text(encoding="utf-8") == "the other run's\n"
    assert _left(tmp_path) == ["c.txt", "d.txt"]


def test_a_link_that_fails_for_another_reason_is_a_write_failure_leaving_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.core.errors import WriteFailed

    def full_disk(src: str, dst: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "link", full_disk)
    with pytest.raises(WriteFailed, match="No space left") as info:
        safewrite.write_file(tmp_path, tmp_path / "a.yaml", "mine\n", expected_old=None)
    assert info.value.file == "a.yaml"
    assert _left(tmp_path) == []  # no temporary file, no half-written target
