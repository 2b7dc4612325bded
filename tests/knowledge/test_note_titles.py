"""A note's file name comes from its title: ASCII words, accents folded; a title that cannot name
a file, or that spans lines, is refused with what to do (exit 2, nothing written)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import UsageError
from orkestra.knowledge.service import slug


def test_accents_fold_into_the_file_name() -> None:
    assert slug("Café crème") == "cafe-creme"
    assert slug("Straße 2") == "strae-2"  # ß has no ASCII decomposition: dropped
    assert slug("nihongo 日本語") == "nihongo"


@pytest.mark.parametrize("title", ["日本語", "—", "🙂"])
def test_a_title_without_ascii_words_says_what_to_add(title: str) -> None:
    with pytest.raises(UsageError, match=r"no ASCII letters or digits.*add a word in ASCII"):
        slug(title)


@pytest.mark.parametrize("title", ["Two\nlines", "tab\there", "zero\u200bwidth", "line\u2028sep"])
def test_a_title_on_several_lines_or_with_controls_is_refused(title: str) -> None:
    with pytest.raises(UsageError, match="write the title on one line"):
        slug(title)


def test_the_cli_refuses_and_writes_nothing(project: Path, cli: Any) -> None:
    result = cli("notes", "new", "glossary", "Two\nlines", cwd=project)
    assert result.exit_code == 2
    assert "one line" in result.stderr
    assert not list((project / "knowledge").rglob("two-lines.md"))
