"""The fast tag resolver gives the same tags as PyYAML's SafeLoader for any scalar."""

from __future__ import annotations

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from orkestra.core import yamlio

SCALARS = st.one_of(
    st.sampled_from(
        [
            "yes",
            "No",
            "on",
            "OFF",
            "~",
            "null",
            "1",
            "-3",
            "+1",
            "0x1F",
            "1_000",
            ".inf",
            "-.NaN",
            "2026-01-01",
            "2026-01-01 10:00:00",
            "1.5e3",
            "Read",
            "true",
            "y",
            "",
            "<<",
        ]
    ),
    st.text(alphabet="0123456789.-+:eEx_ abcnoyTtFfNu~<", min_size=1, max_size=12),
)


def _tags(text: str, loader: type) -> list[str]:
    node = yaml.compose(text, Loader=loader)
    return [value.tag for _key, value in node.value] if node is not None else []


@settings(max_examples=300, deadline=None)
@given(SCALARS)
def test_same_tags_as_safe_loader(scalar: str) -> None:
    text = f"plain: {scalar}\nquoted: '{scalar.replace(chr(39), chr(39) * 2)}'\n"
    try:
        expected = _tags(text, yaml.SafeLoader)
    except yaml.YAMLError:
        return  # not a valid document either way
    assert _tags(text, yamlio._FastLoader) == expected


def test_typed_scalars_still_typed() -> None:
    data = yamlio.loads("a: yes\nb: 1\nc: 1.5\nd: ~\ne: 'yes'\nf: Read\ng: 2026-01-01\n", "x")
    assert data == {
        "a": True,
        "b": 1,
        "c": 1.5,
        "d": None,
        "e": "yes",
        "f": "Read",
        "g": "2026-01-01",
    }
