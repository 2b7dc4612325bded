"""`--format table`: what the data says is printed as it is, never read as rich markup."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.core.output import render_table
from tests.conftest import write

PATTERN = "must match ^[a-z0-9]+(-[a-z0-9]+)*$ [bold]x[/bold]"


def test_a_cell_title_and_column_holding_brackets_print_as_they_are() -> None:
    text = render_table([{"[col]": PATTERN}], title="[red]refused[/red]")
    assert "^[a-z0-9]+(-[a-z0-9]+)*$" in text and "[bold]x[/bold]" in text
    assert "[col]" in text and "[red]refused[/red]" in text
    report = render_table({"message": PATTERN, "rows": [{"why": PATTERN}]})
    assert report.count("[a-z0-9]") == 4


def test_an_import_refusal_table_keeps_the_name_pattern(
    cli: Any, project: Path, tmp_path: Path
) -> None:
    write(
        tmp_path,
        "src/skills/bad/SKILL.md",
        "---\ndescription: Helps when asked to do things in this repository.\nname: Bad_Name\n---\nx\n",
    )
    result = cli("import", str(tmp_path / "src"), "-f", "table", cwd=project)
    assert result.exit_code == 1
    assert "skills/bad/SKILL.md:3: name 'Bad_Name'" in result.stderr
    assert "[a-z0-9]" in result.stdout + result.stderr


def test_a_long_path_in_a_wide_table_is_kept_whole_not_cut_with_an_ellipsis() -> None:
    path = "registries/skills/project/orkestra-mining-classification-and-release.yaml"
    rows = [
        {
            "name": f"agent-{i}",
            "description": "Reviews changes against the spec and the house rules. " * 2,
            "category": "quality",
            "role": "specialist",
            "model": "opus",
            "status": "active",
            "skills": 6,
            "path": path,
        }
        for i in range(3)
    ]
    text = render_table({"agents": rows, "total": 3})
    assert "…" not in text
    # a cell folded over lines is read back by joining its column's pieces
    pieces = [line.split("│")[-2].strip() for line in text.splitlines() if line.startswith("│")]
    assert "".join(pieces[: len(pieces) // 3]) == path


def test_a_listing_in_the_table_format_has_no_ellipsis(cli: Any, project: Path) -> None:
    name = "registry-maintainer-for-the-mining-and-release-pipeline"
    write(
        project,
        f"registries/agents/{name}.yaml",
        f"name: {name}\ndescription: Keeps the registries tidy. Use when a registry file changes.\n",
    )
    result = cli("agents", "list", "--format", "table", cwd=project)
    assert result.exit_code == 0, result.stderr
    assert "…" not in result.stdout
    lines = [line for line in result.stdout.splitlines() if line.startswith("│")]
    assert (
        "".join(line.split("│")[-2].strip() for line in lines) == f"registries/agents/{name}.yaml"
    )


def test_a_listing_titled_by_its_own_kind_names_it_once() -> None:
    """`agents list --format table` printed `agents` on its first two lines: the report's
    title and the table's, the same word."""
    from orkestra.core.output import listing, render_table

    text = render_table(listing("agents", [{"name": "a"}, {"name": "b"}]), title="agents")
    lines = text.splitlines()
    assert lines[0] == "agents" and "agents" not in "\n".join(lines[1:])
    assert "total  2" in text
    other = render_table({"name": "x", "skills": [{"name": "s"}]}, title="x").splitlines()
    assert other[0] == "x" and any(line.strip() == "skills" for line in other)


ESCAPES = "Title\x1b]0;PWNED\x07 \x1b[31mred\x1b[0m \x9b2J back\rover \x00 end"


def test_control_characters_in_data_are_shown_not_sent_to_the_terminal() -> None:
    """Registry and vendor text is data (§13): an ESC sequence in it (an OSC title, a colour, a
    clear screen, a C1 CSI, a carriage return hiding text) is printed as `\\x1b`, never sent to
    the reader's terminal; a tab and a line break stay what they are."""
    from orkestra.core.output import printable

    shown = printable(ESCAPES + "\ttab\nline")
    assert shown == (
        "Title\\x1b]0;PWNED\\x07 \\x1b[31mred\\x1b[0m \\x9b2J back\\x0dover \\x00 end\ttab\nline"
    )
    for text in (
        render_table([{"description": ESCAPES}], title=ESCAPES),
        render_table({"description": ESCAPES, "rows": [{"why": ESCAPES}]}, title="x"),
    ):
        assert not any(ch in text for ch in "\x1b\x07\x9b\r\x00"), repr(text)
        assert "\\x1b]0;PWNED\\x07" in text


