"""`did you mean` puts the name that differs only by case first: `dec-ar-001` is DEC-AR-001,
not whichever id difflib finds closer character by character."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.registry.references import closest
from tests.conftest import write
from tests.registry.helpers import findings, scaffold


def test_the_name_differing_only_by_case_comes_first() -> None:
    ids = ["DEC-RG-001", "DEC-MN-001", "DEC-CL-001", "DEC-CL-002"]
    assert closest("dec-cl-001", ids)[0] == "DEC-CL-001"
    assert closest("read", ["Bash", "Read", "Grep", "Edit"])[0] == "Read"
    assert closest("Architect", ["architect", "guardian"]) == ["architect"]


def test_info_of_an_id_in_lowercase_suggests_the_id_first(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path)
    rec = (root / "registries/decisions/records/DEC-AR-001.yaml").read_text(encoding="utf-8")
    for n in ("002", "010", "011"):
        write(root, f"registries/decisions/records/DEC-AR-{n}.yaml", rec.replace("001", n))
    result = cli("decisions", "info", "dec-ar-011", "--format", "json", cwd=root)
    assert result.exit_code == 1
    message = __import__("json").loads(result.stderr)["error"]["message"]
    assert "did you mean DEC-AR-011" in message


def test_a_reference_in_the_wrong_case_suggests_its_spelling_first(tmp_path: Path) -> None:
    root = scaffold(tmp_path)
    rel = "registries/agents/example-agent.yaml"
    text = (root / rel).read_text(encoding="utf-8")
    write(root, rel, text.replace("  - architect\n", "  - Architect\n"))
    (bad,) = [f for f in findings(root) if f.code in ("ORK020", "ORK002")]
    assert bad.line == 6
    assert "'architect'" in bad.message and "lowercase" in bad.message
