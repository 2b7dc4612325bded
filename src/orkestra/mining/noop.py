"""The no-op `mine sync` decided from the index header alone (standard library only).

`orkestra mine sync` on an up-to-date index must not pay for pydantic: this module
reads the header, asks git for HEAD with one tiny `git rev-parse`, and builds the result shape.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.core import git
from orkestra.core.errors import InputError
from orkestra.mining import index


def git_head(root: Path) -> str | None:
    """HEAD's sha via one tiny `git rev-parse` through the one git runner (None if there is none)."""
    try:
        out = git.run(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False)
    except InputError:  # git cannot run: no cheap answer; the full sync reports the error
        return None
    return out.stdout.strip() or None if out.ok else None


def noop_result(root: Path) -> dict[str, Any] | None:
    """The sync result when the index is already current, else None."""
    header = index.read_header(root)
    if header is None or header.config != index.config_digest(root):
        return None
    if header.shallow:
        return None  # a shallow clone may have been deepened: let the full sync look
    if git_head(root) != header.head:
        return None
    return sync_result(header, new=0, removed=0, kind="noop")


def sync_result(header: index.Header, *, new: int, removed: int, kind: str) -> dict[str, Any]:
    """The JSON shape `mine sync` prints."""
    warnings = []
    if header.shallow:
        warnings.append(
            f"shallow clone: history behind {len(header.shallow)} boundary commit(s) is not "
            "visible and was not mined; run `git fetch --unshallow` to mine all of it"
        )
    return {
        "head": header.head,
        "commits": header.count,
        "new": new,
        "removed": removed,
        "sync": kind,
        "shallow": bool(header.shallow),
        "warnings": warnings,
        "index": index.FOLDER.as_posix(),
    }
