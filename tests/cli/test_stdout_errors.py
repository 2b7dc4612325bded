"""A stdout that cannot take the result (a full disk, a closed descriptor) is a clean error on
stderr naming `<stdout>`, exit 1: never an internal error with a crash log (exit 3)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ENV = {k: v for k, v in os.environ.items() if k != "ORKESTRA_ROOT"}


def _orkestra(cwd: Path, *args: str, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "orkestra", *args],
        cwd=cwd, env=ENV, stderr=subprocess.PIPE, check=False, timeout=60, **kwargs,  # type: ignore[call-overload]
    )  # fmt: skip


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("fmt", ["json", "table"])
def test_a_full_stdout_is_a_clean_error(project: Path, fmt: str) -> None:
    with Path("/dev/full").open("wb") as full:
        done = _orkestra(project, "agents", "list", "--format", fmt, stdout=full)
    assert done.returncode == 1, done.stderr
    err = done.stderr.decode()
    assert "<stdout>" in err and "No space left on device" in err, err
    assert "internal error" not in err and not (project / ".orkestra/logs").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="closes descriptor 1")
def test_a_closed_stdout_is_a_clean_error(project: Path) -> None:
    done = _orkestra(project, "agents", "list", pass_fds=(), preexec_fn=lambda: os.close(1))
    assert done.returncode == 1, done.stderr
    err = done.stderr.decode()
    assert "<stdout>: cannot write the output" in err, err
    assert "internal error" not in err and not (project / ".orkestra/logs").exists()
