"""A CHANGELOG.md whose managed block lost one of its markers (a hand edit deleted the end
marker, or changed the begin one): `changelog render` refuses and nothing is written (§13), and
the message names the line of the marker that is left and what to do. It said "Run `orkestra
changelog render --into-existing`", the command that had just been refused, with no line."""

from __future__ import annotations

from typing import Any

from orkestra.mining.changelog_file import END
from tests.mining.gitrepo import GitRepo

CORE = "packages/core/CHANGELOG.md"
HAND = "# Changelog\n\n## 0.9.0\n\n- Hand-written entry\n"


def _rendered(released: GitRepo, cli: Any) -> str:
    (released.path / CORE).write_text(HAND, encoding="utf-8")
    args = ("changelog", "render", "--package", "core", "--into-existing")
    assert cli(*args, cwd=released.path).exit_code == 0
    return (released.path / CORE).read_text(encoding="utf-8")


def test_a_lost_end_marker_names_the_begin_line(released: GitRepo, cli: Any) -> None:
    text = _rendered(released, cli).replace(END + "\n", "")
    (released.path / CORE).write_text(text, encoding="utf-8")
    result = cli("changelog", "render", "--package", "core", "--into-existing", cwd=released.path)
    assert result.exit_code == 1
    assert f"{CORE}:3" in result.stderr, result.stderr  # the begin marker, under the title
    assert "no end marker" in result.stderr and END in result.stderr
    assert "render --into-existing` to keep" not in result.stderr
    assert (released.path / CORE).read_text(encoding="utf-8") == text


def test_a_lost_begin_marker_names_the_end_line(released: GitRepo, cli: Any) -> None:
    old = _rendered(released, cli)
    text = old.replace("orkestra:changelog:begin", "orkestra:changelog:begun")
    (released.path / CORE).write_text(text, encoding="utf-8")
    result = cli("changelog", "render", "--package", "core", cwd=released.path)
    assert result.exit_code == 1
    number = text.split("\n").index(END) + 1
    assert f"{CORE}:{number}" in result.stderr, result.stderr
    assert "no begin marker" in result.stderr
    assert (released.path / CORE).read_text(encoding="utf-8") == text
