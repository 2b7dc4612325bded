"""`truths verify`: evidence paths, anchors and symbols checked against files; stale dates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.registry.evidence import check_evidence
from tests.conftest import write
from tests.registry.helpers import edit, scaffold


def test_check_evidence(tmp_path: Path) -> None:
    write(tmp_path, "src/a.py", "import os\n\ndef load_agent():\n    pass\n")
    write(tmp_path, "docs/x.md", "# Title\n\n## Safe loading\ntext\n")
    assert check_evidence(tmp_path, "src/a.py")["status"] == "ok"
    assert check_evidence(tmp_path, "src/a.py:load_agent") == {
        "evidence": "src/a.py:load_agent",
        "status": "ok",
        "line": 3,
    }
    assert check_evidence(tmp_path, "src/a.py#def load_agent")["line"] == 3
    assert check_evidence(tmp_path, "docs/x.md#safe-loading")["line"] == 3
    assert check_evidence(tmp_path, "src/a.py:gone")["status"] == "missing-anchor"
    assert check_evidence(tmp_path, "src/b.py")["status"] == "missing-file"
    assert check_evidence(tmp_path, "../outside")["status"] == "missing-file"


def test_a_renamed_symbol_is_not_found_through_a_longer_name_it_begins(tmp_path: Path) -> None:
    """Without a code map, `path:symbol` and `path#pattern` are found as whole words: a symbol
    renamed to a longer name (`load_agent` -> `load_agents`, `class Task` -> `class TaskItem`)
    is reported missing, never confirmed through the new name."""
    write(tmp_path, "src/a.py", "class TaskItem:\n    pass\n\ndef load_agents():\n    pass\n")
    assert check_evidence(tmp_path, "src/a.py:load_agent")["status"] == "missing-anchor"
    assert check_evidence(tmp_path, "src/a.py#class Task")["status"] == "missing-anchor"
    assert check_evidence(tmp_path, "src/a.py#def load_agents()")["line"] == 4  # ends in ")"
    assert check_evidence(tmp_path, "src/a.py:TaskItem")["line"] == 1


def test_an_anchor_s_line_is_counted_as_the_code_map_counts_it(tmp_path: Path) -> None:
    # a form feed, \x1c or \u2028 inside a line is no line break (str.splitlines would count one)
    write(
        tmp_path, "src/a.py", "import os\n\x0c\nX = '\u2028'\n\x1c\ndef load_agent():\n    pass\n"
    )
    assert check_evidence(tmp_path, "src/a.py#def load_agent")["line"] == 5


def test_truths_verify_cli(tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    root = scaffold(tmp_path / "p")
    assert cli("truths", "verify", cwd=root).exit_code == 0
    rel = "registries/truths/project.yaml"
    text = (
        (root / rel)
        .read_text(encoding="utf-8")
        .replace("- registries/orkestra.yaml", "- registries/orkestra.yaml#no-such-key")
    )
    (root / rel).write_text(text, encoding="utf-8")
    result = cli("truths", "verify", cwd=root)
    assert result.exit_code == 1 and result.json()["failing"] == ["GT-PRJ-001"]
    assert result.json()["truths"][0]["evidence"][0]["status"] == "missing-anchor"
    edit(root, rel)  # unchanged rewrite keeps it failing
    monkeypatch.setenv("ORKESTRA_TODAY", "2099-01-01")
    stale = cli("truths", "verify", "GT-PRJ-001", cwd=root).json()["truths"][0]
    assert stale["stale"] is True and stale["age_days"] > 90
    assert cli("truths", "verify", "GT-NOPE-001", cwd=root).exit_code == 1


def test_keyboard_interrupt_exits_130(
    tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.registry import inventory

    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    root = scaffold(tmp_path / "p")
    monkeypatch.setattr(inventory, "agents_list", interrupted)
    assert cli("agents", "list", cwd=root).exit_code == 130


@pytest.mark.parametrize(
    "evidence",
    ["x" * 300, "a\x00b", "x" * 300 + ":sym", "../outside"],
    ids=["long", "nul", "long-symbol", "outside"],
)
def test_unusable_evidence_is_missing_not_a_crash(tmp_path: Path, cli: Any, evidence: str) -> None:
    root = scaffold(tmp_path / "p")
    (tmp_path / "outside").write_text("x\n", encoding="utf-8")
    rel = "registries/truths/project.yaml"
    text = (root / rel).read_text(encoding="utf-8")
    quoted = evidence.replace("\x00", "\\0")
    (root / rel).write_text(
        text.replace("- registries/orkestra.yaml", f'- "{quoted}"'), encoding="utf-8"
    )
    assert check_evidence(root, evidence)["status"] == "missing-file"
    result = cli("validate", "--show-warnings", cwd=root)
    if "\x00" in evidence:  # NUL is never allowed in registry text (§13): an error, with its line
        assert result.exit_code == 1 and f"{rel}:14: error ORK001: a NUL" in result.stdout
        return
    assert result.exit_code == 0 and "ORK105" in result.stdout
    assert cli("truths", "verify", cwd=root).exit_code == 1
