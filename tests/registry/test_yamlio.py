"""The safe YAML loader: every rejection is an InputError with the right file:line."""

from __future__ import annotations

from pathlib import Path

import pytest

from orkestra.core import yamlio
from orkestra.core.errors import InputError


def _err(text: str) -> InputError:
    with pytest.raises(InputError) as info:
        yamlio.loads(text, "reg.yaml")
    return info.value


def test_duplicate_key_points_at_second_occurrence() -> None:
    err = _err("name: a\ndescription: x\nname: b\n")
    assert (err.file, err.line) == ("reg.yaml", 3)
    assert "duplicate key 'name'" in err.message and "line 1" in err.message


def test_nested_duplicate_key() -> None:
    err = _err("outer:\n  a: 1\n  b: 2\n  a: 3\n")
    assert err.line == 4


def test_alias_and_anchor_rejected() -> None:
    err = _err("base: &b {x: 1}\nother: *b\n")
    assert err.line == 1 and "anchor" in err.message
    err = _err("a: 1\nb: [*x]\n")  # undefined alias is a syntax error with a line
    assert err.line == 2


def test_anchor_like_text_in_strings_is_fine() -> None:
    data = yamlio.loads("prompt: |\n  use &mut x and *ptr\nq: 'R&D *'\n", "reg.yaml")
    assert data["prompt"] == "use &mut x and *ptr\n"


def test_python_object_tag_rejected() -> None:
    err = _err("a: 1\nb: !!python/object/apply:os.system ['echo hi']\n")
    assert err.line == 2 and "tag" in err.message


def test_tab_indentation_is_explained() -> None:
    err = _err("a:\n\tb: 1\n")
    assert err.line == 2 and "tabs" in err.message


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("targets: [claude, codex\nrender: {}\n", 2),  # an unclosed bracket, met on line 2
        ('name: "unclosed\ndescription: x\n', 3),  # an unclosed quote
        ("name: a\n  description: b\n", 2),  # the indentation
        ("description: Use it: when asked\n", 1),  # ': ' in an unquoted value
    ],
)
def test_a_syntax_error_says_what_to_fix(text: str, line: int) -> None:
    """PyYAML says only what it expected ("did not find expected ',' or ']'"); every bad input
    gets an error naming the file, the line and what to do."""
    err = _err(text)
    assert err.line == line and err.message.endswith(yamlio.SYNTAX_FIX), err.message
    assert "quote" in yamlio.SYNTAX_FIX and "indentation" in yamlio.SYNTAX_FIX


def test_dates_stay_strings() -> None:
    assert yamlio.loads("d: 2026-01-26\n", "x")["d"] == "2026-01-26"


def test_lines_are_tracked() -> None:
    data = yamlio.loads("a: 1\nb:\n  - x\n  - y: 2\n", "x")
    assert yamlio.line_of(data, ("b", 1, "y")) == 4
    assert yamlio.line_of(data, ("b", 0)) == 3
    assert yamlio.line_of(data, ("missing",)) == 1


def test_non_mapping_root(tmp_path: Path) -> None:
    path = tmp_path / "list.yaml"
    path.write_text("- a\n- b\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        yamlio.load_mapping(path, display="list.yaml")
    assert info.value.line == 1 and "expected a mapping" in info.value.message
    assert "root is a list" in info.value.message


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "e.yaml"
    path.write_text("", encoding="utf-8")
    with pytest.raises(InputError, match="empty"):
        yamlio.load_mapping(path)
    assert yamlio.load_mapping(path, allow_empty=True) == {}


def test_invalid_utf8_reports_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(InputError) as info:
        yamlio.load_mapping(path, display="bad.yaml")
    assert info.value.line == 2 and "UTF-8" in info.value.message


def test_binary_and_oversized(tmp_path: Path) -> None:
    binary = tmp_path / "b.yaml"
    binary.write_bytes(b"\x00\x01\x02")
    with pytest.raises(InputError, match="binary"):
        yamlio.load_mapping(binary)
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * 100 + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="limit"):
        yamlio.read_text(big, max_bytes=50)


