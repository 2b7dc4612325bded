"""Conventional Commits 1.0.0 parsing, rule by rule."""

from __future__ import annotations

import pytest

from orkestra.mining.conventional import parse, split_footers


@pytest.mark.parametrize(
    ("subject", "kind", "scope", "breaking", "desc"),
    [
        ("feat: add x", "feat", None, False, "add x"),
        ("fix(parser): handle y", "fix", "parser", False, "handle y"),
        ("FEAT: shout", "feat", None, False, "shout"),  # type is case-insensitive
        ("Fix(Api): mixed", "fix", "Api", False, "mixed"),
        ("feat!: drop z", "feat", None, True, "drop z"),
        ("feat(api)!: drop z", "feat", "api", True, "drop z"),
        ("my-type: hyphenated type", "my-type", None, False, "hyphenated type"),
        ("feat(a b): scope with space", "feat", "a b", False, "scope with space"),
    ],
)
def test_header(subject: str, kind: str, scope: str | None, breaking: bool, desc: str) -> None:
    parsed = parse(subject)
    assert (parsed.type, parsed.scope, parsed.breaking, parsed.description) == (
        kind,
        scope,
        breaking,
        desc,
    )
    assert parsed.conventional


@pytest.mark.parametrize(
    "subject",
    [
        "feat:no space",  # the terminal colon must be followed by a space
        "feat : spaced colon",
        "feat(): empty scope",
        "feat(x: unclosed",
        "feat: ",  # a description is required
        "Update dependencies",
        "Merge branch 'main'",
        "1feat: digits first",
        "feat!!: two bangs",
    ],
)
def test_not_conventional(subject: str) -> None:
    parsed = parse(subject)
    assert parsed.type is None
    assert not parsed.conventional


def test_breaking_change_footer() -> None:
    assert parse("feat: x", "BREAKING CHANGE: the API moved").breaking
    assert parse("feat: x", "Some prose.\n\nBREAKING-CHANGE: synonym").breaking


def test_breaking_change_must_be_upper_case() -> None:
    assert not parse("feat: x", "breaking change: lower").breaking
    assert not parse("feat: x", "Breaking-Change: mixed").breaking


def test_breaking_footer_inside_prose_is_not_a_footer() -> None:
    # a footer needs a blank line before it; in the middle of a paragraph it is prose
    assert not parse("feat: x", "We talk about it.\nBREAKING CHANGE: not a footer\nMore.").breaking


def test_multi_paragraph_body_and_footers() -> None:
    body = (
        "First paragraph\nwraps.\n\nNote: this looks like a footer but prose follows.\n\n"
        "Third paragraph.\n\nReviewed-by: Z\nRefs #123\nAcked-by: Someone\n  continued value"
    )
    parsed = parse("fix(core): y", body)
    assert parsed.body.startswith("First paragraph\nwraps.")
    assert parsed.body.endswith("Third paragraph.")
    assert parsed.footers == [
        ("Reviewed-by", "Z"),
        ("Refs", "123"),
        ("Acked-by", "Someone\n  continued value"),
    ]


def test_footer_value_spans_paragraphs_until_next_token() -> None:
    prose, footers = split_footers("BREAKING CHANGE: gone\n\nexplained here\n\nRefs: #4")
    assert prose == ""
    assert footers == [("BREAKING CHANGE", "gone\n\nexplained here"), ("Refs", "#4")]


def test_footer_separators() -> None:
    _, footers = split_footers("Closes #12\nSigned-off-by: A <a@x>")
    assert footers == [("Closes", "12"), ("Signed-off-by", "A <a@x>")]
    # `Token:value` without a space is not a footer
    assert split_footers("Token:value") == ("Token:value", [])


def test_git_revert() -> None:
    sha = "0123456789abcdef0123456789abcdef01234567"
    parsed = parse('Revert "feat: add x"', f"This reverts commit {sha}.")
    assert parsed.type == "revert"
    assert parsed.reverts == (sha,)
    assert parsed.description == "feat: add x"
    conventional = parse("revert: add x", "Refs: 0123456")
    assert (conventional.type, conventional.reverts) == ("revert", ("0123456",))


def test_a_crlf_message_reads_like_an_lf_one() -> None:
    # a message written with CRLF (libgit2, JGit or a Windows tool, `--cleanup=verbatim`) keeps
    # its carriage returns in git's `%b`: its blank lines still separate paragraphs and footers
    body = "Some prose.\r\n\r\nBREAKING CHANGE: the API moved\r\nRefs: #12\r"
    parsed = parse("feat(api): x", body)
    assert parsed.breaking
    assert parsed.body == "Some prose."
    assert parsed.footers == [("BREAKING CHANGE", "the API moved"), ("Refs", "#12")]
    sha = "0123456789abcdef0123456789abcdef01234567"
    assert parse('Revert "feat: x"', f"This reverts commit {sha}.\r").reverts == (sha,)
