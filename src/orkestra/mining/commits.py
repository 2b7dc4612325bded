"""Looking commits up in the index: short shas resolved, records decoded on demand."""

from __future__ import annotations

import re
from pathlib import Path

from orkestra.core.errors import NotFound, UsageError
from orkestra.mining import index
from orkestra.mining.index import Record

_HEX = re.compile(r"[0-9a-f]{4,40}")


class CommitLookup:
    """The indexed commits of one project (run `mine sync` first)."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._lines = {line[:40]: line for line in index.raw_lines(root)}
        self._sorted: list[str] | None = None

    def __len__(self) -> int:
        return len(self._lines)

    def __contains__(self, sha: object) -> bool:
        return sha in self._lines

    def shas(self) -> list[str]:
        return list(self._lines)

    def resolve(self, sha: str, *, file: str | None = None, line: int | None = None) -> str:
        """The full sha for a full or abbreviated one (at least 4 hex digits)."""
        given, sha = sha, sha.strip().lower()
        if sha in self._lines:
            return sha
        if _HEX.fullmatch(sha) is None:  # the message shows what was typed (`HEAD`, not `head`)
            raise UsageError(
                f"{given!r} is not a commit sha (4-40 hex digits; for a ref such as HEAD give "
                "`git rev-parse HEAD`)",
                file=file,
                line=line,
            )
        hits = self._prefixed(sha)
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise UsageError(
                f"sha {sha} is ambiguous ({len(hits)} commits); give more digits",
                file=file,
                line=line,
            )
        raise NotFound(
            f"commit {sha} is not in the commit index of this branch; "
            "check the sha or run `orkestra mine sync`",
            file=file,
            line=line,
        )

    def _prefixed(self, prefix: str) -> list[str]:
        """Indexed shas starting with `prefix` (a sorted list, built once: a batch of abbreviated
        shas costs a binary search each, not a pass over the history each)."""
        import bisect

        if self._sorted is None:
            self._sorted = sorted(self._lines)
        at = bisect.bisect_left(self._sorted, prefix)
        hits = []
        while at < len(self._sorted) and self._sorted[at].startswith(prefix):
            hits.append(self._sorted[at])
            at += 1
        return hits

    def record(self, sha: str) -> Record:
        return index.decode(self._lines[sha], root=self._root)
