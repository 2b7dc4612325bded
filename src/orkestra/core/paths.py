"""Finding the project root (light: no registry models imported)."""

from __future__ import annotations

import os
from pathlib import Path

from orkestra.core.errors import NotFound


def find_root(start: Path) -> Path:
    """The nearest folder at or above `start` that holds `registries/`."""
    start = start.resolve()
    for candidate in (start, *start.parents):
        if (candidate / "registries").is_dir():
            return candidate
    raise NotFound(
        f"no registries/ folder in {start} or any parent; run `orkestra init` to create one",
    )


def project_root(explicit: str | None = None) -> Path:
    """`explicit` (--root), else ORKESTRA_ROOT, else the nearest folder above the cwd with registries/."""
    chosen = explicit or os.environ.get("ORKESTRA_ROOT")
    if chosen:
        return Path(chosen).resolve()
    return find_root(Path.cwd())
