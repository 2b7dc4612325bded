"""Where templates live: the project's `templates/` first, then the ones bundled with Orkestra.
Standard library only, so the no-op record and the render cache find them without Jinja."""

from __future__ import annotations

from pathlib import Path

import orkestra


def bundled_templates() -> Path:
    """The templates shipped with Orkestra: inside the wheel, else the source checkout's."""
    package = Path(orkestra.__file__).parent
    installed = package / "templates"
    if installed.is_dir():
        return installed
    return package.parents[1] / "templates"


def template_folders(root: Path | None) -> list[Path]:
    """Where templates are looked up, first match wins: the project's, then the bundled ones."""
    own = [root / "templates"] if root is not None and (root / "templates").is_dir() else []
    return [*own, bundled_templates()]
