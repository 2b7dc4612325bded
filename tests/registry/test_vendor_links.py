"""Linked vendor skills never expose files outside their vendor root (issue 11, case 15; §13).

A vendor root with `link: symlink` is rendered as a symlink to the skill folder, so whatever the
folder links to becomes readable through `.claude/skills/<name>/`. A symlink inside such a folder
that leaves the vendor root is an error (ORK045), and sync refuses to run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from orkestra.core.errors import ValidationFailed
from orkestra.registry.loader import load
from orkestra.registry.validate import validate
from orkestra.render.sync import sync
from tests.render.conftest import build_rich

SKILL = "vendor/linked/acme-pdf"


@pytest.fixture
def rich(tmp_path: Path) -> Path:
    return build_rich(tmp_path / "rich")


def _leaks(root: Path) -> list[str]:
    return [f.file for f in validate(load(root)).errors if f.code == "ORK045"]


def test_a_symlink_out_of_a_linked_vendor_skill_fails_validate(rich: Path) -> None:
    (rich / SKILL / "leak.txt").symlink_to("/etc/passwd")
    (rich / SKILL / "references/deep.md").symlink_to("../../../../README.md")  # leaves vendor/
    found = [f for f in validate(load(rich)).errors if f.code == "ORK045"]
    assert sorted(f.file for f in found) == [f"{SKILL}/leak.txt", f"{SKILL}/references/deep.md"]
    assert "/etc/passwd" in found[0].message and "acme-pdf" in found[0].message
    with pytest.raises(ValidationFailed, match="ORK045"):
        sync(rich)
    assert not (rich / ".claude/skills/acme-pdf").exists()


def test_a_symlinked_folder_out_of_a_linked_vendor_skill_fails_validate(
    rich: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "secret"
    secret.mkdir()
    (rich / SKILL / "assets").symlink_to(secret, target_is_directory=True)
    assert _leaks(rich) == [f"{SKILL}/assets"]


def test_symlinks_inside_the_vendor_root_are_fine(rich: Path) -> None:
    (rich / SKILL / "same.md").symlink_to("references/notes.md")
    (rich / SKILL / "sibling").symlink_to(os.path.relpath(rich / "vendor/linked", rich / SKILL))
    assert _leaks(rich) == []
    sync(rich)
    assert (rich / ".claude/skills/acme-pdf/same.md").read_text() == "notes\n"


def test_a_copied_vendor_skill_never_copies_symlinks(rich: Path) -> None:
    (rich / "vendor/copied/other-csv/leak.txt").symlink_to("/etc/passwd")
    assert _leaks(rich) == []  # copy mode: symlinks are skipped, nothing is exposed
    sync(rich)
    assert not (rich / ".claude/skills/other-csv/leak.txt").exists()
