"""Fixtures for search tests: a copy of the fixture registry in a temporary folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parent / "fixture"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A private copy of tests/search/fixture (a valid registry of every kind)."""
    target = tmp_path / "proj"
    shutil.copytree(FIXTURE, target)
    return target
