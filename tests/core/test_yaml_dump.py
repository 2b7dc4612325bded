"""The YAML writer round-trips every string the registry can hold (import, intake and decisions
write registry files with it)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from orkestra.core import yamlio

#: what a registry text may hold: any character but NUL (an error) and lone surrogates
_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))


@settings(max_examples=300, deadline=None)
@given(value=_text, items=st.lists(_text, max_size=3))
def test_dumps_then_load_gives_the_same_strings(value: str, items: list[str]) -> None:
    data = {"description": value, "tools": items}
    text = yamlio.dumps(data)
    assert yamlio.loads(text, "x.yaml") == data


def test_yaml_line_breaks_are_escaped_not_folded(tmp_path: Path) -> None:
    for odd in ("0\x850", "a\u2028b", "a\u2029b", "tab\tand\x1bescape", "two\nlines\x85"):
        text = yamlio.dumps({"d": odd})
        assert "\x85" not in text and "\u2028" not in text
        path = tmp_path / "x.yaml"
        path.write_text(text, encoding="utf-8")
        assert yamlio.load_mapping(path, display="x.yaml")["d"] == odd
