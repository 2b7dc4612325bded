"""The committed render lock: which files `sync` wrote, for which target, with which bytes.

Location: `registries/.render-lock.json`. Shape (version 2):
`{"generator": "orkestra", "version": 2, "files": {"<path>": {"target": "<t>", "sha256": "<hex>"}}}`
(version 1 listed `"<path>": "<target>"` only; such an entry proves nothing and owns nothing).
An optional `"mcp_servers": {"<config file>": {"<server>": "<sha256 of the entry>"}}` records the
registry MCP servers sync merged into the clients' shared config files.

Ownership is proven, not claimed (PRODUCT.md §4): a file is Orkestra's to overwrite or delete only
when it is listed here **and** its bytes on disk still hash to the recorded sha256. A lock entry
can never widen what sync may touch: it must lie inside its target's output roots and outside
`.git/`, `registries/` and `knowledge/`; `entry_problem` says why one does not. The lock lives in
`registry` (not `render`) so that `validate` can report bad entries.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from orkestra.core import jsonio
from orkestra.core.errors import InputError, UnsafePathError
from orkestra.core.safewrite import check_relative

LOCK_PATH: Final = "registries/.render-lock.json"
VERSION: Final = 2
#: folders no lock entry and no configurable output may ever reach into
PROTECTED: Final = (".git", "registries", "knowledge", ".orkestra")
#: the pseudo-target owning `.agents/skills/` (rendered with any client that reads it)
SHARED_SKILLS: Final = "agents-skills"
#: each target's fixed output folders (a configured GROUND_TRUTHS output is added per registry)
TARGET_ROOTS: Final[dict[str, tuple[str, ...]]] = {
    "claude": (".claude/agents/", ".claude/skills/", ".claude/commands/"),
    "agents-md": (),  # only the AGENTS.md managed block, which is the user's file
    "codex": (".codex/agents/",),
    "copilot": (".github/agents/",),
    "cursor": (".cursor/agents/",),
    "gemini": (".gemini/agents/",),
    #: the skills folder Codex, Gemini, Copilot and Cursor share: written once for all of them
    SHARED_SKILLS: (".agents/skills/",),
}
#: each target's fixed output files outside its folders
TARGET_FILES: Final[dict[str, frozenset[str]]] = {
    **{t: frozenset() for t in TARGET_ROOTS},
    "cursor": frozenset({".cursor/rules/orkestra.mdc"}),
}
#: the instruction file each target shares with the user (only its managed block is Orkestra's)
BLOCK_FILES: Final[dict[str, str]] = {
    "agents-md": "AGENTS.md",
    "copilot": ".github/copilot-instructions.md",
}
#: the default name of a ground-truths output: an entry so named may be pruned after a rename
TRUTHS_NAME: Final = "GROUND_TRUTHS.md"
#: the managed-block markers of a file Orkestra shares with the user (CLAUDE.md)
BEGIN: Final = "<!-- orkestra:begin"
END: Final = "<!-- orkestra:end -->"
#: how much of a file is searched for the markers by `validate`
MARKER_SCAN: Final = 1 << 20
_SHA: Final = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True, slots=True)
class Entry:
    """One owned file: its target and the sha256 of what was written (None: not recorded)."""

    target: str
    sha256: str | None = None


def digest(data: bytes | None = None, *, link: str | None = None) -> str:
    """The sha256 recorded for written bytes, or for a symlink to `link` (its target text)."""
    if link is not None:
        return hashlib.sha256(b"symlink:" + os.fsencode(link)).hexdigest()
    return hashlib.sha256(data or b"").hexdigest()


def disk_digest(root: Path | str, rel: str) -> str | None:
    """The digest of what is at `rel` now (never following a symlink); None when it is absent,
    not a regular file or link, or unreadable."""
    full = f"{root}/{rel}"
    try:
        st = os.lstat(full)
        if stat.S_ISLNK(st.st_mode):
            return digest(link=os.readlink(full))  # noqa: PTH115
        if not stat.S_ISREG(st.st_mode):
            return None
        with open(full, "rb") as handle:  # noqa: PTH123
            return digest(handle.read())
    except OSError:
        return None


def load(root: Path) -> dict[str, Entry]:
    """Every entry of the lock (path -> Entry); empty when no lock exists yet.

    Every entry is kept, even one whose path is not a plain relative path, so `validate` can
    name it; `problems` says which are not plain or lie outside their target's roots.
    """
    read = _read(root)
    return {} if read is None else dict(read.entries)


def problems(
    root: Path, *, truth_outputs: Iterable[str] = (), protected: Iterable[str] = ()
) -> tuple[dict[str, Entry], dict[str, str]]:
    """(every entry of the lock, why sync may not touch each one it may not: `entry_problem`)."""
    read = _read(root)
    if read is None:
        return {}, {}
    key = (tuple(sorted(set(truth_outputs))), tuple(protected))
    found = read.problems.get(key)
    if found is None:
        outputs = set(key[0])
        found = read.problems[key] = {
            rel: problem
            for rel, entry in read.entries.items()
            if (
                problem := entry_problem(
                    rel, entry, truth_outputs=outputs, protected=key[1], listed=read.entries
                )
            )
            is not None
        }
    return dict(read.entries), dict(found)


@dataclass
class _Lock:
    """One lock's text as read, and what was made of it."""

    text: str
    data: object
    entries: dict[str, Entry]
    #: (truth outputs, protected folders) -> the entries sync may not touch, and why
    problems: dict[tuple[tuple[str, ...], tuple[str, ...]], dict[str, str]]


