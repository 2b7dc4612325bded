"""Run from a folder that was deleted: a clean error saying so (exit 1), never an internal error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a deleted cwd is POSIX only")


def _in_deleted_folder(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    def leave() -> None:  # in the child: stand in the folder, then delete it
        os.chdir(folder)
        folder.rmdir()

    env = {k: v for k, v in os.environ.items() if k not in ("ORKESTRA_ROOT", "PWD")}
    return subprocess.run(
        [sys.executable, "-m", "orkestra", *args],
        env=env, preexec_fn=leave, capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize("args", [["agents", "list"], ["init"], ["--root", "rel", "search", "x"]])
def test_a_deleted_current_folder_is_a_clean_error(tmp_path: Path, args: list[str]) -> None:
    folder = tmp_path / "gone"
    folder.mkdir()
    done = _in_deleted_folder(folder, *args, "--format", "json")
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    error = json.loads(done.stderr)["error"]
    assert error["code"] == "not_found"
    assert "the current folder no longer exists" in error["message"]
    assert not folder.exists() and not (tmp_path / ".orkestra").exists()
