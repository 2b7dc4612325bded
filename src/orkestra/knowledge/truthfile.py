"""Ground-truth registry files as the knowledge base sees them: ids in use, appending one."""

from __future__ import annotations

import re
from pathlib import Path

from orkestra.core.errors import InputError

_ID = re.compile(r"(?:^|[\s{,])id:\s*[\"']?(GT-[A-Z]{2,5}-[0-9]{3})\b", re.MULTILINE)


def truth_files(root: Path) -> list[Path]:
    """`registries/truths/*.yaml`, sorted."""
    folder = root / "registries" / "truths"
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())


def existing_ids(root: Path) -> set[str]:
    """Every `id: GT-…` declared in a truths file (a cheap textual scan); InputError naming a
    truths file that cannot be read."""
    ids: set[str] = set()
    for path in truth_files(root):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:  # its ids unknown, a new id could repeat one: stop and say so
            rel = path.relative_to(root).as_posix()
            raise InputError(f"cannot read: {exc.strerror or exc}", file=rel) from exc
        ids.update(_ID.findall(text))
    return ids