#: the last lock read in this process (one sync reads it for validation, the plan and the MCP
#: configs: a megabyte on a large registry), reused while the file holds the same text
_last: list[_Lock] = []


def _read(root: Path) -> _Lock | None:
    """The lock at `root` (None when there is none, or a symlink stands there); raises
    InputError when it cannot be read or parsed, or has no `files` mapping."""
    path = root / LOCK_PATH
    if not path.is_file() or path.is_symlink():
        return None
    try:
        text = jsonio.read_text(path, follow=False)  # a symlink swapped in is not followed
    except (OSError, InputError) as exc:
        raise _unreadable(exc) from None
    return _parse(text, str(path))


def entries_of(text: str) -> dict[str, Entry] | None:
    """The entries of a lock holding `text`, as `load` reads them (and kept for its next read
    of the same text); None when it does not parse."""
    try:
        return dict(_parse(text, LOCK_PATH).entries)
    except InputError:
        return None


def _unreadable(exc: Exception) -> InputError:
    return InputError(
        f"render lock is unreadable ({exc}); delete it and run `orkestra sync` again",
        file=LOCK_PATH,
    )


def _parse(text: str, source: str) -> _Lock:
    if _last and _last[0].text == text:  # the same bytes parse the same way
        return _last[0]
    try:
        data = jsonio.loads(text, source=source)
    except InputError as exc:
        raise _unreadable(exc) from None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        raise InputError(
            "render lock has no `files` mapping; delete it and re-sync", file=LOCK_PATH
        )
    entries: dict[str, Entry] = {}
    for key, value in files.items():
        if isinstance(value, dict):
            sha = value.get("sha256")
            entries[str(key)] = Entry(
                str(value.get("target", "")),
                sha if isinstance(sha, str) and _SHA.match(sha) else None,
            )
        else:  # version 1: a target name and no hash
            entries[str(key)] = Entry(str(value))
    _last[:] = [_Lock(text, data, entries, _problems_kept(entries))]
    return _last[0]


def _problems_kept(
    entries: dict[str, Entry],
) -> dict[tuple[tuple[str, ...], tuple[str, ...]], dict[str, str]]:
    """The problems found in the last lock read when `entries` has the same paths with the same
    targets (a sync that rewrote a few hashes): `entry_problem` looks at nothing else."""
    if not _last:
        return {}
    before = _last[0].entries
    if before.keys() != entries.keys() or any(
        before[rel].target != entry.target for rel, entry in entries.items()
    ):
        return {}
    return _last[0].problems


