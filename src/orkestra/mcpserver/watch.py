"""Change notification for the warm workspace: "did anything under these folders change?"

On Linux an inotify descriptor (through ctypes, no dependency) watches every folder of the
sources; the question is then one non-blocking read. Elsewhere, or when inotify cannot be set up
(no libc symbol, the watch limit reached), `Watcher` always answers "maybe", and the caller
compares file identities, as it would without a watcher. The answer is never "no" by mistake:
a queue overflow, a new folder or any error answers "maybe".
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from collections.abc import Iterable

_IN_NONBLOCK = 0o4000
_IN_CLOEXEC = 0o2000000
#: content and name changes, in the folder or of the folder itself
_MASK = (
    0x00000002  # IN_MODIFY
    | 0x00000004  # IN_ATTRIB
    | 0x00000008  # IN_CLOSE_WRITE
    | 0x00000040  # IN_MOVED_FROM
    | 0x00000080  # IN_MOVED_TO
    | 0x00000100  # IN_CREATE
    | 0x00000200  # IN_DELETE
    | 0x00000400  # IN_DELETE_SELF
    | 0x00000800  # IN_MOVE_SELF
)


class Watcher:
    """`maybe_changed()`: False only when inotify proves nothing changed since the last call."""

    def __init__(self) -> None:
        self._fd = -1
        self._watched: set[str] = set()
        self._libc = _libc()
        if self._libc is not None:
            fd = self._libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
            self._fd = fd if fd >= 0 else -1

    @property
    def active(self) -> bool:
        return self._fd >= 0

    def watch(self, folders: Iterable[str]) -> None:
        """Add watches for `folders` not watched yet; a failure turns the watcher off."""
        if self._libc is None or self._fd < 0:
            return
        for folder in folders:
            if folder in self._watched:
                continue
            if self._libc.inotify_add_watch(self._fd, os.fsencode(folder), _MASK) < 0:
                self.close()  # e.g. the user's watch limit: identity checks on every call
                return
            self._watched.add(folder)

    def maybe_changed(self) -> bool:
        """Drain the queued events; True when there were any (or inotify is off)."""
        if self._fd < 0:
            return True
        seen = False
        while True:
            try:
                data = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                return seen
            except OSError:  # the descriptor broke: fall back to identity checks
                self.close()
                return True
            if not data:
                return True
            seen = True

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
        self._fd = -1


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        libc.inotify_init1.argtypes = [ctypes.c_int]
        libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
    except (OSError, AttributeError):  # no libc or no inotify: the caller checks identities
        return None
    return libc


def folders(root: str, tops: Iterable[str]) -> list[str]:
    """Every folder at and below each of `tops` (relative to `root`) that exists, following the
    symlinked folders the sources may use (vendor roots)."""
    out = []
    for top in tops:
        base = os.path.join(root, top)  # noqa: PTH118 - str paths for os.walk
        if not os.path.isdir(base):  # noqa: PTH112
            continue
        for dirpath, dirnames, _ in os.walk(base, followlinks=True):
            dirnames[:] = [d for d in dirnames if d not in (".git", "node_modules")]
            out.append(dirpath)
    return out
