"""When a command may fork a helper process to use a second core (standard library only).

A fork copies the process as it is: a thread holding a lock in the parent would leave that lock
held forever in the child, so a helper is forked only from the main thread with no other thread
running, on POSIX, and only where a second core exists to run it.
"""

from __future__ import annotations

import os
import sys
import threading


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    """True where a fork copies nothing half-done and a second core can run the helper."""
    return (
        hasattr(os, "fork")
        and sys.platform != "win32"
        and threading.current_thread() is threading.main_thread()
        and threading.active_count() == 1
        and cores() >= 2
    )
