"""Search honours intake's vendor overlay: only adopted vendor skills are searchable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import write

SKILL = "---\nname: {name}\ndescription: {name} handles PDF forms. Use when the user asks about PDF forms.\n---\nBody\n"


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    write(
        root, "registries/orkestra.yaml", "vendor_roots:\n  - {path: vendor/acme, provider: acme}\n"
    )
    for name in ("pdf-good", "pdf-risky"):
        write(root, f"vendor/acme/{name}/SKILL.md", SKILL.format(name=name))
    return root


def _ids(cli: Any, root: Path) -> list[str]:
    result = cli("search", "pdf forms", "--type", "skills", cwd=root)
    assert result.exit_code == 0, result.stderr
    return sorted(hit["id"] for hit in result.json()["results"])


def test_overlay_limits_vendor_skills(tmp_path: Path, cli: Any) -> None:
    root = _project(tmp_path)
    assert _ids(cli, root) == ["pdf-good", "pdf-risky"]  # no overlay: every vendor skill
    overlay = (
        "provider: acme\nskills:\n  pdf-good:\n    path: vendor/acme/pdf-good\n    layer: K3\n"
    )
    write(root, "registries/vendor/acme.yaml", overlay)
    assert _ids(cli, root) == ["pdf-good"]  # the index notices the new overlay
    write(
        root,
        "registries/vendor/acme.yaml",
        overlay + "  pdf-risky:\n    path: vendor/acme/pdf-risky\n    layer: K3\n",
    )
    assert _ids(cli, root) == ["pdf-good", "pdf-risky"]
    (root / ".orkestra").rename(root / "old-index")
    assert _ids(cli, root) == ["pdf-good", "pdf-risky"]  # same answer from a fresh index
