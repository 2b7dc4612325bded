"""`changelog render --into-existing` on a hand-written CHANGELOG.md that opens with an HTML
comment spanning several lines (a maintainer note, a markdownlint block) before its title: the
managed block goes after the title, as after a one-line comment (§6.7 "after the title"); it was
put at the very top of the file, above the comment and the title."""

from __future__ import annotations

from typing import Any

from orkestra.mining.changelog_file import BEGIN, place
from tests.mining.gitrepo import GitRepo

HEAD = "<!--\n  Maintained by hand until 2026.\n  markdownlint-disable MD024\n-->\n\n# Changelog\n"
HAND = HEAD + "\n## 1.0.0 - 2025-01-01\n\n- Hand-written entry\n"
BODY = "## [Unreleased]\n\n### Added\n\n- A widget (abc1234)\n"


def test_the_block_goes_after_a_title_under_a_multi_line_comment() -> None:
    placed = place(HAND, "# Changelog\n\nheader\n", BODY, into_existing=True)
    assert placed.text is not None
    assert placed.text.startswith(HEAD + "\n" + BEGIN)
    assert placed.text.endswith(HAND[len(HEAD) :])


def test_an_unclosed_comment_is_no_comment() -> None:
    text = "<!-- a stray opener\n# Changelog\n\n- x\n"
    placed = place(text, "# Changelog\n\nheader\n", BODY, into_existing=True)
    assert placed.text is not None and placed.text.endswith(text)


def test_render_into_existing_keeps_the_comment_and_title_on_top(
    released: GitRepo, cli: Any
) -> None:
    path = released.path / "packages/core/CHANGELOG.md"
    path.write_text(HAND, encoding="utf-8")
    args = ("changelog", "render", "--package", "core", "--into-existing")
    assert cli(*args, cwd=released.path).exit_code == 0
    text = path.read_text(encoding="utf-8")
    assert text.startswith(HEAD + "\n" + BEGIN) and text.endswith(HAND[len(HEAD) :])
    first = path.read_bytes()
    assert cli(*args, cwd=released.path).exit_code == 0
    assert path.read_bytes() == first
