"""Red team 2: commands that write several files leave all of them or none (PRODUCT.md §13).

A full disk (ENOSPC) is injected at the second file a command writes; the command must exit 1
naming the file and the cause, and the project must be byte for byte what it was.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

from tests.intake.test_cli import FIXTURES


def tree(root: Path) -> dict[str, bytes]:
    """Every file below `root` (the derived `.orkestra/` left out) and its bytes."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".orkestra" not in p.relative_to(root).parts
    }


@contextmanager
def full_disk_at(when: Callable[[str], bool]) -> Iterator[None]:
    """`os.open` of a temporary file whose target `when(name)` selects fails with ENOSPC."""
    real = os.open

    def fake(path: Any, *args: Any, **kw: Any) -> int:
        name = os.fspath(path)
        if ".orkestra-" in name and name.endswith(".tmp") and when(name):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), name)
        return real(path, *args, **kw)

    with mock.patch.object(os, "open", fake):
        yield


def test_intake_apply_with_a_full_disk_at_orkestra_yaml_writes_no_overlay(
    cli: Any, project: Path
) -> None:
    # broke: the overlay registries/vendor/acme.yaml was written, then orkestra.yaml failed, so
    # the provider's skills were listed with no vendor root registered (half a change)
    shutil.copytree(FIXTURES / "benign" / "csv-profiler", project / "vendor/acme/csv-profiler")
    before = tree(project)
    with full_disk_at(lambda name: "/registries/.orkestra.yaml." in name):
        result = cli(
            "skills", "intake", "vendor/acme", "--provider", "acme", "--apply", cwd=project
        )
    assert result.exit_code == 1, result.stderr
    assert "registries/orkestra.yaml" in result.stderr and "No space left" in result.stderr
    assert "Traceback" not in result.stderr
    assert tree(project) == before


def test_learn_apply_with_a_full_disk_at_the_second_claims_file_writes_neither(
    project: Path, cli: Any, tmp_path: Path
) -> None:
    # broke: apply, documented "all or nothing", wrote the claims files one by one, so the first
    # stayed written when the second met a full disk
    import json

    new = {
        "insights": [
            {"statement": "Hooks import the standard library only", "topic": "alpha"},
            {"statement": "Ledgers are appended under an exclusive lock", "topic": "beta"},
        ]
    }
    (tmp_path / "new.json").write_text(json.dumps(new), encoding="utf-8")
    proposal = cli("learn", "propose", "-i", str(tmp_path / "new.json"), cwd=project)
    assert proposal.exit_code == 0, proposal.stderr
    (tmp_path / "proposal.json").write_text(proposal.stdout, encoding="utf-8")
    before = tree(project)
    with full_disk_at(lambda name: "-beta.json." in name):
        result = cli("learn", "apply", "-i", str(tmp_path / "proposal.json"), cwd=project)
    assert result.exit_code == 1, result.stderr
    assert "beta.json" in result.stderr and "No space left" in result.stderr
    assert tree(project) == before
    result = cli("learn", "apply", "-i", str(tmp_path / "proposal.json"), cwd=project)
    assert result.exit_code == 0 and result.json()["saved"] and len(result.json()["files"]) == 2


def test_init_with_a_full_disk_midway_leaves_a_project_a_rerun_completes(
    tmp_path: Path, cli: Any
) -> None:
    # broke: files were written one by one; a full disk at the seventh left six, and the rerun
    # refused them as "existing files" (a half-built project only --force could finish)
    target = tmp_path / "fresh"
    target.mkdir()
    (target / ".gitignore").write_text("node_modules/\n", encoding="utf-8")
    before = tree(target)
    with full_disk_at(lambda name: "/registries/agents/" in name):
        result = cli("init", str(target))
    assert result.exit_code == 1, result.stderr
    assert "registries/agents/example-agent.yaml" in result.stderr
    assert "No space left" in result.stderr and "Traceback" not in result.stderr
    assert tree(target) == before
    assert cli("init", str(target)).exit_code == 0
    assert cli("validate", cwd=target).exit_code == 0
