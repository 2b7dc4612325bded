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


@pytest.mark.parametrize("indent", ["  ", "    ", "\t"[:0]])
def test_set_fields_keeps_a_frontmatter_indented_as_a_whole_valid(indent: str) -> None:
    """A frontmatter whose keys are all indented (valid YAML) got `confidence: observed` added
    unindented below its own indented `confidence: verified`: the note no longer parsed, and
    `notes check` demoted it again on every run."""
    from orkestra.knowledge import edit, meta

    text = (
        f"---\n{indent}type: glossary\n{indent}title: Indented\n{indent}confidence: verified"
        f'  # Ana\n{indent}verified_at:\n{indent}  "2020-01-01"\n---\nBody\n'
    )
    new = edit.set_fields(
        text, {"confidence": "observed", "verified_at": "2026-06-01", "updated": "2026-06-01"}
    )
    doc = meta.parse(new, "n.md")
    assert doc.values["confidence"] == "observed" and doc.values["updated"] == "2026-06-01"
    assert doc.values["verified_at"] == "2026-06-01" and doc.body == "Body\n"
    assert f"{indent}confidence: observed  # Ana\n" in new