def test_table_output_and_text_errors_send_no_escape_sequence(cli: Any, project: Path) -> None:
    write(
        project,
        "registries/agents/zz-esc.yaml",
        "name: zz-esc\n"
        'description: "Escape \\e]0;PWNED\\a \\e[2Jcleared. Use when testing."\n'
        "category: quality\nrole: specialist\nmodel: sonnet\n",
    )
    runs = [
        ("agents", "list", "-f", "table"),
        ("agents", "info", "zz-esc", "-f", "table"),
        ("search", "escape", "-f", "table"),
        ("agents", "search", "escape", "-f", "text"),
    ]
    for args in runs:
        result = cli(*args, cwd=project)
        assert result.exit_code == 0, (args, result.stderr)
        assert "\x1b" not in result.stdout and "\x07" not in result.stdout, args
        assert "\\x1b]0;PWNED\\x07" in result.stdout.replace("\n", "").replace(" ", ""), args
    missing = cli("agents", "info", "a\x1b[2Jb", "-f", "table", cwd=project)
    assert missing.exit_code == 1 and "\x1b" not in missing.stderr
    assert "a\\x1b[2Jb" in missing.stderr
    json_error = cli("agents", "info", "a\x9b2Jb", "-f", "json", cwd=project)
    assert "\x9b" not in json_error.stderr and "\\u009b" in json_error.stderr
    as_json = cli("agents", "info", "zz-esc", cwd=project)  # JSON escapes them itself
    assert as_json.json()["description"].startswith("Escape \x1b]0;PWNED\x07")


def test_json_escapes_del_and_c1_controls_as_the_same_value() -> None:
    """`json.dumps` escapes C0 controls only: DEL and C1 controls (U+009B, a CSI) are written as
    `\\u00NN` too, so pretty JSON on a terminal sends no escape sequence; the value is the same."""
    import json

    from orkestra.core.output import to_json

    data = {"description": "a\x9b2Jb\x7f\x1b[0m ünïcödé 日本"}
    for pretty in (True, False):
        text = to_json(data, pretty=pretty)
        assert not any(ch in text for ch in "\x9b\x7f\x1b")
        assert "\\u009b" in text and "ünïcödé 日本" in text  # other text stays as it is
        assert json.loads(text) == data


def test_a_crlf_line_break_is_a_line_break_not_an_escaped_control() -> None:
    """A note or registry file saved on Windows ends each line with CR LF: that CR overwrites
    nothing and was shown as `\\x0d` at the end of every line; a lone CR still is."""
    from orkestra.core.output import printable

    assert printable("Résumé — 日本語 🚀\r\nsecond\r\n") == "Résumé — 日本語 🚀\r\nsecond\r\n"
    assert printable("back\rover\r\r\n") == "back\\x0dover\\x0d\r\n"
    assert "\\x0d" not in render_table({"body": "a\r\nb\r\n"}, title="x")


def test_notes_info_as_text_shows_a_crlf_note_without_escaped_line_ends(
    cli: Any, project: Path
) -> None:
    body = (
        '---\r\ntype: "gotcha"\r\ntitle: "Le café est chaud"\r\nconfidence: "observed"\r\n'
        "---\r\n\r\n# Le café est chaud\r\n\r\nSymptom → cause → fix.\r\n"
    )
    (project / "knowledge" / "gotchas").mkdir(parents=True, exist_ok=True)
    (project / "knowledge" / "gotchas" / "cafe.md").write_bytes(body.encode("utf-8"))
    result = cli("notes", "info", "cafe", "-f", "text", cwd=project)
    assert result.exit_code == 0, result.stderr
    assert "Symptom → cause → fix." in result.stdout
    assert "\\x0d" not in result.stdout
