"""Where sync writes an agent's file for each configured client, and what is there now
(`agents info`): so a path sync refuses (a user's file, a FIFO, a folder) is found from the agent."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orkestra.core.errors import InputError
from orkestra.core.readfile import special_kind
from orkestra.registry import render_lock
from orkestra.registry.registry import Registry

if TYPE_CHECKING:
    from orkestra.registry.models import Agent

WRITTEN = "written"


def agent_folders() -> dict[str, tuple[str, str]]:
    """target -> (its agents folder, its agent files' suffix)."""
    out: dict[str, tuple[str, str]] = {}
    for target, roots in render_lock.TARGET_ROOTS.items():
        for root in roots:
            kind, suffix = render_lock.NAMED_FOLDERS.get(root, (None, ""))
            if kind == "agent":
                out[target] = (root, suffix)
    return out


def agent_outputs(reg: Registry, agent: Agent) -> list[dict[str, Any]]:
    """Each configured client's file for `agent`: target, path and its state (`WRITTEN`, or
    what stands in the way and what to do)."""
    try:
        lock: dict[str, render_lock.Entry] | None = render_lock.load(reg.root)
    except InputError:
        lock = None  # `validate` names the lock's problem
    folders = agent_folders()
    out = []
    for target in dict.fromkeys(reg.config.targets):
        if target not in folders or not agent.rendered_for(target):
            continue
        folder, suffix = folders[target]
        path = f"{folder}{agent.name}{suffix}"
        out.append({"target": target, "path": path, "state": _state(reg.root, path, lock)})
    return out


def _state(root: Path, path: str, lock: dict[str, render_lock.Entry] | None) -> str:
    try:
        st = os.lstat(root / path)
    except FileNotFoundError:
        return "not written yet: run `orkestra sync`"
    except OSError as exc:  # a file where a folder of the path is needed, say
        return f"cannot be looked at ({exc.strerror}): sync cannot write it; check the folders"
    kind = special_kind(st.st_mode)
    if kind is not None:
        return f"{kind}, not a file: sync cannot write it; remove it (rm {path})"
    if stat.S_ISDIR(st.st_mode):
        return "a folder, not a file: sync cannot write it; move it away"
    if stat.S_ISLNK(st.st_mode):
        return "a symlink: sync never writes through one; replace it with a file or remove it"
    entry = (lock or {}).get(path)
    if lock is None:
        return "the render lock is unreadable, so who wrote it is unknown: run `orkestra validate`"
    if entry is None:
        return ("a file Orkestra did not write: sync reports it as a conflict; move it away "
                "(or run `orkestra sync --force` to take it over)")  # fmt: skip
    if entry.sha256 is not None and render_lock.disk_digest(root, path) == entry.sha256:
        return WRITTEN
    return ("edited since sync wrote it: sync reports it as a conflict and keeps it; "
            "`orkestra sync --force` takes it over")  # fmt: skip
