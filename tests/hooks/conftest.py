"""Payloads shaped like Claude Code's (copied from its hooks reference examples)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

PAYLOADS = Path(__file__).parent / "payloads"
EXAMPLE_ROOT = "/home/dev/repo"


@pytest.fixture
def payload(project: Path) -> Callable[..., str]:
    """`payload("post-tool-use-read", **overrides)` -> the JSON text, pointed at `project`."""

    def make(name: str, **overrides: Any) -> str:
        text = (PAYLOADS / f"{name}.json").read_text().replace(EXAMPLE_ROOT, str(project))
        data = json.loads(text)
        data.update(overrides)
        return json.dumps(data)

    return make


def events(root: Path) -> list[dict[str, Any]]:
    path = root / ".orkestra/events.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
