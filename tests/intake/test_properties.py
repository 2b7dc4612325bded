"""Properties: no input text makes the spec check or the scanners crash."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from orkestra.intake import spec
from orkestra.intake.rules import default_rules, escape_invisible
from orkestra.intake.scan import scan_text
from orkestra.intake.unicode import scan_invisible

PIECES = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["---\n", "name: ", "description: ", "\n", ":", "[", "\u202e", "\U000e0041"]),
)
TEXT = st.lists(PIECES, max_size=30).map("".join)


@settings(max_examples=150, deadline=None)
@given(TEXT)
def test_spec_check_never_raises(text: str) -> None:
    result = spec.check(text, "folder")
    assert isinstance(result.valid, bool)


@settings(max_examples=150, deadline=None)
@given(TEXT)
def test_scanners_never_raise_and_excerpts_are_visible(text: str) -> None:
    rules = default_rules()
    for finding in scan_text(rules, "doc", "f.md", text) + scan_invisible(rules, "f.md", text):
        assert finding.line >= 1
        assert escape_invisible(finding.excerpt) == finding.excerpt
