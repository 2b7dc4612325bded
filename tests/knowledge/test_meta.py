"""A note's frontmatter means what YAML says, whichever way it is written."""

from __future__ import annotations

import pytest

from orkestra.core import frontmatter
from orkestra.core.errors import InputError
from orkestra.knowledge import meta


@pytest.mark.parametrize(
    "head",
    [
        'title: "T"\nversions: [1e3]\n',  # YAML reads 1e3 as a string; JSON as a number
        'title: "T"\nflag: "yes"\nlevel: high\n',
        "title: T\ntags:\n  - a\n  - b\n",
    ],
)
def test_frontmatter_is_read_by_the_yaml_reader(head: str) -> None:
    text = f"---\n{head}---\nbody\n"
    got = meta.parse(text, "n.md")
    doc = frontmatter.parse(text, "n.md")
    assert got.values == dict(doc.meta)
    assert got.key_lines == doc.meta.key_lines
    assert (got.body, got.body_line) == ("body\n", doc.body_line)


def test_item_lines_point_at_each_list_item() -> None:
    got = meta.parse("---\ntitle: T\ntags:\n  - a\n  - b\n---\n", "n.md")
    assert got.item_lines == {"tags": [4, 5]}


def test_a_note_without_frontmatter_names_its_file_and_line() -> None:
    with pytest.raises(InputError, match="no frontmatter") as info:
        meta.parse("# just a body\n", "knowledge/n.md")
    assert (info.value.file, info.value.line) == ("knowledge/n.md", 1)
