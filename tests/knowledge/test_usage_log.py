"""The usage log: absent is empty, torn lines are skipped, unreadable is an error naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from orkestra.core.errors import InputError
from orkestra.knowledge import usage


def test_absent_log_is_empty(tmp_path: Path) -> None:
    assert usage.read(tmp_path) == []


def test_a_torn_line_is_skipped(tmp_path: Path) -> None:
    (tmp_path / usage.USAGE_FILE).write_text(
        '{"path": "a.md", "ts": "2026-01-01"}\n{"path": "b.m\n', encoding="utf-8"
    )
    assert usage.read(tmp_path) == [{"path": "a.md", "ts": "2026-01-01"}]


def test_an_unreadable_log_is_an_error(tmp_path: Path) -> None:
    (tmp_path / usage.USAGE_FILE).mkdir()  # reading a folder fails with an OSError
    with pytest.raises(InputError, match="cannot read the usage log") as info:
        usage.read(tmp_path)
    assert info.value.file == str(tmp_path / usage.USAGE_FILE)
