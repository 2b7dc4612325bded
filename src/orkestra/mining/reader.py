"""Commit records from one streamed, NUL-delimited `git log --name-status -z`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import IO

from orkestra.core.git import LOG_SAFETY
from orkestra.mining.gitcmd import Git
from orkestra.mining.index import Record
from orkestra.mining.signals import SignalMaker

#: one commit: RS, then NUL-separated fields; `-z --name-status` then adds `status NUL path NUL`
FORMAT = "--format=%x1e%H%x00%P%x00%an%x00%ae%x00%aI%x00%s%x00%b"
LOG_ARGS = (
    "log",
    "-z",
    "--name-status",
    "--no-renames",
    "--relative",
    "--no-color",
    *LOG_SAFETY,
    FORMAT,
)


def log(git: Git, revs: Sequence[str], istream: IO[bytes] | None = None) -> Iterator[bytes]:
    """Raw output of one `git log` over `revs` (or over the revs given on `istream`)."""
    args = [*LOG_ARGS, *revs]
    if istream is not None:
        args += ["--stdin"]
    return git.stream([*args, "--"], stdin=istream)


def records(chunks: Iterable[bytes], maker: SignalMaker) -> Iterator[Record]:
    """Parse log output into commit records, chunk by chunk, while git is still writing."""
    pending = b""
    for chunk in chunks:
        data = pending + chunk
        cut = _last_start(data)
        if cut <= 0:
            pending = data
            continue
        pending = data[cut:]
        yield from _parse(data[:cut], maker)
    if pending:
        yield from _parse(pending, maker)


def _starts_record(data: bytes, at: int) -> bool:
    """True when a record separator at `at` is followed by a full sha and a NUL."""
    sha = data[at + 1 : at + 41]
    return len(sha) == 40 and data[at + 41 : at + 42] == b"\0" and all(c in _HEX for c in sha)


_RECORD = re.compile("[0-9a-f]{40}\0")
_HEX = frozenset(b"0123456789abcdef")


def _last_start(data: bytes) -> int:
    """Offset of the last record start (an RS byte inside a message is not one)."""
    cut = data.rfind(b"\x1e")
    while cut > 0 and not _starts_record(data, cut):
        cut = data.rfind(b"\x1e", 0, cut)
    return cut


def _parse(block: bytes, maker: SignalMaker) -> Iterator[Record]:
    text = block.decode("utf-8", "replace")
    parts = text.split("\x1e")
    raws: list[str] = []
    for part in parts[1:] if not parts[0] else parts:
        if raws and not _RECORD.match(part):
            raws[-1] += "\x1e" + part  # the separator byte was part of a message
        else:
            raws.append(part)
    for raw in raws:
        yield make_record(raw.split("\0"), maker)


def make_record(fields: list[str], maker: SignalMaker) -> Record:
    """One record from the NUL-split fields of one commit."""
    sha, parents, author, email, date, subject, body = fields[:7]
    files = fields[8:-1:2] if len(fields) > 8 else []
    parent_list = parents.split()
    return {
        "sha": sha,
        "parents": parent_list,
        "author": author,
        "email": email,
        "date": date,
        "subject": subject,
        "body": body.rstrip("\n"),
        "merge": len(parent_list) > 1,
        "files": files,
        "signals": maker.signals(subject, body, files),
    }


def resignal(record: Record, maker: SignalMaker) -> Record:
    """The record with its signals recomputed (after the mining configuration changed)."""
    record["signals"] = maker.signals(record["subject"], record["body"], record["files"])
    return record
