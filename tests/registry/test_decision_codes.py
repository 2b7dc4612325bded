"""Two decision domains sharing one code: `validate` names the line, `decisions new` refuses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import ConflictError
from orkestra.mining import decision_ids
from orkestra.registry.models.decisions import shared_codes
from orkestra.scaffold import init_project
from tests.registry.helpers import findings

SHARED = "domains:\n  architecture: AR\n  search: AR\n  pipeline: PL\n"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    init_project(tmp_path / "p")
    path = tmp_path / "p" / "registries/decisions/registry.yaml"
    path.write_text(SHARED, encoding="utf-8")
    return tmp_path / "p"


def test_shared_codes() -> None:
    assert shared_codes({"a": "AR", "b": "AR", "c": "PL", "d": "AR"}) == {"AR": ["a", "b", "d"]}
    assert shared_codes({"a": "AR", "c": "PL"}) == {}


def test_validate_names_the_second_domains_line(root: Path) -> None:
    (found,) = [f for f in findings(root) if f.code == "ORK010"]
    assert (found.file, found.line, found.severity) == (
        "registries/decisions/registry.yaml",
        3,
        "error",
    )
    assert "'search' has code AR, as 'architecture' (line 2)" in found.message


def test_decisions_new_refuses_a_shared_code_and_writes_nothing(root: Path) -> None:
    records = root / "registries/decisions/records"
    before = sorted(p.name for p in records.iterdir())
    for domain in ("search", "AR", "architecture"):
        with pytest.raises(ConflictError, match="share code AR") as info:
            decision_ids.new(root, domain, title="T")
        assert info.value.file == "registries/decisions/registry.yaml"
    assert decision_ids.new(root, "PL", title="T")["id"] == "DEC-PL-001"
    assert sorted(p.name for p in records.iterdir()) == sorted([*before, "DEC-PL-001.yaml"])


def test_cli(root: Path, cli: Any) -> None:
    result = cli("validate", cwd=root)
    assert result.exit_code == 1
    assert "registries/decisions/registry.yaml:3: error ORK010:" in result.stdout
    made = cli("decisions", "new", "--domain", "search", "--title", "T", cwd=root)
    assert made.exit_code == 1 and "share code AR" in made.stderr
