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
