"""`changelog render --into-existing` on a hand-written CHANGELOG.md whose title is followed by an
HTML comment (`<!-- markdownlint-disable MD024 -->` under a setext or `# ` title, with or
without a blank line between, or a note over several lines): the comment belongs to the title
and stays under it, and the managed block goes after it. The block went between the title and
the comment, so markdownlint's directive no longer covered the block's repeated `### Added`."""

from __future__ import annotations

from typing import Any

import pytest

from orkestra.mining.changelog_file import BEGIN, place
from tests.mining.gitrepo import GitRepo

LINT = "<!-- markdownlint-disable MD024 -->"
BODY = "## [Unreleased]\n\n### Added\n\n- A widget (abc1234)\n"
REST = "\nAll notable changes to this project are documented here.\n\n## 1.0.0\n\n- old\n"
HEADS = {
    "setext": f"Changelog\n=========\n{LINT}\n",
    "setext-blank": f"Changelog\n=========\n\n{LINT}\n",
    "atx": f"# Changelog\n{LINT}\n",
    "atx-two-comments": f"# Changelog\n\n{LINT}\n<!-- prettier-ignore-start -->\n",
    "atx-multi-line": "# Changelog\n\n<!--\n  markdownlint-disable MD024\n-->\n",
    "front-matter": f"---\ntitle: Changelog\n---\n\nChangelog\n=========\n{LINT}\n",
}


@pytest.mark.parametrize("head", list(HEADS.values()), ids=list(HEADS))
@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_the_block_goes_after_the_comment_under_the_title(head: str, newline: str) -> None:
    hand = (head + REST).replace("\n", newline)
    placed = place(hand, "# Changelog\n\nheader\n", BODY, into_existing=True)
    assert placed.text is not None
    top = head.replace("\n", newline)
    assert placed.text.startswith(top + newline + BEGIN)
    assert placed.text.endswith(REST.replace("\n", newline))


def test_text_after_the_title_is_not_skipped() -> None:
    hand = f"# Changelog\n\nAll notable changes.\n{LINT}\n\n## 1.0.0\n"
    placed = place(hand, "# Changelog\n\nheader\n", BODY, into_existing=True)
    assert placed.text is not None and placed.text.startswith("# Changelog\n\n" + BEGIN)


def test_render_into_existing_keeps_the_comment_under_a_setext_title(
    released: GitRepo, cli: Any
) -> None:
    path = released.path / "packages/core/CHANGELOG.md"
    head = HEADS["setext"]
    path.write_text(head + REST, encoding="utf-8")
    args = ("changelog", "render", "--package", "core", "--into-existing")
    assert cli(*args, cwd=released.path).exit_code == 0
    text = path.read_text(encoding="utf-8")
    assert text.startswith(head + "\n" + BEGIN) and text.endswith(REST)
    first = path.read_bytes()
    assert cli(*args, cwd=released.path).exit_code == 0
    assert path.read_bytes() == first
