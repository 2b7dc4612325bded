"""`core.yamlmerge`: edits of a registry file the user wrote keep its comments, or are refused."""

from __future__ import annotations

import pytest

from orkestra.core import yamlio, yamlmerge
from orkestra.core.errors import InputError


def test_renamed_changes_only_the_changed_keys_whole_values() -> None:
    text = "# c\nid: A-1  # me\nnote: A-1 in prose\nrelated: [B-2, A-1]\nother:\n  - A-1\n"
    old = yamlio.loads(text, "r.yaml")
    new = {**old, "id": "A-9", "related": ["B-2", "A-9"]}
    out = yamlmerge.renamed(text, old, new, "r.yaml", "A-1", "A-9")
    assert out == text.replace("id: A-1", "id: A-9").replace("A-1]", "A-9]")


def test_an_edit_that_cannot_be_made_as_text_is_refused_in_a_file_with_comments() -> None:
    text = "id: A-1\nrelated: [B-2,\n  A-1]   # two lines\n"
    old = yamlio.loads(text, "r.yaml")
    new = {**old, "related": ["B-2", "A-9"]}
    with pytest.raises(InputError) as err:
        yamlmerge.renamed(text, old, new, "r.yaml", "A-1", "A-9")
    assert (err.value.file, err.value.line) == ("r.yaml", 3)
    assert "would lose its comments" in err.value.message
    plain = text.replace("   # two lines", "")
    assert yamlio.loads(yamlmerge.renamed(plain, old, new, "r.yaml", "A-1", "A-9"), "r") == new
    with pytest.raises(InputError):
        yamlmerge.updated(text, old, {**old, "related": ["B-2", "A-1", "C-3"]}, "r.yaml")


def test_a_hash_inside_quotes_is_no_comment() -> None:
    text = "tags: ['C#', \"F# x\"]\nlist: [a,\n  b]\n"
    old = yamlio.loads(text, "t.yaml")
    new = {**old, "list": ["a", "b", "c"]}
    assert yamlio.loads(yamlmerge.updated(text, old, new, "t.yaml"), "t") == new


def test_a_list_written_at_the_margin_is_added_to_as_text() -> None:
    """`statements:` then `- id: …` at the key's indentation (valid YAML, common by hand) was
    not seen as the key's block: the file was refused when it had comments."""
    text = "# truths\nstatements:\n- id: A\n  s: 1\n# the last one\n- id: B\nmetadata:\n  x: 1\n"
    old = yamlio.loads(text, "t.yaml")
    new = {**old, "statements": [*old["statements"], {"id": "C", "s": 3}]}
    out = yamlmerge.updated(text, old, new, "t.yaml")
    assert out == text.replace("- id: B\n", "- id: B\n- id: C\n  s: 3\n")


def test_a_crlf_file_gets_crlf_lines() -> None:
    """The lines added to a Windows file ended in LF: a file of mixed line endings."""
    text = "# tools\r\nbuiltin:\r\n  - Read\r\nid: A-1  # me\r\n"
    old = yamlio.loads(text, "t.yaml")
    out = yamlmerge.updated(text, old, {**old, "builtin": ["Read", "Grep"]}, "t.yaml")
    assert out == text.replace("  - Read\r\n", "  - Read\r\n  - Grep\r\n")
    out = yamlmerge.renamed(text, old, {**old, "id": "A-2"}, "t.yaml", "A-1", "A-2")
    assert out == text.replace("A-1", "A-2")


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_byte_order_mark_stays_first(newline: str) -> None:
    """A registry file a Windows editor saved starts with a byte-order mark: an edit kept as
    text, or the whole dump of a file without comments, starts with it too."""
    text = "\ufeff# tools\nbuiltin:\n  - Read\n".replace("\n", newline)
    old = yamlio.loads(text, "t.yaml")
    out = yamlmerge.updated(text, old, {**old, "builtin": ["Read", "Grep"]}, "t.yaml")
    assert out == text.replace(f"  - Read{newline}", f"  - Read{newline}  - Grep{newline}")
    plain = "\ufeffid: A-1\nrelated: [B-2,\n  A-1]\n"
    old = yamlio.loads(plain, "r.yaml")
    out = yamlmerge.renamed(plain, old, {**old, "related": ["B-2", "A-9"]}, "r.yaml", "A-1", "A-9")
    assert out.startswith("\ufeff") and out.count("\ufeff") == 1


def test_entries_set_replaces_removes_and_adds_entries_where_they_stand() -> None:
    text = (
        "# overlay\nprovider: acme\nskills:\n  # a: the data team's\n  a:\n    path: x/a\n"
        "    tags: [t]  # why\n\n  # b: old\n  b:\n    path: x/b\n  c:\n    path: x/c\n"
    )
    old = yamlio.loads(text, "o.yaml")
    skills = {"a": {"path": "x/a2", "tags": []}, "c": old["skills"]["c"], "d": {"path": "x/d"}}
    new = {**old, "skills": skills}
    out = yamlmerge.entries_set(text, old, new, "o.yaml", "skills")
    assert yamlio.loads(out, "o") == new
    assert out.startswith("# overlay\nprovider: acme\nskills:\n  # a: the data team's\n  a:\n")
    assert "  # b: old\n  c:\n    path: x/c\n  d:\n    path: x/d\n" in out
    crlf = text.replace("\n", "\r\n")
    assert yamlmerge.entries_set(crlf, old, new, "o.yaml", "skills") == out.replace("\n", "\r\n")


def test_entries_set_refuses_naming_the_first_comment_when_it_cannot_edit_as_text() -> None:
    text = "provider: acme  # ours\nskills: {a: {path: x/a}}\n"
    old = yamlio.loads(text, "o.yaml")
    with pytest.raises(InputError) as err:
        yamlmerge.entries_set(text, old, {**old, "skills": {}}, "o.yaml", "skills")
    assert (err.value.file, err.value.line) == ("o.yaml", 1)
    plain = text.replace("  # ours", "")
    out = yamlmerge.entries_set(plain, old, {**old, "skills": {}}, "o.yaml", "skills")
    assert yamlio.loads(out, "o") == {**old, "skills": {}}
