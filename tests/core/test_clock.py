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


def test_a_linked_orkestra_folder_gives_an_unknown_lag_and_nothing_is_written_through_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`.orkestra` a symlink leaving the project: the safe writer refuses, nothing lands there."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    root = tmp_path / "proj"
    root.mkdir()
    (root / ".orkestra").symlink_to(elsewhere)
    _ahead(monkeypatch, 10_000_000_000)
    assert clock.files_behind(root) == clock.UNKNOWN_NS  # nothing recorded vouches meanwhile
    assert list(elsewhere.iterdir()) == []


def test_a_folder_in_the_probe_s_place_gives_an_unknown_lag(tmp_path: Path) -> None:
    (tmp_path / clock.PROBE).mkdir(parents=True)
    assert clock.files_behind(tmp_path) == clock.UNKNOWN_NS


def test_the_write_s_own_time_counts_as_lag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slow write (a network round trip) makes the lag read larger, never smaller."""
    from orkestra.core import safewrite

    real = safewrite.write_file

    def slow(*args: object, **kwargs: object) -> Path:
        done = real(*args, **kwargs)  # type: ignore[arg-type]
        time.sleep(0.08)  # the reply comes back 80 ms after the server stamped the file
        return done

    monkeypatch.setattr(safewrite, "write_file", slow)
    assert clock.files_behind(tmp_path) >= 80_000_000


def test_a_reading_looks_at_the_file_clock_once_and_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ahead(monkeypatch, 10_000_000_000)
    reading = clock.Reading(tmp_path)
    assert not (tmp_path / clock.PROBE).exists()  # a run that records nothing writes nothing
    seen = reading.seen()
    assert reading.started - 10_500_000_000 < seen <= reading.started - 9_900_000_000
    (tmp_path / clock.PROBE).unlink()
    assert reading.seen() == seen and not (tmp_path / clock.PROBE).exists()  # read once
