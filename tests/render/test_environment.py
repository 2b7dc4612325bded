"""The Jinja environment: sandboxed, strict, project templates first, errors with file:line."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from orkestra.core.errors import InputError
from orkestra.render import text
from orkestra.render.environment import Templates
from orkestra.render.template_paths import bundled_templates
from tests.conftest import write


def test_bundled_templates_are_found() -> None:
    assert (bundled_templates() / "claude/agent.md.j2").is_file()


def test_project_templates_override_bundled_ones(tmp_path: Path) -> None:
    write(tmp_path, "templates/claude/command.md.j2", "custom {{ name }}\n")
    rendered = Templates(tmp_path).render("claude/command.md.j2", {"name": "x"})
    assert rendered == text.with_mark(
        "custom x\n", name="command x"
    )  # a whole file: Orkestra's mark goes first
    # templates it does not override still come from the bundle
    assert (
        Templates(tmp_path).get("claude/skill.md.j2").filename.startswith(str(bundled_templates()))
    )


@pytest.mark.parametrize(
    "statement", ['{% set _ = tools.append("Write") %}', "{% set _ = extra.update(a=1) %}"]
)
def test_a_template_cannot_change_its_context(tmp_path: Path, statement: str) -> None:
    """Its text is a function of its context alone (the render cache and the agent contexts
    kept for the next sync rely on it): changing a list or mapping it was given is an error
    naming the template and the line, and the context is left as it was."""
    write(tmp_path, "templates/claude/command.md.j2", f"one\n{statement}\n{{{{ tools }}}}\n")
    context = {"tools": ["Read"], "extra": {}}
    with pytest.raises(InputError) as err:
        Templates(tmp_path).render("claude/command.md.j2", context)
    assert err.value.file == "templates/claude/command.md.j2"  # the project's, by its path there
    assert err.value.line == 2 and "unsafe" in err.value.message
    assert "build a new one" in err.value.message  # and how to do without
    assert context == {"tools": ["Read"], "extra": {}}


def test_a_list_the_template_built_cannot_be_appended_to_either(tmp_path: Path) -> None:
    write(tmp_path, "templates/claude/command.md.j2", "{% set l = [] %}{% set _ = l.append(1) %}")
    with pytest.raises(InputError, match="build a new one"):
        Templates(tmp_path).render("claude/command.md.j2", {})
    write(tmp_path, "templates/claude/skill.md.j2", "{% set l = [] %}{% set l = l + [1] %}{{ l }}")
    assert Templates(tmp_path).render("claude/skill.md.j2", {}) == text.with_mark("[1]\n")


def test_a_template_may_still_gather_in_a_namespace(tmp_path: Path) -> None:
    text_ = "{% set ns = namespace(n=0) %}{% for t in tools %}{% set ns.n = ns.n + 1 %}{% endfor %}"
    write(tmp_path, "templates/claude/command.md.j2", text_ + "{{ ns.n }}\n")
    rendered = Templates(tmp_path).render("claude/command.md.j2", {"tools": ["a", "b"]})
    assert rendered == text.with_mark("2\n")


def test_an_override_added_later_is_used_by_the_same_process(tmp_path: Path) -> None:
    """An environment is kept per project: one that loaded the bundled template must not keep
    serving it once the project overrides it (a long-lived process: the MCP server, tests)."""
    context = {"name": "x", "description": "d", "argument_hint": None, "allowed_tools": [],
               "model": None, "body": "b"}  # fmt: skip
    bundled = Templates(tmp_path).render("claude/command.md.j2", context)
    write(tmp_path, "templates/claude/command.md.j2", "own {{ name }}\n")
    own = Templates(tmp_path).render("claude/command.md.j2", context)
    assert own == text.with_mark("own x\n", name="command x") != bundled
    (tmp_path / "templates/claude/command.md.j2").unlink()
    assert Templates(tmp_path).render("claude/command.md.j2", context) == bundled


def test_an_override_added_below_a_symlinked_folder_is_used_too(tmp_path: Path) -> None:
    """The loader follows a symlinked folder in templates/: so does the environment's key."""
    context = {"name": "x", "description": "d", "argument_hint": None, "allowed_tools": [],
               "model": None, "body": "b"}  # fmt: skip
    shared = tmp_path / "shared" / "claude"
    shared.mkdir(parents=True)
    write(tmp_path, "templates/README.txt", "mine\n")
    (tmp_path / "templates" / "claude").symlink_to(shared, target_is_directory=True)
    (tmp_path / "templates" / "loop").symlink_to(tmp_path / "templates", target_is_directory=True)
    bundled = Templates(tmp_path).render("claude/command.md.j2", context)
    (shared / "command.md.j2").write_text("own {{ name }}\n", encoding="utf-8")
    own = Templates(tmp_path).render("claude/command.md.j2", context)
    assert own == text.with_mark("own x\n", name="command x") != bundled


