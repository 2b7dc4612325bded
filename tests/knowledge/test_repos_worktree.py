"""`knowledge.repos` entries must be git work trees (PRODUCT.md §8.2, issue 11 case 12).

`knowledge.repos: {sys: /etc}` must not let `notes check` confirm `sys: passwd#root:x` from
`/etc/passwd`: a repo that exists but is not a checkout is an error naming orkestra.yaml:line, and
its sources stay ambiguous.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write
from tests.knowledge.helpers import note

CONFIG = "project: demo\nknowledge:\n  repos:\n    sys: {where}\n"


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-06-01")
    monkeypatch.delenv("ORKESTRA_ROOT", raising=False)


def _project(root: Path, where: str) -> None:
    write(root, "registries/orkestra.yaml", CONFIG.format(where=where))
    note(root, "root-user", sources=["sys: passwd#root:x"])


def test_an_arbitrary_folder_as_a_repo_confirms_nothing(cli: Any, tmp_path: Path) -> None:
    _project(tmp_path, "/etc")
    r = cli("notes", "check", cwd=tmp_path)
    assert r.exit_code == 1, r.stderr
    report = r.json()
    assert report["confirmed"] == 0 and report["ambiguous"] == 1
    source = report["notes"][0]["sources"][0]
    assert source["status"] == "ambiguous" and "not a git work tree" in source["reason"]
    [problem] = [p for p in report["problems"] if p["code"] == "repo-not-work-tree"]
    assert (problem["severity"], problem["file"], problem["line"]) == (
        "error",
        "registries/orkestra.yaml",
        4,
    )
    assert "knowledge.repos.sys" in problem["message"]


def test_a_sibling_checkout_is_a_repo(cli: Any, tmp_path: Path) -> None:
    root = tmp_path / "main"
    write(tmp_path, "sibling/passwd", "root:x:0:0\n")
    (tmp_path / "sibling/.git").mkdir()
    _project(root, "../sibling")
    r = cli("notes", "check", cwd=root)
    assert r.exit_code == 0, r.stderr
    assert r.json()["confirmed"] == 1 and r.json()["problems"] == []


def test_a_checkout_not_cloned_here_is_ambiguous_not_an_error(cli: Any, tmp_path: Path) -> None:
    _project(tmp_path, "../not-cloned")
    r = cli("notes", "check", cwd=tmp_path)
    assert r.exit_code == 0, r.stderr
    assert r.json()["ambiguous"] == 1 and r.json()["problems"] == []
