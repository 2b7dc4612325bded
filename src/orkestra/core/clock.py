"""Today's date, pinnable for tests and reproducible runs with ORKESTRA_TODAY=YYYY-MM-DD."""

from __future__ import annotations

import datetime as dt
import os


def today() -> dt.date:
    """The current date, or ORKESTRA_TODAY when set."""
    pinned = os.environ.get("ORKESTRA_TODAY")
    if pinned:
        return dt.date.fromisoformat(pinned)
    return dt.date.today()