def dumps(
    files: Mapping[str, Entry], servers: Mapping[str, Mapping[str, str]] | None = None
) -> bytes:
    """Deterministic lock content for `files` and the MCP server entries written into shared
    config files (`servers`: path -> server name -> sha256 of the entry; left out when none)."""
    body: dict[str, object] = {
        "generator": "orkestra",
        "version": VERSION,
        "files": {
            path: {"target": entry.target, "sha256": entry.sha256}
            for path, entry in sorted(files.items())
        },
    }
    kept = {p: dict(sorted(n.items())) for p, n in sorted((servers or {}).items()) if n}
    if kept:
        body["mcp_servers"] = kept
    return (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def load_servers(root: Path) -> dict[str, dict[str, str]]:
    """The MCP server entries the last sync wrote (path -> name -> sha256); {} when none or the
    lock is unreadable (then nothing is removed: a user's entry is never taken for ours)."""
    try:
        read = _read(root)
    except InputError:
        return {}
    found = (
        read.data.get("mcp_servers") if read is not None and isinstance(read.data, dict) else None
    )
    if not isinstance(found, dict):
        return {}
    return {
        str(rel): {str(n): str(sha) for n, sha in names.items() if isinstance(sha, str)}
        for rel, names in found.items()
        if isinstance(names, dict)
    }


def protected_part(rel: str, extra: Iterable[str] = ()) -> str | None:
    """The protected folder `rel` lies in (`.git` at any depth), or None."""
    parts = rel.split("/")
    if any(p.casefold() == ".git" for p in parts):
        return ".git"
    lowered = rel.casefold()
    for folder in (*PROTECTED, *extra):
        base = folder.strip("/").casefold()
        if base and (lowered == base or lowered.startswith(base + "/")):
            return folder.strip("/")
    return None


def entry_problem(
    rel: str,
    entry: Entry,
    *,
    truth_outputs: Iterable[str] = (),
    protected: Iterable[str] = (),
    listed: Mapping[str, Entry] | None = None,
) -> str | None:
    """Why lock entry `rel` may not be touched by sync, or None when it lies in its roots.

    `listed` is the whole lock: an entry below another valid one (a file inside a linked vendor
    skill, which the lock lists as one symlink) would be reached through that link.
    """
    if not _plausible(rel):  # `..`, absolute, NUL, backslash: could reach outside the project
        return "it is not a plain relative path inside the project"
    folder = protected_part(rel, protected)
    if folder is not None:
        return f"it lies in '{folder}/', which Orkestra never writes"
    roots = TARGET_ROOTS.get(entry.target)
    if roots is None:
        return f"target '{entry.target}' has no output roots (unknown or not implemented)"
    above = _listed_parent(rel, listed, truth_outputs, protected) if listed else None
    if above is not None:
        return f"it lies below '{above}', which the lock lists as one file or link"
    if rel.startswith(roots) and rel not in roots:
        return None
    if rel in TARGET_FILES.get(entry.target, ()) or rel in set(truth_outputs):
        return None
    if entry.target == "claude" and rel.rsplit("/", 1)[-1] == TRUTHS_NAME:
        return None  # an earlier ground-truths output, pruned once its source moved
    shown = ", ".join(roots)
    return f"it is outside target '{entry.target}' output roots ({shown} and ground-truths outputs)"


def _listed_parent(
    rel: str, listed: Mapping[str, Entry], outputs: Iterable[str], protected: Iterable[str]
) -> str | None:
    """The nearest folder above `rel` that is itself a valid lock entry, or None."""
    cut = rel.rfind("/")
    while cut > 0:
        above = listed.get(rel[:cut])
        if above is not None and (
            entry_problem(rel[:cut], above, truth_outputs=outputs, protected=protected) is None
        ):
            return rel[:cut]
        cut = rel.rfind("/", 0, cut)
    return None


def _plausible(path: str) -> bool:
    # a tampered lock must not make sync delete something outside the project
    try:
        check_relative(path)
    except UnsafePathError:
        return False
    return True
