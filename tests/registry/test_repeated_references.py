"""A reference list naming one item twice (`identity: [architect, architect]`) is warning
ORK117 at the line of the repeat, saying which item and to remove it: the output would repeat
the item's guidance, and nothing says why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write
from tests.registry.helpers import findings, scaffold

AGENT = "registries/agents/example-agent.yaml"


def _agent(root: Path, old: str, new: str) -> None:
    text = (root / AGENT).read_text(encoding="utf-8")
    assert old in text
    write(root, AGENT, text.replace(old, new))


def _repeats(root: Path) -> list[Any]:
    return [f for f in findings(root) if f.code == "ORK117"]


@pytest.mark.parametrize(
    ("old", "new", "line", "what"),
    [
        ("  - architect\n", "  - architect\n  - architect\n", 7, "identity 'architect'"),
        ("identity:\n  - architect\n", "identity: [architect, architect]\n", 5, "identity"),
        ("  - example\nscopes:\n  - example\n", "  - example\nscopes:\n  - example\n  - example\n",
         13, "scope 'example'"),
        ("domains:\n  - example\n", "domains:\n  - example\n  # again\n  - example\n", 12,
         "domain 'example'"),
        ("  - Glob\n", "  - Glob\n  - Read\n", 17, "tool 'Read'"),
    ],
)  # fmt: skip
def test_a_repeat_is_a_warning_at_its_line(
    tmp_path: Path, old: str, new: str, line: int, what: str
) -> None:
    root = scaffold(tmp_path)
    _agent(root, old, new)
    (found,) = _repeats(root)
    assert found.severity == "warning" and found.file == AGENT and found.line == line
    assert what in found.message and "more than once" in found.message
    assert "remove" in found.message


def test_a_scope_listing_a_skill_twice_is_told_at_the_repeat(tmp_path: Path) -> None:
    root = scaffold(tmp_path)
    rel = "registries/scopes.yaml"
    text = (root / rel).read_text(encoding="utf-8")
    write(root, rel, text.replace("      - example-skill\n", "      - example-skill\n" * 2))
    (found,) = _repeats(root)
    assert (found.file, found.line) == (rel, 6) and "skill 'example-skill'" in found.message


def test_a_list_without_repeats_says_nothing(tmp_path: Path) -> None:
    assert _repeats(scaffold(tmp_path)) == []


def test_validate_shows_the_repeat_and_strict_fails(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path)
    _agent(root, "  - architect\n", "  - architect\n  - architect\n")
    shown = cli("validate", "--show-warnings", "--format", "text", cwd=root)
    assert shown.exit_code == 0, shown.stdout
    assert f"{AGENT}:7: warning ORK117" in shown.stdout
    assert cli("validate", "--strict", cwd=root).exit_code == 1


def test_a_skill_listing_a_scope_twice_is_told_at_the_repeat(tmp_path: Path) -> None:
    root = scaffold(tmp_path)
    (rel,) = [p.relative_to(root).as_posix() for p in (root / "registries/skills").rglob("*.yaml")]
    text = (root / rel).read_text(encoding="utf-8")
    write(root, rel, text.replace("scopes:\n  - example\n", "scopes: [example, 'example']\n"))
    (found,) = _repeats(root)
    assert (found.file, found.line) == (rel, 14) and "scope 'example'" in found.message
