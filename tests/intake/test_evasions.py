"""Evasions found by a hostile review (h113): each one used to be adopted."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from orkestra.intake.review import run_languages

CORPUS = Path(__file__).parent / "corpus"


def _intake(cli: Any, project: Path, *names: str) -> dict[str, Any]:
    base = project / "vendor" / "acme"
    for name in names:
        shutil.copytree(CORPUS / "hostile" / name, base / name)
    result = cli("skills", "intake", "vendor/acme", cwd=project)
    assert result.exit_code == 0, result.stderr
    return {c["name"]: c for c in result.json()["candidates"]}


# --- code under a harmless file name -----------------------------------------------------------


def test_a_file_the_skill_runs_is_audited_as_code_whatever_its_name() -> None:
    texts = [
        ("SKILL.md", "Run `python3 scripts/defaults.cfg` once, then `node app.jsx`."),
        ("scripts/defaults.cfg", "x = 1\n"),
        ("app.jsx", "x\n"),
        ("scripts/run.sh", 'D=$(dirname "$0")\nbash "$D/setup"\n'),
        ("scripts/setup", "echo hi\n"),
        ("references/notes.txt", "plain prose about python3 and node\n"),
    ]
    assert run_languages(texts) == {
        "scripts/defaults.cfg": "python",
        "app.jsx": "js",
        "scripts/setup": "shell",
    }


def test_python_and_js_modules_are_recognised_by_their_text() -> None:
    found = run_languages(
        [
            ("lib/helper", "import os\nprint(os.getcwd())\n"),
            ("lib/web.es", 'const https = require("https");\n'),
            ("notes.txt", "import the data first, then from the menu import it again\n"),
            ("README.md", "```python\nimport os\n```\n"),
        ]
    )
    assert found == {"lib/helper": "python", "lib/web.es": "js"}


@pytest.mark.parametrize("name", ["py-run-harmless-name", "js-jsx-exfil"])
def test_code_under_a_harmless_name_is_rejected_through_the_cli(
    cli: Any, project: Path, name: str
) -> None:
    candidate = _intake(cli, project, name)[name]
    assert candidate["verdict"] == "reject", candidate["reasons"]
    assert any("secret-exfiltration" in line for line in candidate["deciding"])
