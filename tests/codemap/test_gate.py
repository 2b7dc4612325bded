"""The release gate: per-language precision, recall and F1 on the hand-written fixtures.

The measured table is printed, every language must be GREEN, and the shipped
`orkestra/codemap/gate.json` (what `code index` reports) must equal the measurement. Regenerate
it after an extractor change with `ORKESTRA_UPDATE_GATE=1 pytest tests/codemap/test_gate.py`.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path

import pytest

from orkestra.codemap import gate as shipped
from tests.codemap import gate
from tests.codemap.conftest import needs_tree_sitter

LANGUAGES = sorted(p.name for p in gate.FIXTURES.iterdir() if p.is_dir())
MIN_EDGES = 20


@needs_tree_sitter
def test_every_language_is_green_and_the_shipped_gate_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = {name: gate.measure(name, tmp_path) for name in LANGUAGES}
    with capsys.disabled():
        print("\n" + gate.table(results))
    for name, result in results.items():
        assert result["edges"] >= MIN_EDGES, f"{name}: only {result['edges']} expected edges"
        assert result["status"] == "GREEN", (
            f"{name} is {result['status']}: missing {result['missing']}, "
            f"unexpected {result['unexpected']}"
        )
    measured = {
        name: {k: r[k] for k in ("definitions", "edges", "precision", "recall", "f1", "status")}
        for name, r in results.items()
    }
    target = Path(str(resources.files("orkestra.codemap").joinpath("gate.json")))
    if os.environ.get("ORKESTRA_UPDATE_GATE") == "1":
        target.write_text(json.dumps(measured, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        shipped.measured.cache_clear()
    assert shipped.measured() == measured, "gate.json is stale: rerun with ORKESTRA_UPDATE_GATE=1"


def test_verdict_bars() -> None:
    assert shipped.verdict(0.95, 0.99, 0.97) == "GREEN"
    assert shipped.verdict(0.949, 1.0, 0.99) == "RED"
    assert shipped.verdict(1.0, 0.989, 0.99) == "RED"
    assert shipped.verdict(0.96, 0.99, 0.969) == "RED"


def test_an_unmeasured_language_is_never_green() -> None:
    assert shipped.status("cobol") == "unmeasured"
