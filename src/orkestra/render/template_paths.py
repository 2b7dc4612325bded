"""Where templates live: the project's `templates/` first, then the ones bundled with Orkestra.
Standard library only, so the no-op record and the render cache find them without Jinja."""

from __future__ import annotations

import os
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


def template_files(folder: Path) -> list[tuple[str, Path]]:
    """Every file below a template folder as (its name there, its path), sorted by name.
    Symlinked folders are followed, as Jinja's loader follows them, each folder once (a link
    back up ends there); an unreadable folder is skipped (the loader reports what it cannot
    read)."""
    found: list[tuple[str, Path]] = []
    seen: set[tuple[int, int]] = set()
    stack = [(str(folder), "")]
    while stack:
        path, prefix = stack.pop()
        try:
            st = os.stat(path)  # noqa: PTH116 - text paths: this runs per folder
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            with os.scandir(path) as entries:
                for entry in entries:
                    if entry.is_dir():
                        stack.append((entry.path, f"{prefix}{entry.name}/"))
                    elif entry.is_file():
                        found.append((f"{prefix}{entry.name}", Path(entry.path)))
        except OSError:
            continue
    return sorted(found)
