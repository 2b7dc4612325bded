"""The spec check on its own: keys, names, descriptions, the reference parser's quirks."""

from __future__ import annotations

from orkestra.intake import spec

D = "Tidy documents. Use when the user asks."


def test_valid_minimal() -> None:
    result = spec.check(f"---\nname: tidy\ndescription: {D}\n---\nbody\n", "tidy")
    assert result.valid and result.to_dict()["errors"] == []


def test_claude_code_extension_keys_reported_as_such() -> None:
    text = f"---\nname: tidy\ndescription: {D}\nargument-hint: x\nmodel: opus\ncategory: y\n---\n"
    result = spec.check(text, "tidy")
    assert not result.valid
    assert result.extension_keys == ["argument-hint", "model"]
    assert "argument-hint (Claude Code extension)" in result.errors[0]
    assert "category" in result.errors[0]
    assert not result.only_extension_keys  # `category` is not a Claude Code key


def test_only_extension_keys_flag() -> None:
    result = spec.check(f"---\nname: tidy\ndescription: {D}\nuser-invocable: true\n---\n", "tidy")
    assert result.only_extension_keys


def test_bom_fails_like_the_reference() -> None:
    result = spec.check(f"\ufeff---\nname: tidy\ndescription: {D}\n---\n", "tidy")
    assert result.errors == ["SKILL.md must start with YAML frontmatter (---)"]


def test_flow_style_is_refused() -> None:
    result = spec.check(f"---\nname: tidy\ndescription: {D}\nmetadata: {{a: b}}\n---\n", "tidy")
    assert "flow collections" in result.errors[0] and "line 4" in result.errors[0]


def test_scalars_read_as_written() -> None:
    result = spec.check("---\nname: tidy\ndescription: yes\n---\n", "tidy")
    assert result.valid and result.meta["description"] == "yes"


def test_name_rules() -> None:
    assert "must be lowercase" in " ".join(
        spec.check(f"---\nname: Tidy\ndescription: {D}\n---\n", "Tidy").errors
    )
    errs = spec.check(f"---\nname: -a--b-\ndescription: {D}\n---\n", "-a--b-").errors
    assert "Skill name cannot start or end with a hyphen" in errs
    assert "Skill name cannot contain consecutive hyphens" in errs
    mismatch = spec.check(f"---\nname: a\ndescription: {D}\n---\n", "b").errors
    assert mismatch == ["Directory name 'b' must match skill name 'a'"]
    long_name = "a" * 65
    assert (
        "exceeds 64"
        in spec.check(f"---\nname: {long_name}\ndescription: {D}\n---\n", long_name).errors[0]
    )


def test_description_limit() -> None:
    text = f'---\nname: t\ndescription: "{"x" * 1025}"\n---\n'
    assert spec.check(text, "t").errors == ["Description exceeds 1024 character limit (1025 chars)"]


def test_body_length_is_a_warning() -> None:
    body = "line\n" * 600
    result = spec.check(f"---\nname: t\ndescription: {D}\n---\n{body}", "t", body_max_lines=500)
    assert result.valid and "600 lines" in result.warnings[0]


def test_yaml_error_names_the_line() -> None:
    result = spec.check(f"---\nname: t\ndescription: Note: {D}\n---\n", "t")
    assert result.errors[0].startswith("Invalid YAML in frontmatter: line 3:")


def test_flow_like_text_inside_a_block_scalar_is_text() -> None:
    text = f"---\nname: t\ndescription: |\n  {D}\n  see: [the guide]\nlicense: MIT\n---\n"
    assert spec.check(text, "t").valid
