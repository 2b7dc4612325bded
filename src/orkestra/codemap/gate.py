"""The per-language quality gate's last measured result, shipped as data (`gate.json`).

`tests/codemap/test_gate.py` measures precision, recall and F1 per language on the hand-written
fixtures and fails when this file disagrees with the measurement (regenerate it with
`ORKESTRA_UPDATE_GATE=1`). A language missing from the file is "unmeasured", never GREEN.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

from orkestra.core import jsonio

PRECISION = 0.95
RECALL = 0.99
F1 = 0.97


def verdict(precision: float, recall: float, f1: float) -> str:
    """GREEN when all three bars are met, else RED."""
    return "GREEN" if precision >= PRECISION and recall >= RECALL and f1 >= F1 else "RED"


@functools.cache
def measured() -> dict[str, Any]:
    """The shipped measurements: {language: {precision, recall, f1, expected, status}}."""
    text = resources.files("orkestra.codemap").joinpath("gate.json").read_text("utf-8")
    data: dict[str, Any] = jsonio.loads(text, source="orkestra/codemap/gate.json")
    return data


def status(language: str) -> str:
    """GREEN, RED or unmeasured for one language."""
    entry = measured().get(language)
    return str(entry["status"]) if entry else "unmeasured"
