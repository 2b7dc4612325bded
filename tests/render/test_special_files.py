"""A FIFO, a socket or a device where sync writes an agent's file (PRODUCT.md §4, §13): refused
without blocking, named as what it is, never replaced (not even with `--force`, which takes over
files, never folders or special files), and `agents info` shows the agent's outputs with it."""

from __future__ import annotations

import os
import signal
import socket
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import ConflictError
from orkestra.registry.inventory import agent_info
from orkestra.registry.loader import load
from orkestra.render.sync import sync
from tests.conftest import write

CURSOR = ".cursor/agents/example-agent.md"


@pytest.fixture(autouse=True)
def _no_hang() -> Iterator[None]:
    """Opening a FIFO for reading blocks until a writer comes: fail instead of hanging."""

    def stop(*_: Any) -> None:
        raise TimeoutError("blocked on a special file")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def _two_clients(root: Path) -> None:
    write(root, "registries/orkestra.yaml", "project: proj\ntargets: [claude, cursor]\n")


def _files(root: Path) -> dict[str, bytes | str]:
    """Every path below root but the derived caches: a regular file's bytes, else its type."""
    out: dict[str, bytes | str] = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if rel.startswith(".orkestra/"):
                continue
            mode = path.lstat().st_mode
            out[rel] = path.read_bytes() if stat.S_ISREG(mode) else f"type {stat.S_IFMT(mode)}"
    return out


def _fifo(root: Path, rel: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(root / rel)


@pytest.mark.parametrize("force", [False, True])
def test_a_fifo_where_an_agent_file_goes_is_refused_by_name_and_kept(
    scaffold: Path, force: bool
) -> None:
    _two_clients(scaffold)
    _fifo(scaffold, CURSOR)
    before = _files(scaffold)
    assert sync(scaffold, mode="dry-run").plan.conflicts == [CURSOR]
    with pytest.raises(ConflictError) as caught:
        sync(scaffold, force=force)
    assert caught.value.file == CURSOR
    assert f"'{CURSOR}' is a FIFO (named pipe)" in caught.value.message
    assert f"rm {CURSOR}" in caught.value.message
    assert _files(scaffold) == before
    assert stat.S_ISFIFO((scaffold / CURSOR).lstat().st_mode)


def test_a_socket_where_an_agent_file_goes_is_named_as_one(scaffold: Path, cli: Any) -> None:
    _two_clients(scaffold)
    (scaffold / ".cursor/agents").mkdir(parents=True)
    # a socket path must be short (108 bytes): bind from inside the folder
    here = Path.cwd()
    os.chdir(scaffold / ".cursor/agents")
    try:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.bind("example-agent.md")
            result = cli("sync", "--force", cwd=scaffold)
    finally:
        os.chdir(here)
    assert result.exit_code == 1, result.stdout
    assert f"'{CURSOR}' is a socket" in result.stderr and "Traceback" not in result.stderr
    assert stat.S_ISSOCK((scaffold / CURSOR).lstat().st_mode)


def test_agents_info_lists_each_output_and_points_at_the_fifo(scaffold: Path, cli: Any) -> None:
    _two_clients(scaffold)
    sync(scaffold, target="claude")
    _fifo(scaffold, CURSOR)
    outputs = agent_info(load(scaffold), "example-agent")["outputs"]
    assert outputs == [
        {"target": "claude", "path": ".claude/agents/example-agent.md", "state": "written"},
        {"target": "cursor", "path": CURSOR, "state": "a FIFO (named pipe), not a file: "
         f"sync cannot write it; remove it (rm {CURSOR})"},
    ]  # fmt: skip
    result = cli("agents", "info", "example-agent", cwd=scaffold)
    assert result.exit_code == 0
    assert CURSOR in result.stdout and "FIFO" in result.stdout
