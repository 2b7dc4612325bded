"""The usage log `knowledge/.usage.jsonl` (§8.4): one `{ts, session_id, path}` line per note read.

`path` is relative to the knowledge folder; reads count for the note of that file name
(`note_name`), wherever it has moved since. The file is union-merged in git, so lines may repeat
and the last line may be torn: the reader skips what it cannot parse.
"""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path

from orkestra.core import jsonio
from orkestra.core.errors import InputError

USAGE_FILE = ".usage.jsonl"
#: how much of the log's recent end is read (`read`)
MAX_LOG_BYTES = 16 << 20
#: a read loses half its weight every HALF_LIFE days (old reads lose standing)
HALF_LIFE = 30.0


def read(folder: Path) -> list[dict[str, str]]:
    """Every well-formed entry of the usage log (empty when there is none).

    Only its last `MAX_LOG_BYTES` (16 MiB, some 150,000 reads) are read, in bounded pieces
    (`jsonio.tail_lines`): a log grown to gigabytes never fills memory or stalls the stop hook's
    `notes index` (about 2 s and 100 MB at most), and the reads left out are the oldest (their
    weight halves every 30 days).
    A line longer than `jsonio.MAX_LINE_BYTES`, or one that is not a JSON object with a `path`,
    is skipped; the others are kept.
    """
    path = folder / USAGE_FILE
    out = []
    try:  # a regular file only: a committed symlink to /dev/zero must not be read forever
        for number, raw in enumerate(jsonio.tail_lines(path, max_bytes=MAX_LOG_BYTES), start=1):
            if raw is None or not raw.strip():  # an oversized line: never held, never parsed
                continue
            line = raw.decode("utf-8", errors="replace")
            try:
                item = jsonio.loads(line, source=str(path), line=number)
            except InputError:  # a line torn by a killed hook (or hostile): one read signal lost
                continue
            if isinstance(item, dict) and isinstance(item.get("path"), str):
                out.append({k: str(v) for k, v in item.items()})
    except FileNotFoundError:  # nothing read yet
        return []
    except OSError as exc:
        raise InputError(
            f"cannot read the usage log: {exc.strerror or exc}", file=str(path)
        ) from exc
    return out


def _day(ts: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(ts[:10])
    except ValueError:  # a stamp that is not a date carries no age: the caller ignores it
        return None


def note_name(path: str) -> str:
    """The note a logged path names: its file name without `.md`. Note names are unique in the
    knowledge base, so a note moved to another folder keeps the reads logged before."""
    return path.rsplit("/", 1)[-1].removesuffix(".md")


def standing(entries: list[dict[str, str]], today: dt.date) -> dict[str, float]:
    """note name -> decayed read score: recent reads count fully, old ones fade (half-life 30
    days)."""
    scores: dict[str, float] = {}
    for item in entries:
        day = _day(item.get("ts", ""))
        age = max(0, (today - day).days) if day else 365
        name = note_name(item["path"])
        scores[name] = scores.get(name, 0.0) + math.pow(0.5, age / HALF_LIFE)
    return scores


def last_read(entries: list[dict[str, str]]) -> dict[str, str]:
    """note name -> date (YYYY-MM-DD) of its latest read."""
    out: dict[str, str] = {}
    for item in entries:
        day = item.get("ts", "")[:10]
        name = note_name(item["path"])
        if day > out.get(name, ""):
            out[name] = day
    return out
