"""Build throwaway projects from the `orkestra init` scaffold and validate them."""

from __future__ import annotations

from pathlib import Path

from orkestra.core import yamlio
from orkestra.registry.findings import Finding
from orkestra.registry.loader import load
from orkestra.registry.validate import validate
from orkestra.scaffold import init_project


def scaffold(root: Path) -> Path:
    init_project(root)
    return root


def findings(root: Path) -> list[Finding]:
    return list(validate(load(root)).findings)


def codes(root: Path) -> set[str]:
    return {f.code for f in findings(root)}


def edit(root: Path, rel: str, **changes: object) -> None:
    """Rewrite a YAML registry file with top-level keys changed (None deletes a key)."""
    path = root / rel
    data = dict(yamlio.load_mapping(path))
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    path.write_text(yamlio.dumps(data), encoding="utf-8")
