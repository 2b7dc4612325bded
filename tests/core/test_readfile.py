"""`core.readfile.read_regular`: a small file in one read, never more than the limit."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import readfile, yamlio
from orkestra.core.errors import InputError


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    asked: list[int] = []
    real = os.read

    def spy(fd: int, n: int) -> bytes:
        asked.append(n)
        return real(fd, n)

    monkeypatch.setattr(readfile.os, "read", spy)
    return asked


def test_a_small_file_is_read_whole_in_one_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(b"name: a\n")
    asked = _reads(monkeypatch)
    assert readfile.read_regular(path, max_bytes=100) == (b"name: a\n", 8)
    assert len(asked) == 1


@pytest.mark.parametrize("size", [0, 1 << 16, (1 << 18) + 3])
def test_a_file_of_any_size_under_the_limit_is_read_whole(tmp_path: Path, size: int) -> None:
    path = tmp_path / "big"
    data = os.urandom(size)
    path.write_bytes(data)
    assert readfile.read_regular(path, max_bytes=1 << 20) == (data, size)


def test_a_file_over_the_limit_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"x" * 500)
    asked = _reads(monkeypatch)
    assert readfile.read_regular(path, max_bytes=100) == (b"", 500)
    assert asked == []
    with pytest.raises(InputError, match="file is 500 bytes, over the 100-byte limit"):
        yamlio.read_text(path, max_bytes=100)


def test_a_file_grown_since_its_size_was_taken_is_read_no_further_than_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "growing.yaml"
    path.write_bytes(b"y" * 1000)
    real = os.fstat

    def small(fd: int) -> Any:
        st = real(fd)
        return os.stat_result((st.st_mode, *st[1:6], 10, *st[7:]))  # 10 bytes when looked at

    monkeypatch.setattr(readfile.os, "fstat", small)
    raw, size = readfile.read_regular(path, max_bytes=100)
    assert len(raw) == 101 and size == 101  # one byte past the limit: the caller refuses it
    with pytest.raises(InputError, match="over the 100-byte limit"):
        yamlio.read_text(path, max_bytes=100)


def test_a_folder_or_a_refused_symlink_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    with pytest.raises(IsADirectoryError):
        readfile.read_regular(tmp_path / "dir", max_bytes=100)
    (tmp_path / "real").write_bytes(b"x")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert readfile.read_regular(tmp_path / "link", max_bytes=100) == (b"x", 1)
    with pytest.raises(OSError):  # ELOOP: the link itself is refused
        readfile.read_regular(tmp_path / "link", max_bytes=100, follow=False)
