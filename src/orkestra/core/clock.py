"""Today's date, pinnable for tests and reproducible runs with ORKESTRA_TODAY=YYYY-MM-DD."""

from __future__ import annotations

import datetime as dt
import os


def today() -> dt.date:
    """The current date, or ORKESTRA_TODAY when set."""
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