def test_the_way_out_is_named_only_for_a_change_of_a_list_or_mapping(tmp_path: Path) -> None:
    write(tmp_path, "templates/claude/command.md.j2", "{{ name.__class__ }}\n")
    with pytest.raises(InputError) as err:
        Templates(tmp_path).render("claude/command.md.j2", {"name": "x"})
    assert "unsafe" in err.value.message and "build a new one" not in err.value.message


def test_undefined_variable_names_template_and_line(tmp_path: Path) -> None:
    write(tmp_path, "templates/claude/command.md.j2", "line one\n{{ missing }}\n")
    with pytest.raises(InputError) as err:
        Templates(tmp_path).render("claude/command.md.j2", {})
    assert err.value.file is not None and err.value.file.endswith("claude/command.md.j2")
    assert err.value.line == 2
    assert "missing" in err.value.message


def test_syntax_error_names_template_and_line(tmp_path: Path) -> None:
    write(tmp_path, "templates/claude/command.md.j2", "ok\nok\n{% if %}\n")
    with pytest.raises(InputError) as err:
        Templates(tmp_path).get("claude/command.md.j2")
    assert err.value.file is not None and err.value.file.endswith("command.md.j2")
    assert err.value.line == 3


def test_sandbox_refuses_unsafe_attributes(tmp_path: Path) -> None:
    write(tmp_path, "templates/claude/command.md.j2", "{{ name.__class__.__mro__ }}\n")
    with pytest.raises(InputError) as err:
        Templates(tmp_path).render("claude/command.md.j2", {"name": "x"})
    assert "unsafe" in err.value.message or "access to attribute" in err.value.message


def test_markdown_is_not_html_escaped(tmp_path: Path) -> None:
    write(tmp_path, "templates/t.j2", "{{ v }}\n")
    assert Templates(tmp_path).render("t.j2", {"v": "<a> & b"}) == "<a> & b\n"


@given(st.text())
def test_yaml_str_is_one_line_and_round_trips(value: str) -> None:
    quoted = text.yaml_str(value)
    assert "\n" not in quoted and "\r" not in quoted
    assert yaml.safe_load(f"k: {quoted}\n")["k"] == value


@given(st.text(alphabet=string.printable + "é—<>:#"))
def test_yaml_str_handles_frontmatter_breakers(value: str) -> None:
    assert yaml.safe_load(f"description: {text.yaml_str(value + ': <example>')}")[
        "description"
    ] == (value + ": <example>")


def test_a_template_error_names_a_project_template_by_its_path_there(tmp_path: Path) -> None:
    """As registry files are named: the message reads the same in any copy of the project; a
    bundled template, which the user does not edit, is named in full."""
    write(tmp_path, "templates/claude/command.md.j2", "one\n{{ name }\n")
    with pytest.raises(InputError) as err:
        Templates(tmp_path).render("claude/command.md.j2", {"name": "x"})
    assert (err.value.file, err.value.line) == ("templates/claude/command.md.j2", 2)
    assert "syntax error" in err.value.message
    with pytest.raises(InputError) as err:
        Templates(tmp_path).render("claude/skill.md.j2", {})  # a bundled one, missing its values
    assert err.value.file == str(bundled_templates() / "claude/skill.md.j2")
    assert err.value.line is not None and "template error" in err.value.message
