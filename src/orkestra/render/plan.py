"""What a render produces (`Output`) and what applying it would change (`RenderPlan`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from orkestra.registry.render_lock import Entry


@dataclass(frozen=True, slots=True)
class Output:
    """One planned file (bytes) or symlink (relative target), relative to the project root."""

    path: str
    data: bytes | None = None
    link: str | None = None
    executable: bool = False
    target: str = "claude"
    #: a file shared with the user (CLAUDE.md with its managed block): updated, never owned
    shared: bool = False
    #: a shared file left empty once Orkestra's block is taken out (its target was removed): it
    #: is deleted when its bytes are still `data`, the empty text it was read as
    remove: bool = False
    #: a shared file with Orkestra's block taken out (its target, or CLAUDE.md's block, no longer
    #: configured): the next render has no output there at all
    withdrawn: bool = False
    #: for a shared file, the sha256 of the bytes it was made from ("" when it did not exist):
    #: the write checks the file still holds them, or the user's edit since would be lost
    base: str | None = None
    #: for a shared file, why writing it would replace something of the user's (an MCP server
    #: entry Orkestra did not write, or edited since): a conflict, written only with `--force`
    conflict: str | None = None


@dataclass
class RenderPlan:
    """The difference between the rendered outputs and the disk, path lists sorted."""

    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    #: paths that exist, were not written by Orkestra and differ: never overwritten
    conflicts: list[str] = field(default_factory=list)
    #: outputs by path, for the writer
    outputs: dict[str, Output] = field(default_factory=dict)
    #: conflicts that are owned-but-edited files whose source is gone (`--force` releases them
    #: from the lock, never deletes them)
    orphans: set[str] = field(default_factory=set)
    #: owned files whose source is gone, still holding the bytes the lock records, that carry
    #: no Orkestra mark (`writer._authored`): kept on disk, and the lock forgets them
    released: list[str] = field(default_factory=list)
    #: the lock's `unmarked_targets` before this sync (None: a lock from before the mark)
    unmarked_before: frozenset[str] | None = None
    #: the lock's proven-or-not entries before this sync, and the lock it writes (for a partial
    #: lock when the OS fails mid-apply)
    lock_before: dict[str, Entry] = field(default_factory=dict)
    lock_after: dict[str, Entry] = field(default_factory=dict)
    #: the MCP server entries the lock records after this sync (path -> name -> digest), and
    #: before it: after a failure, each config file keeps those of the bytes it holds
    lock_servers: dict[str, dict[str, str]] = field(default_factory=dict)
    servers_before: dict[str, dict[str, str]] = field(default_factory=dict)
    #: what each file to write or delete held when it was read (sha256; None: absent), checked
    #: again just before the write: an edit made while sync ran is never overwritten
    expected: dict[str, str | None] = field(default_factory=dict)
    #: the folders looked at for stale temporary files that held none when the plan was made:
    #: listed then, or `vouched` for by a record (`render.noop`)
    clean: set[str] = field(default_factory=set)
    #: the folders a record vouched for, not listed (their identity still the recorded one)
    vouched: set[str] = field(default_factory=set)
    #: the folders looked at for stale temporary files, or vouched for ("" the project folder)
    scanned: set[str] = field(default_factory=set)
    #: how a refusal for `conflicts` ends: the target each blocks, the others' `sync --target`
    blocking: str = ""

    @property
    def changes(self) -> list[str]:
        return sorted([*self.created, *self.updated, *self.deleted])

    def has_changes(self) -> bool:
        return bool(self.created or self.updated or self.deleted or self.conflicts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "created": self.created,
            "updated": self.updated,
            "deleted": self.deleted,
            "unchanged": self.unchanged,
            "conflicts": self.conflicts,
            "released": self.released,
        }
