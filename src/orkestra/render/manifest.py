"""The committed lock file listing the files `sync` owns (so pruning and `--check` work on a clean
clone, unlike the gitignored `.orkestra/` cache).

Location: `registries/.render-lock.json`, beside the sources it was rendered from. Shape:
`{"generator": "orkestra", "version": 1, "files": {"<path>": "<target>", ...}}`.
"""

from __future__ import annotations

import json
from pathlib import Path

from orkestra.core import jsonio
from orkestra.core.errors import InputError, UnsafePathError
from orkestra.core.safewrite import check_relative

LOCK_PATH = "registries/.render-lock.json"
VERSION = 1


def load(root: Path) -> dict[str, str]:
    """Owned paths -> target name; empty when no lock exists yet."""
    path = root / LOCK_PATH
    if not path.is_file() or path.is_symlink():
        return {}
    try:
        data = jsonio.read_json(path)
    except (OSError, InputError) as exc:
        raise InputError(
            f"render lock is unreadable ({exc}); delete it and run `orkestra sync` again",
            file=LOCK_PATH,
        ) from None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        raise InputError(
            "render lock has no `files` mapping; delete it and re-sync", file=LOCK_PATH
        )
    return {str(k): str(v) for k, v in files.items() if _plausible(str(k))}


def dumps(files: dict[str, str]) -> bytes:
    """Deterministic lock content for `files` (path -> target)."""
    body = {"generator": "orkestra", "version": VERSION, "files": dict(sorted(files.items()))}
    return (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _plausible(path: str) -> bool:
    # a tampered lock must not make sync delete something outside the project
    try:
        check_relative(path)
    except UnsafePathError:
        return False
    return True
