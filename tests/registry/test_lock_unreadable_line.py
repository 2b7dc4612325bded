"""A render lock that does not parse (a merge left conflict markers in it) is reported at its
line, relative to the project, as every other finding is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.registry.render_lock import LOCK_PATH


def test_a_lock_with_conflict_markers_is_an_error_at_its_line(tmp_path: Path, cli: Any) -> None:
    root = tmp_path / "proj"
    assert cli("init", str(root)).exit_code == 0
    assert cli("sync", cwd=root).exit_code == 0
    lock = root / LOCK_PATH
    lines = lock.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(3, "<<<<<<< HEAD\n")
    lock.write_text("".join(lines), encoding="utf-8")
    result = cli("validate", "--format", "json", cwd=root)
    assert result.exit_code == 1
    (found,) = result.json()["findings"]
    assert (found["file"], found["line"], found["code"]) == (LOCK_PATH, 4, "ORK001")
    assert str(root) not in found["message"]
    assert "delete the lock and run `orkestra sync` again" in found["message"]