def test_dumps_round_trips() -> None:
    data = {"b": "multi\nline\n", "a": [1, {"k": "v"}], "d": "2026-01-01"}
    assert yamlio.loads(yamlio.dumps(data), "x") == data


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("a: !!int x\n", "not a valid"),
        ("a: !!float x\n", "not a valid"),
        ("a: !!bool maybe\n", "not a valid"),
        ("a: !!map [x]\n", "does not fit this list"),
        ("a: !!seq {x: 1}\n", "does not fit this mapping"),
        ("a: !!str [x]\n", "does not fit this list"),
        ("a: !!int [1]\n", "does not fit this list"),
    ],
)
def test_explicit_tag_on_the_wrong_value_is_a_clean_error(text: str, words: str) -> None:
    err = _err(text)
    assert err.line == 1 and words in err.message


def test_explicit_tags_that_fit_still_load() -> None:
    assert yamlio.loads("a: !!int 5\nb: !!str 5\nc: !!map {x: 1}\nd: !!seq [1]\n", "r") == {
        "a": 5,
        "b": "5",
        "c": {"x": 1},
        "d": [1],
    }


@pytest.mark.parametrize(
    "text", ["a: " + "[" * 3000 + "]" * 3000, "a: " + "{b: " * 3000 + "}" * 3000]
)
def test_deep_nesting_is_a_clean_error(text: str) -> None:
    err = _err(text)
    # Python's recursion limit or libyaml's own depth limit, whichever comes first: both clean
    assert err.file == "reg.yaml"
    assert "nested too deeply" in err.message or "nesting depth" in err.message


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("a: 1\nb:\n  c: " + "[" * 500 + "]" * 500 + "\n", 3),  # too deep for the recursion
        ("a: 1\nb:\n  c: " + "[" * 80 + "]" * 80 + "\n", 3),  # within it, over the limit
        ("x: 1\n" + "".join("  " * i + f"k{i}:\n" for i in range(70)) + "  " * 70 + "v: 1\n", 66),
    ],
    ids=["flow-500", "flow-80", "block-70"],
)
def test_deep_nesting_names_the_line_where_it_went_too_deep(text: str, line: int) -> None:
    err = _err(text)
    assert (err.file, err.line) == ("reg.yaml", line)
    assert err.message == "YAML nested deeper than 64 levels; flatten the structure"


def test_nesting_at_the_limit_loads_and_one_more_does_not() -> None:
    depth = yamlio.MAX_DEPTH  # the root mapping is level 1
    ok = "a: " + "[" * (depth - 1) + "]" * (depth - 1) + "\n"
    assert yamlio.loads(ok, "reg.yaml")["a"] is not None
    assert _err("a: " + "[" * depth + "]" * depth + "\n").line == 1


def test_the_fallback_for_a_recursing_composer_also_finds_the_line() -> None:
    # without libyaml the composer recurses first; the iterative event scan names the line
    text = "a: 1\n\nb: " + "[" * 200 + "]" * 200 + "\n"
    assert yamlio._deep_line(text) == 3
    assert yamlio._deep_line("a: [1]\n") is None


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('name: a\nprompt: "\\0"\n', 2),
        ('name: a\nlist:\n  - ok\n  - "x\\0y"\n', 4),
        ('name: a\n"k\\0": v\n', 2),
        ('name: a\nbody: |\n  fine\nz: "\\x00"\n', 4),
    ],
    ids=["value", "list-item", "key", "hex-escape"],
)
def test_a_nul_in_yaml_text_is_an_error_with_its_line(text: str, line: int) -> None:
    err = _err(text)
    assert (err.file, err.line) == ("reg.yaml", line)
    assert "NUL" in err.message
