"""Frontmatter scalars: plain when YAML reads them back unchanged, else double-quoted."""

from __future__ import annotations

import pytest
import yaml

from orkestra.core import yamlio
from orkestra.render.text import yaml_plain


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("Read, Grep", "Read, Grep"),
        ("gpt-4.1", "gpt-4.1"),
        ("Bash(git commit: *)", '"Bash(git commit: *)"'),  # `: ` would open a mapping
        ("2025-01-01", '"2025-01-01"'),  # standard YAML reads a date
        ("1.5", '"1.5"'),  # a number
        ("yes", '"yes"'),  # a boolean
        ("a #b", '"a #b"'),  # a comment
        ("*", '"*"'),  # an alias: not YAML at all
        ("", '""'),
    ],
)
def test_yaml_plain(value: str, written: str) -> None:
    assert yaml_plain(value) == written
    assert yaml.safe_load(f"k: {written}\n") == {"k": value}


def test_reads_back_plain_is_standard_yaml() -> None:
    assert yamlio.reads_back_plain("Read")
    assert not yamlio.reads_back_plain("2025-01-01")
    assert not yamlio.reads_back_plain("[a")
