"""Commit records from one streamed, NUL-delimited `git log --name-status -z`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import IO

from orkestra.core.errors import InputError
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
    """Parse log output into commit records, chunk by chunk, while git is still writing.

    The output is read as a sequence of NUL-terminated tokens, in order: seven header fields
    (the first starting with RS), then `status NUL path NUL` pairs. A path is always taken as
    data, never searched for separators: git allows any byte but NUL in a path, so a file named
    RS + 40 hex digits (or anything else) cannot forge a commit or shift the fields.
    """
    parser = _Parser(maker)
    pending = b""
    for chunk in chunks:
        data = pending + chunk
        cut = data.rfind(b"\0")
        if cut < 0:
            pending = data
            continue
        pending = data[cut + 1 :]
        # a NUL never falls inside a UTF-8 sequence, so each complete token decodes on its own
        yield from parser.feed(decode_token(data[:cut]).split("\0"))
    if pending:
        yield from parser.feed([decode_token(pending)])
    yield from parser.finish()


#: a byte that is not UTF-8, as a surrogate escape (U+DC80-U+DCFF)
_ESCAPED = re.compile("[\udc80-\udcff]+")


def decode_token(data: bytes) -> str:
    """Text of git's output: UTF-8, and a byte that is not UTF-8 read as Windows-1252.

    git re-encodes a message whose commit names its encoding; a Latin-1 or Windows-1252 message
    without that header (written by an old git or another tool), or under a charset git does not
    know, comes out as its raw bytes. `git commit` itself reads such bytes as Latin-1; Windows-1252
    is Latin-1 with printable characters (`€`, curly quotes) where Latin-1 has control codes. So
    `résumé` stays readable instead of becoming U+FFFD, and the same bytes give the same text on
    every run; the five bytes Windows-1252 leaves undefined become U+FFFD.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", "surrogateescape")
        return _ESCAPED.sub(_code_page, text)


def _code_page(match: re.Match[str]) -> str:
    raw = bytes(ord(char) - 0xDC00 for char in match.group())
    return raw.decode("cp1252", "replace")


#: header fields of one commit in FORMAT (sha, parents, author, email, date, subject, body)
HEADER = 7


class _Parser:
    """The token state machine: header fields, then (status, path) pairs, then the next commit."""

    def __init__(self, maker: SignalMaker) -> None:
        self.maker = maker
        self.header: list[str] = []
        self.files: list[str] = []
        self.path_next = False  # the next token is a path, whatever it holds

    def feed(self, tokens: list[str]) -> Iterator[Record]:
        i, count = 0, len(tokens)
        while i < count:
            missing = HEADER - len(self.header)
            if missing:
                if not self.header and not tokens[i].startswith("\x1e"):
                    if tokens[i]:
                        raise InputError(f"unexpected git log output: {tokens[i][:60]!r}")
                    i += 1  # the empty token after the last commit
                    continue
                taken = tokens[i : i + missing]
                self.header += taken
                i += len(taken)
            elif self.path_next:
                self.files.append(tokens[i])
                self.path_next = False
                i += 1
            elif tokens[i].startswith("\x1e") or not tokens[i]:
                yield from self.finish()  # the token is looked at again as the next start
            else:
                self.path_next = True  # a status letter (the first one after a newline)
                i += 1

    def finish(self) -> Iterator[Record]:
        """The commit being read, if complete (the end of the output, or of one commit)."""
        if len(self.header) == HEADER and not self.path_next:
            yield make_record(self.header, self.files, self.maker)
        elif self.header:
            raise InputError("git log output ended in the middle of a commit")
        self.header, self.files, self.path_next = [], [], False


def make_record(header: list[str], files: list[str], maker: SignalMaker) -> Record:
    """One record from the header fields of one commit and its changed paths."""
    sha, parents, author, email, date, subject, body = header
    parent_list = parents.split()
    return {
        "sha": sha.removeprefix("\x1e"),
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
