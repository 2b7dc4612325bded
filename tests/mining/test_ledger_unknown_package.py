"""Release notes of a package the configuration no longer has (§6.6, §6.7): renaming a package
in `mining.packages` (`old-core` → `core`), or the project (whose name is the root package's),
left every note of the old name in no changelog, and neither `validate` nor `mine validate`
said so. They are reported (ORK061, a warning: removing a package on purpose is fine), once
per package at its first note, with the count and the way to move them to the new name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from orkestra.registry import ledger
from orkestra.registry.ledger_check import check
from tests.mining.gitrepo import GitRepo
from tests.mining.test_ledger import RN, SHA, SHA2, SHA3, entry, note, put


def test_notes_of_an_unconfigured_package_are_reported_once(tmp_path: Path) -> None:
    put(tmp_path, ledger.CLASSIFICATIONS, [entry("a"), entry("b", sha=SHA2), entry("c", sha=SHA3)])
    put(
        tmp_path,
        ledger.RELEASE_NOTES,
        [note("n1", SHA, "a", package="core"), note("n2", SHA2, "b", package="old-core"),
         note("n3", SHA3, "c", package="old-core")],
    )  # fmt: skip
    found = [f for f in check(tmp_path, set(), None, packages={"core", "demo"}) if f.file == RN]
    assert [(f.code, f.severity, f.line) for f in found] == [("ORK061", "warning", 2)]
    assert "2 release notes name package 'old-core'" in found[0].message
    assert '"package": "NEW"' in found[0].message and "configured: core, demo" in found[0].message
    # without the configuration (a caller that cannot tell), nothing is guessed
    assert not [f for f in check(tmp_path, set(), None) if f.code == "ORK061"]


def test_renaming_a_package_is_reported_by_validate(released: GitRepo, cli: Any) -> None:
    config = released.path / "registries/orkestra.yaml"
    config.write_text(
        config.read_text(encoding="utf-8").replace("    core: ", "    kernel: "), encoding="utf-8"
    )
    result = cli("validate", "--show-warnings", cwd=released.path)
    assert "ORK061" in result.stdout + result.stderr
    found = cli("mine", "validate", cwd=released.path).json()["findings"]
    assert [(f["code"], f["file"], f["line"]) for f in found] == [("ORK061", RN, 1)]
    assert "'core'" in found[0]["message"] and "kernel" in found[0]["message"]
    # the way out the message gives: a batch moving each note to the new name
    sha = released.head()
    batch = released.path / "move.jsonl"
    batch.write_text(
        json.dumps({"sha": sha, "domain": "changelog", "action": "release",
                    "category": "added", "package": "kernel"}) + "\n",
        encoding="utf-8",
    )  # fmt: skip
    assert cli("mine", "commit", "--input", str(batch), cwd=released.path).exit_code == 0
    assert cli("mine", "validate", cwd=released.path).json()["findings"] == []
    assert cli("changelog", "render", "--package", "kernel", cwd=released.path).exit_code == 0
    text = (released.path / "packages/core/CHANGELOG.md").read_text(encoding="utf-8")
    assert "- A widget (" in text
