"""core.lock: one exclusive advisory lock; the module imports without fcntl."""

from __future__ import annotations

import builtins
import importlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import lock

HOLDER = """
import sys, time
from orkestra.core.lock import locked
with locked(sys.argv[1]):
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def test_a_second_process_waits_for_the_lock(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "ledger.lock"
    command = [sys.executable, "-c", HOLDER, str(target), "0.6"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as holder:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        start = time.monotonic()
        with lock.locked(target) as fd:
            waited = time.monotonic() - start
            assert os.fstat(fd).st_size == 0
    assert waited > 0.3  # we got the lock only once the holder let go


def test_waiting_is_called_once_and_only_when_another_holds_the_lock(tmp_path: Path) -> None:
    target = tmp_path / "sync.lock"
    calls: list[float] = []
    with lock.locked(target, waiting=lambda: calls.append(time.monotonic())):
        pass
    assert calls == []  # free: taken at once, nothing said
    command = [sys.executable, "-c", HOLDER, str(target), "0.6"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as holder:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        start = time.monotonic()
        with lock.locked(target, waiting=lambda: calls.append(time.monotonic())):
            taken = time.monotonic()
    assert len(calls) == 1 and calls[0] - start < 0.3 < taken - start  # said before it waited


def test_appending_descriptor_writes_at_the_end(tmp_path: Path) -> None:
    target = tmp_path / "log.jsonl"
    target.write_bytes(b"one\n")
    with lock.locked(target, append=True) as fd:
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, b"two\n")
    assert target.read_bytes() == b"one\ntwo\n"


def test_module_imports_and_fails_clearly_without_fcntl_or_msvcrt(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real_import = builtins.__import__

    def no_locking(name: str, *args: Any, **kwargs: Any) -> Any:
        if name in ("fcntl", "msvcrt"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_locking)
    module = importlib.reload(lock)
    try:
        with (
            pytest.raises(module.LockError, match="neither fcntl nor msvcrt"),
            module.locked(tmp_path / "x.lock"),
        ):
            pass
    finally:
        monkeypatch.undo()
        importlib.reload(lock)
