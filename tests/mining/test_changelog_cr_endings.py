"""A hand-written CHANGELOG.md with classic Mac line endings (a bare CR, no LF anywhere): the
line numbers of `changelog render`'s refusals count its lines (they said line 1, the whole file
read as one LF line), and a managed block uses the file's own ending, never CRLF beside CR."""

from __future__ import annotations

from typing import Any

from orkestra.core import managed_block
from orkestra.mining.changelog_file import BEGIN, END, place
from tests.mining.gitrepo import GitRepo

CORE = "packages/core/CHANGELOG.md"
HAND = "# Changelog\r\rIntro line.\r\r## [0.1.0] - 2020-01-01\r\r### Added\r\r- Old thing.\r"


def _render(released: GitRepo, cli: Any, *extra: str) -> Any:
    args = ("changelog", "render", "--package", "core", *extra)
    return cli(*args, cwd=released.path)


def test_the_block_keeps_cr_endings_and_the_text_byte_for_byte(released: GitRepo, cli: Any) -> None:
    path = released.path / CORE
    path.write_bytes(HAND.encode())
    result = _render(released, cli, "--into-existing")
    assert result.exit_code == 0, result.stderr
    data = path.read_bytes()
    assert b"\n" not in data
    assert data.startswith(b"# Changelog\r\r" + BEGIN.encode() + b"\r")
    assert data.endswith(HAND.encode()[len("# Changelog\r") :])
    assert _render(released, cli).exit_code == 0 and path.read_bytes() == data  # idempotent


def test_a_lone_marker_is_named_at_its_line(released: GitRepo, cli: Any) -> None:
    path = released.path / CORE
    text = HAND + "\r" + END + "\r\rMore.\r"
    path.write_bytes(text.encode())
    result = _render(released, cli, "--into-existing")
    assert result.exit_code == 1
    assert f"{CORE}:11:" in result.stderr and "line 11 holds" in result.stderr, result.stderr
    assert path.read_bytes() == text.encode()


def test_an_edit_inside_the_block_is_named_at_its_line(released: GitRepo, cli: Any) -> None:
    path = released.path / CORE
    path.write_bytes(HAND.encode())
    assert _render(released, cli, "--into-existing").exit_code == 0
    lines = path.read_bytes().decode().split("\r")
    at = next(i for i, line in enumerate(lines) if line.startswith("- A widget"))
    lines[at] = "- A widget, polished by hand"
    edited = "\r".join(lines).encode()
    path.write_bytes(edited)
    result = _render(released, cli)
    assert result.exit_code == 1
    assert f"line {at + 1}: '- A widget, polished by hand'" in result.stderr, result.stderr
    assert path.read_bytes() == edited


def test_place_reads_cr_lines() -> None:
    placed = place(HAND + END + "\r", "# Changelog\n", "## [Unreleased]\n", into_existing=True)
    assert placed.action == "refuse" and placed.lone_marker == 10


def test_broken_markers_count_cr_lines() -> None:
    text = "# Notes\r\rSome text.\r<!-- orkestra:begin -->\r"
    line, _ = managed_block.broken(text, "<!-- orkestra:begin", "<!-- orkestra:end -->") or (0, "")
    assert line == 4
    crlf = text.replace("\r", "\r\n")
    assert managed_block.broken(crlf, "<!-- orkestra:begin", "<!-- orkestra:end -->")[0] == 4  # type: ignore[index]
