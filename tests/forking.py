"""Shared pieces of the tests of the forked helpers (`render.helper`, `registry.prefetch`)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest


def no_child_left() -> None:
    """Every helper this process forked has been reaped."""
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def refuse_fork(monkeypatch: pytest.MonkeyPatch, why: str) -> None:
    """Make any fork fail the test."""

    def no_fork() -> int:
        raise AssertionError(why)

    monkeypatch.setattr(os, "fork", no_fork)


@contextmanager
def another_thread() -> Iterator[None]:
    """A second thread runs for the time of the block."""
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        yield
    finally:
        stop.set()
        other.join()


def recorded_kills(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids `os.kill` is asked to signal; one <= 0 is recorded and never sent (it would reach
    every process the user may signal)."""
    asked: list[int] = []
    real = os.kill

    def recording(pid: int, sig: int) -> None:
        asked.append(pid)
        if pid > 0:
            real(pid, sig)

    monkeypatch.setattr(os, "kill", recording)
    return asked
