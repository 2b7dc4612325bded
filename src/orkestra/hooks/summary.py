"""`orkestra events summary [--since]`: counts over `.orkestra/events.jsonl`."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from pathlib import Path
from typing import Any

from orkestra.core import jsonio
from orkestra.core.errors import UnsafePathError, UsageError

EVENTS = ".orkestra/events.jsonl"


def since_stamp(since: str | None, today: dt.date) -> str:
    """`YYYY-MM-DD`, `7d` or `24h` -> the earliest ISO timestamp to count ("" = all)."""
    if not since:
        return ""
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", since):
        try:
            return dt.date.fromisoformat(since).isoformat()
        except ValueError:
            raise UsageError(f"--since {since} is not a date (YYYY-MM-DD)") from None
    match = re.fullmatch(r"(\d+)([dh])", since)
    if not match:
        raise UsageError(f"--since must be YYYY-MM-DD, Nd or Nh (got '{since}')")
    amount = int(match.group(1))
    try:
        if match.group(2) == "d":
            return (today - dt.timedelta(days=amount)).isoformat()
        now = dt.datetime.combine(today, dt.datetime.now(dt.UTC).time())
        return (now - dt.timedelta(hours=amount)).strftime("%Y-%m-%dT%H:%M:%SZ")
    except OverflowError:  # reaches back before the year 1: every event is in the window
        return ""


def refuse_leaving(root: Path) -> None:
    """`UnsafePathError` when the events log, or `.orkestra/` on its way, is a symlink leading
    outside the project: what it reaches is not the hooks' log (they never write through a
    symlink) and is never read (PRODUCT.md §13)."""
    from orkestra.core.readfile import leaving

    found = leaving(root, EVENTS)
    if found is not None:
        link, real = found
        raise UnsafePathError(
            f"is a symlink to '{real}', outside the project; the events log is only read inside "
            "it (remove the link: the hooks then start a new log)",
            file=link,
        )


def summary(root: Path, since: str | None, today: dt.date) -> dict[str, Any]:
    """Counts by event, tool_type, mcp_server, bash_cli, subagent_type; failures; sessions."""
    start = since_stamp(since, today)
    keys = (
        "event",
        "tool_type",
        "tool_name",
        "mcp_server",
        "bash_cli",
        "subagent_type",
        "agent_tool",
    )
    counts: dict[str, Counter[str]] = {k: Counter() for k in keys}
    total = failures = skipped = 0
    sessions: set[str] = set()
    failed_tools: Counter[str] = Counter()
    refuse_leaving(root)
    for line in jsonio.iter_jsonl(root / EVENTS):  # missing file: no lines
        if line.error is not None or line.torn:  # broken, too deep or cut off mid-write
            skipped += 1
            continue
        item = line.data
        if not isinstance(item, dict) or str(item.get("ts", "")) < start:
            continue
        total += 1
        sessions.add(str(item.get("session_id")))
        for key in keys:
            if item.get(key):
                counts[key][str(item[key])] += 1
        if item.get("failed"):
            failures += 1
            failed_tools[str(item.get("tool_name"))] += 1
    return {
        "since": start or None,
        "total": total,
        "sessions": len(sessions),
        "failures": failures,
        "failures_by_tool": dict(failed_tools.most_common()),
        **{
            f"by_{k}": dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))
            for k, c in counts.items()
        },
        "unreadable_lines": skipped,
    }
