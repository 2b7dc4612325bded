"""Finishing a skill an earlier import took in without some of its files (refused then: a symlink
leaving the tree, a device name, an oversized file; fixed in the source since). The hints ask
for a rerun after the fix, and a rerun skips what exists as a collision: without this the fixed
files would never come in. Only files missing from the registry copy are added, and only while
that copy is exactly what the import wrote: an entry the user edited is never touched."""

from __future__ import annotations

import os
from pathlib import Path


def missing_files(
    root: Path, dest: str, yaml_now: tuple[bytes, ...], resources: dict[str, bytes]
) -> list[str] | None:
    """The resources (project-relative paths) to add to the imported skill at `dest` (its YAML),
    or None when it is not an unfinished import of the same skill: its YAML is none of
    `yaml_now` (what the import writes for it now, with or without its `resources` key), a file
    of its folder is not in `resources` byte for byte, or no file is missing."""
    try:
        if (root / dest).read_bytes() not in yaml_now:
            return None
    except OSError:
        return None
    folder = root / dest.removesuffix(".yaml")
    for dirpath, _dirs, names in os.walk(folder, followlinks=False):
        for name in names:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if rel not in resources or path.is_symlink():
                return None
            try:
                if path.read_bytes() != resources[rel]:
                    return None
            except OSError:
                return None
    missing = [rel for rel in resources if not os.path.lexists(root / rel)]
    return missing or None
