"""Crash logs (PRODUCT.md §13, issue 11 case 6): where an unexpected error's traceback goes.

The project root's `.orkestra/logs/` (not the current folder), else the private per-user state
folder (mode 0700, owned by the user); a new file opened with O_CREAT|O_EXCL|O_NOFOLLOW, so a
symlink planted at the would-be path is never followed; never a shared temporary folder.
"""

from __future__ import annotations

import datetime
import os
import re
import stat
from pathlib import Path

import pytest

from orkestra.cli import common, errors
from orkestra.core.errors import ExitCode

STAMP = "20260101-000000"


class _Frozen(datetime.datetime):
    @classmethod
    def now(cls, tz: datetime.tzinfo | None = None) -> _Frozen:
        return cls(2026, 1, 1, 0, 0, 0)


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ORKESTRA_ROOT", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(datetime, "datetime", _Frozen)  # a predictable log name to plant at
    monkeypatch.setattr(common.STATE, "root", None)


def _crash(capsys: pytest.CaptureFixture[str]) -> Path | None:
    try:
        raise RuntimeError("boom")
    except RuntimeError as exc:
        assert errors.report(exc) == ExitCode.INTERNAL
    err = capsys.readouterr().err
    found = re.search(r"\(traceback in (.+?)\)", err)
    assert found is not None, err
    return None if found.group(1).startswith("<") else Path(found.group(1))


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "registries").mkdir(parents=True)
    return root


def test_a_symlink_planted_at_the_log_path_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    logs = root / ".orkestra" / "logs"
    logs.mkdir(parents=True)
    planted = [logs / f"crash-{STAMP}.log", logs / f"crash-{STAMP}-{os.getpid()}.log"]
    for link in planted:
        link.symlink_to(victim)
    monkeypatch.chdir(root)
    log = _crash(capsys)
    assert victim.read_text() == "precious\n"
    assert all(link.is_symlink() and link.resolve() == victim for link in planted)
    assert log is not None and log.parent == logs and log not in planted
    assert not log.is_symlink() and "RuntimeError: boom" in log.read_text()
    assert stat.S_IMODE(log.stat().st_mode) == 0o600


def test_the_log_lands_in_the_project_root_when_run_from_a_subfolder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path)
    deep = root / "src" / "pkg"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    log = _crash(capsys)
    assert log is not None and log.parent == root / ".orkestra" / "logs"
    assert not (deep / ".orkestra").exists() and not (root / "src" / ".orkestra").exists()


def test_outside_a_project_the_log_goes_to_the_private_state_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    monkeypatch.chdir(nowhere)
    log = _crash(capsys)
    folder = tmp_path / "state" / "orkestra" / "logs"
    assert log is not None and log.parent == folder
    st = folder.lstat()
    assert stat.S_ISDIR(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o700
    assert st.st_uid == os.getuid()
    assert not (nowhere / ".orkestra").exists()
    assert "orkestra-logs" not in str(log)


def test_without_xdg_state_home_the_state_folder_is_under_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    log = _crash(capsys)
    assert log is not None and log.parent == tmp_path / "home/.local/state/orkestra/logs"


def test_a_shared_state_folder_is_made_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "state" / "orkestra" / "logs"
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    monkeypatch.chdir(tmp_path)
    assert _crash(capsys) is not None
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_a_symlinked_log_folder_is_refused_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / ".orkestra").symlink_to(elsewhere)  # the project's log folder leads outside it
    (tmp_path / "state" / "orkestra").mkdir(parents=True)
    (tmp_path / "state" / "orkestra" / "logs").symlink_to(elsewhere)
    monkeypatch.chdir(root)
    assert _crash(capsys) is None  # "<no writable log folder>": nothing written anywhere
    assert list(elsewhere.iterdir()) == []


def test_an_error_holding_bytes_that_are_not_utf8_is_still_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An argument in a terminal's Latin-1 reaches Python as a lone surrogate (`caf\\udce9`):
    writing the traceback raised UnicodeEncodeError inside the error handler, so the user got a
    raw double traceback and an empty crash log."""
    import sys

    monkeypatch.chdir(_project(tmp_path))
    monkeypatch.setattr(sys, "argv", ["orkestra", "notes", "new", "gotcha", "caf\udce9"])
    try:
        raise UnicodeEncodeError("utf-8", "caf\udce9", 3, 4, "surrogates not allowed")
    except UnicodeEncodeError as exc:
        assert errors.report(exc) == ExitCode.INTERNAL
    err = capsys.readouterr().err
    found = re.search(r"\(traceback in (.+?)\)", err)
    assert found is not None and not found.group(1).startswith("<"), err
    text = Path(found.group(1)).read_text(encoding="utf-8")
    assert "orkestra notes new gotcha caf\\udce9" in text and "UnicodeEncodeError" in text
