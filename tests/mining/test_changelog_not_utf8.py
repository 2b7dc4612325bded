"""`changelog render` on a hand-written CHANGELOG.md that is not UTF-8 (an old Latin-1 file, or
UTF-16 as Windows PowerShell writes it): refused, nothing written, naming the line of the first
byte that is not UTF-8 (UTF-16: line 1, said as such) and what to do. It said only "is not UTF-8
text", without a line or a way out."""

from __future__ import annotations

from typing import Any

import pytest

from tests.mining.gitrepo import GitRepo

LATIN = "# Changelog\n\n## 1.0.0\n\n- Résumé export\n".encode("latin-1")
UTF16 = "# Changelog\r\n\r\n## 1.0.0\r\n".encode("utf-16")


@pytest.mark.parametrize(
    ("raw", "where", "says"),
    [(LATIN, ":5:", "save it as UTF-8"), (UTF16, ":1:", "UTF-16")],
    ids=["latin-1", "utf-16"],
)
def test_a_changelog_that_is_not_utf8_is_refused_at_its_line(
    released: GitRepo, cli: Any, raw: bytes, where: str, says: str
) -> None:
    path = released.path / "packages/core/CHANGELOG.md"
    path.write_bytes(raw)
    for extra in ((), ("--into-existing",), ("--check",), ("--dry-run",)):
        args = ("changelog", "render", "--package", "core", *extra)
        result = cli(*args, cwd=released.path)
        assert result.exit_code == 1, result.stdout
        assert f"packages/core/CHANGELOG.md{where}" in result.stderr, result.stderr
        assert says in result.stderr and "save it as UTF-8" in result.stderr
    assert path.read_bytes() == raw
