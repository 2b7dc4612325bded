"""Frontmatter scalars: plain when YAML reads them back unchanged, else double-quoted."""

from __future__ import annotations

import pytest
import yaml

from orkestra.core import yamlio
from orkestra.render.text import yaml_flow, yaml_plain


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


FLOW_ITEMS = [
    "Read",
    "Read, Grep",
    "[x]",
    "{y}",
    "a]b",
    "yes",
    "1e3",
    "Bash(git commit: *)",
    "",
    "é",
]


@pytest.mark.parametrize("style", ["plain", "str"])
def test_yaml_flow_reads_back_as_the_same_list(style: str) -> None:
    written = yaml_flow(FLOW_ITEMS, style)
    assert "\n" not in written
    assert yaml.safe_load(f"k: {written}\n") == {"k": FLOW_ITEMS}
    assert yaml_flow([], style) == "[]"


def test_yaml_flow_writes_plain_items_as_yaml_plain_does() -> None:
    assert yaml_flow(["code-review", "yes"]) == '[code-review, "yes"]'
    assert yaml_flow(["code-review"], "str") == '["code-review"]'


def test_exactly_the_characters_yaml_refuses_or_breaks_lines_on_are_escaped() -> None:
    """YAML 1.1's printable set, less its line breaks U+0085, U+2028 and U+2029, passes as it
    is; every other code point is escaped (each one checked)."""
    from orkestra.render.text import _YAML_UNSAFE

    ranges = ((0x20, 0x7E), (0xA0, 0xD7FF), (0xE000, 0xFFFD), (0x10000, 0x10FFFF))
    allowed = {0x9, 0xA, 0xD}

    def plain(code: int) -> bool:
        inside = code in allowed or any(lo <= code <= hi for lo, hi in ranges)
        return inside and code not in (0x85, 0x2028, 0x2029)

    found = {c for c in range(0x110000) if _YAML_UNSAFE.search(chr(c)) is not None}
    assert found == {c for c in range(0x110000) if not plain(c)}
