"""Today's date, pinnable for tests and reproducible runs with ORKESTRA_TODAY=YYYY-MM-DD; and how
far the clock that stamps the project's files lags this process's (`files_behind`).

Standard library only at import time.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import datetime as dt
    from pathlib import Path


def today() -> dt.date:
    """The current date, or ORKESTRA_TODAY when set."""
    import datetime as dt  # (not at import: the no-op and the caches use the file clock only)

    pinned = os.environ.get("ORKESTRA_TODAY")
    if pinned:
        try:
            return dt.date.fromisoformat(pinned)
        except ValueError:
            from orkestra.core.errors import UsageError

            raise UsageError(
                f"ORKESTRA_TODAY={pinned!r} is not a date; set it as YYYY-MM-DD, or unset it"
            ) from None
    return dt.date.today()


#: the file a run writes to read the file system's clock (derived state: safe to delete)
PROBE = ".orkestra/clock"
#: a lag up to this is the kernel's coarse clock stamping files up to a tick late, which the
#: racy windows allow for already (the finest, `registry.cache.FINE_RACY_NS`, is 100 ms, the
#: tick at most 10 ms): it is not taken off
ALLOWED_NS = 50_000_000
#: the lag taken when the probe cannot be written or read (a folder or a link in its place, a
#: read-only project): wide, so that nothing recorded vouches for a change made in it
UNKNOWN_NS = 10_000_000_000


def files_behind(root: Path) -> int:
    """How many nanoseconds the clock that stamps the project's files runs behind this
    process's clock: 0 when it does not (or cannot be read). It is read as git reads it, from
    the modification time of a file written just now (`PROBE`, through `core.safewrite`): a
    network file system stamps files with its server's clock, which may lag the client's. A
    time recorded to compare with file times later (a racy window: a file changed this close
    to the recording may change again within its timestamp tick) has this taken off, so that
    a lagging server cannot make a file changed after the recording look settled before it.
    It is read against our clock after the write, so the write's own time counts as lag: an
    over-estimate, the safe side. A lag up to `ALLOWED_NS` is taken as none. On a file system
    that keeps whole seconds the lag read includes up to a second of rounding down: the
    recording is then taken as a little earlier than it was, which costs only a content check
    more. When the probe cannot be written or read, the lag is `UNKNOWN_NS`. A write, so it
    is only called by runs that record."""
    from orkestra.core import safewrite
    from orkestra.core.errors import OrkestraError

    try:
        safewrite.write_file(root, PROBE, b"", durable=False)
        stamped = os.lstat(root / PROBE).st_mtime_ns
    except (OSError, OrkestraError):  # (a read-only project records nothing either)
        return UNKNOWN_NS
    lag = time.time_ns() - stamped
    return lag if lag > ALLOWED_NS else 0


class Reading:
    """When a run began reading files: `started`, by this process's clock, and `seen()`, the
    same moment by the clock that stamps the files. The lag (`files_behind`, a write under
    `.orkestra/`) is read once, the first time the run records something that needs it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.started = time.time_ns()
        self._lag: int | None = None

    def lag(self) -> int:
        if self._lag is None:
            self._lag = files_behind(self.root)
        return self._lag

    def seen(self) -> int:
        return self.started - self.lag()
