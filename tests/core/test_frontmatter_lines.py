"""Every line a frontmatter error or key gives is the file's own, in messages too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.core import frontmatter
from orkestra.core.errors import InputError
from tests.registry.helpers import scaffold

DUP = "---\nname: dup\nname: dup\ndescription: x\n---\nbody\n"


def test_a_duplicate_key_names_both_file_lines() -> None:
    with pytest.raises(InputError) as info:
        frontmatter.parse(DUP, "SKILL.md")
    assert info.value.line == 3
    assert "first defined on line 2" in info.value.message


def test_key_and_error_lines_are_file_lines() -> None:
    doc = frontmatter.parse("---\nname: a\ntags:\n  - x\n---\nbody\n", "a.md")
    assert doc.meta.line == 2 and doc.meta.key_lines == {"name": 2, "tags": 3}
    assert doc.meta["tags"].item_lines == [4] and doc.body_line == 6
    with pytest.raises(InputError) as info:
        frontmatter.parse("---\nname: a\nbad: [\n---\n", "a.md")
    assert info.value.line is not None and info.value.line >= 3
    assert frontmatter.parse("---\n---\nbody\n", "e.md").meta.line == 2


def test_validate_cli_names_file_lines(tmp_path: Path, cli: Any) -> None:
    root = scaffold(tmp_path / "p")
    (root / "vendor/v/dup").mkdir(parents=True)
    (root / "vendor/v/dup/SKILL.md").write_text(DUP, encoding="utf-8")
    with (root / "registries/orkestra.yaml").open("a", encoding="utf-8") as handle:
        handle.write("vendor_roots:\n  - {path: vendor/v, provider: v, trust: vendor}\n")
    result = cli("validate", cwd=root)
    assert result.exit_code == 1
    assert (
        "vendor/v/dup/SKILL.md:3: error ORK001: duplicate key 'name' (first defined on line 2)"
        in (result.stdout)
    )
