"""Shared fixtures: run the real CLI in-process, build throwaway projects."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from orkestra.cli import common
from orkestra.cli.entry import main


@pytest.fixture(autouse=True, scope="session")
def _private_state_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Crash logs of runs outside a project go to the per-user state folder: a throwaway one."""
    old = os.environ.get("XDG_STATE_HOME")
    os.environ["XDG_STATE_HOME"] = str(tmp_path_factory.mktemp("state-home"))
    yield
    if old is None:
        os.environ.pop("XDG_STATE_HOME", None)
    else:
        os.environ["XDG_STATE_HOME"] = old


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


@pytest.fixture
def alarm() -> Iterator[None]:
    """A read or open that blocks fails with TimeoutError after 20 s instead of hanging the run
    (a FIFO or `/dev/zero` where a file is expected: the bug some tests look for)."""
    import signal

    def fire(*_: object) -> None:
        raise TimeoutError("blocked: a read or open that never returns")

    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """Call `cli(args..., cwd=path)` to run `orkestra` in-process; returns a Result."""
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")

    def run(*args: str, cwd: Path | None = None, stdin: str | None = None) -> Result:
        import io
        import sys

        common.STATE.root = None
        old = Path.cwd()
        if cwd is not None:
            os.chdir(cwd)
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        try:
            capsys.readouterr()
            code = main(list(args))
            out = capsys.readouterr()
        finally:
            os.chdir(old)
        return Result(code, out.out, out.err)

    return run


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    """An empty folder with a `registries/orkestra.yaml`."""
    (tmp_path / "registries").mkdir()
    (tmp_path / "registries" / "orkestra.yaml").write_text("project: demo\n", encoding="utf-8")
    yield tmp_path


def write(root: Path, rel: str, text: str) -> Path:
    """Write a file below root (creating folders) and return its path."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def read_json_file(path: Path) -> Any:
    """A JSON file as parsed: a derived one written sealed (`jsonio.sealed`) or a plain one."""
    from orkestra.core import jsonio

    if path.read_bytes().startswith(jsonio.SEAL):
        return jsonio.read_sealed(path)
    return json.loads(path.read_text(encoding="utf-8"))


def write_json_file(path: Path, data: Any) -> None:
    """`data` written back as `path` holds JSON now: sealed when it was (a test's edit to a
    derived file that must still be read), plain otherwise."""
    from orkestra.core import jsonio

    text = json.dumps(data)
    if path.is_file() and path.read_bytes().startswith(jsonio.SEAL):
        path.write_bytes(jsonio.sealed(text))
    else:
        path.write_text(text, encoding="utf-8")
