"""The committed lock file listing the files `sync` owns (so pruning and `--check` work on a clean
clone, unlike the gitignored `.orkestra/` cache), with the sha256 of what was written.

The lock itself (format, reading, output roots) is `registry.render_lock`, so that `validate` can
report entries that reach outside their target's roots; this module is render's name for it.
"""

from __future__ import annotations

from orkestra.registry.render_lock import (
    LOCK_PATH,
    VERSION,
    Entry,
    digest,
    disk_digest,
    dumps,
    load,
    load_servers,
    load_unmarked,
    problems,
)

__all__ = [
    "LOCK_PATH",
    "VERSION",
    "Entry",
    "digest",
    "disk_digest",
    "dumps",
    "load",
    "load_servers",
    "load_unmarked",
    "problems",
]
