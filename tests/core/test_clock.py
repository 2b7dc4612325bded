"""`core.clock.files_behind`: how far the clock that stamps the project's files lags ours."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from orkestra.core import clock


def _ahead(monkeypatch: pytest.MonkeyPatch, ns: int) -> None:
    """This process's clock `ns` ahead of the file system's (as against an NFS server that
    lags): file times stay real, every `time.time_ns()` here runs ahead."""
    real = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real() + ns)


def test_a_lagging_file_clock_is_read_from_a_file_written_under_orkestra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ahead(monkeypatch, 10_000_000_000)
    lag = clock.files_behind(tmp_path)
    assert 9_900_000_000 < lag < 10_500_000_000  # (less the time the write takes)
    assert [p.name for p in (tmp_path / ".orkestra").iterdir()] == ["clock"]


def test_a_lag_within_a_kernel_tick_is_taken_as_none(tmp_path: Path) -> None:
    """The coarse clock stamps files up to a tick late; the racy windows allow for that."""
    assert clock.files_behind(tmp_path) == 0
    assert (tmp_path / clock.PROBE).is_file()


def test_a_lag_just_over_the_allowance_is_taken_off_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ahead(monkeypatch, clock.ALLOWED_NS + 30_000_000)
    assert clock.files_behind(tmp_path) > clock.ALLOWED_NS + 20_000_000  # (the write takes a while)


def test_a_project_it_cannot_write_into_has_no_lag_and_nothing_is_written_through_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`.orkestra` a symlink leaving the project: the safe writer refuses, nothing lands there."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    root = tmp_path / "proj"
    root.mkdir()
    (root / ".orkestra").symlink_to(elsewhere)
    _ahead(monkeypatch, 10_000_000_000)
    assert clock.files_behind(root) == 0
    assert list(elsewhere.iterdir()) == []
