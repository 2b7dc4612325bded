"""Hostile `learn propose` / `learn apply` input (PRODUCT.md §8.3, §13; issue 11 review).

A proposal is edited by people and agents: its text fields may not hold NUL (§13), and a topic of
any length names a claims file the file system can hold.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from orkestra.knowledge.claims import store
from orkestra.scaffold import init_project


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-06-01")
    monkeypatch.delenv("ORKESTRA_ROOT", raising=False)
    root = tmp_path / "proj"
    init_project(root)
    (root / "knowledge").mkdir()
    return root


def _proposal(project: Path, cli: Any, **claim: object) -> Path:
    new = project / "new.json"
    new.write_text(json.dumps({"insights": [{"statement": "Use uv for installs", "tags": ["a"]}]}))
    result = cli("learn", "propose", "--input", str(new), cwd=project)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    data["items"][0]["claim"].update(claim)
    path = project / "proposal.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("key", ["statement", "context", "topic"])
def test_a_nul_in_a_claim_text_field_is_refused(project: Path, cli: Any, key: str) -> None:
    # found by the hostile review: `learn apply` saved it; `learn promote` then failed on it
    path = _proposal(project, cli, **{key: "use\x00uv"})
    result = cli("learn", "apply", "--input", str(path), cwd=project)
    assert result.exit_code == 1 and "NUL" in result.stderr, result.stderr
    assert not (project / "knowledge/claims").exists()


def test_a_nul_in_new_insights_is_refused(project: Path, cli: Any) -> None:
    new = project / "new.json"
    new.write_text(json.dumps({"insights": [{"statement": "a\x00b", "context": "c"}]}))
    result = cli("learn", "propose", "--input", str(new), cwd=project)
    assert result.exit_code == 1 and "NUL" in result.stderr, result.stderr


def test_a_very_long_topic_names_a_file_that_can_exist(project: Path, cli: Any) -> None:
    # found by the hostile review: a 5,000-letter topic failed with "File name too long"
    path = _proposal(project, cli, topic="a" * 5000)
    result = cli("learn", "apply", "--input", str(path), cwd=project)
    assert result.exit_code == 0, result.stderr
    (name,) = [p.name for p in (project / "knowledge/claims").iterdir()]
    assert len(name) <= 100 and store.valid_name(name)


def test_the_slug_is_bounded_and_stable() -> None:
    assert store.slug("x" * 5000) == "x" * 80
    assert store.slug("Use uv for installs") == "use-uv-for-installs"
    assert store.slug("a-" * 100) == "a-a-a-a-a-a"
