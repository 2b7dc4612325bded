"""Ground-truth registry files as the knowledge base sees them: ids in use, appending one."""

from __future__ import annotations

import re
from pathlib import Path

_ID = re.compile(r"(?:^|[\s{,])id:\s*[\"']?(GT-[A-Z]{2,5}-\d{3})\b", re.MULTILINE)


def truth_files(root: Path) -> list[Path]:
    """`registries/truths/*.yaml`, sorted."""
    folder = root / "registries" / "truths"
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())


def existing_ids(root: Path) -> set[str]:
    """Every `id: GT-…` declared in a truths file (a cheap textual scan)."""
    ids: set[str] = set()
    for path in truth_files(root):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        ids.update(_ID.findall(text))
    return ids
