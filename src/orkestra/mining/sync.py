"""`mine sync`: bring the commit index up to date with HEAD (full, incremental or repaired)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import tempfile
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orkestra.core.errors import InputError
from orkestra.mining import index
from orkestra.mining.noop import noop_result, sync_result

if TYPE_CHECKING:  # the no-op path must not pay for pydantic or GitPython
    from orkestra.mining.gitcmd import Git
    from orkestra.mining.signals import SignalMaker
    from orkestra.registry.models.config import Config


def load_config(root: Path) -> Config:
    """`registries/orkestra.yaml` alone (mining needs nothing else from the registry)."""
    from orkestra.registry.config_file import load_config as validated

    return validated(root)


def signal_maker(config: Config) -> SignalMaker:
    from orkestra.mining.signals import SignalMaker

    mining = config.mining
    return SignalMaker(
        mining.packages, mining.domains_by_path, mining.releasable_types, config.project
    )


def mining_digest(config: Config) -> str:
    data = {"project": config.project, **config.mining.model_dump()}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def sync(root: Path, config: Config | None = None) -> dict[str, Any]:
    """Update the commit index under `.orkestra/mining/` and say what changed.

    A no-op (HEAD and configuration unchanged) is decided from the index header alone. When the
    last indexed HEAD is an ancestor of HEAD only the new commits are read; otherwise (rewritten
    history) commits no longer reachable are dropped and the missing ones read.
    """
    fast = noop_result(root)
    if fast is not None:
        return fast
    with _early_log(root) as early:
        config = config or load_config(root)
        with _locked(root):  # two syncs at once must not both append the same commits
            return noop_result(root) or _sync(root, config, early)


class _Early:
    """A whole-history `git log` started before the configuration is read."""

    def __init__(self, head: str, shallow: list[str], first: bytes, rest: Iterator[bytes]):
        self.head, self.shallow = head, shallow
        self.first, self.rest = first, rest

    def chunks(self) -> Iterator[bytes]:
        yield self.first
        yield from self.rest


@contextlib.contextmanager
def _early_log(root: Path) -> Iterator[_Early | None]:
    """Without an index the whole history is read: git starts walking it now, while this process
    imports and validates the configuration (its output waits in the pipe). Unused (the locked
    check found another process's index), the stream is closed and git stops. Anything unusual
    (no commits, not a repository, git failing) yields None: the ordinary path reports it."""
    if index.read_header(root) is not None:
        yield None
        return
    from orkestra.mining import reader
    from orkestra.mining.gitcmd import Git

    try:
        head, shallow = Git(root).probe()
        rest = reader.log(Git(root), [head]) if head else None
        first = next(rest, b"") if rest else b""  # git runs from here on
    except InputError:
        head, rest = None, None
    try:
        yield _Early(head, shallow, first, rest) if head and rest else None
    finally:
        if isinstance(rest, Generator):
            rest.close()  # a no-op when the stream was read to its end


@contextlib.contextmanager
def _locked(root: Path) -> Iterator[None]:
    from orkestra.core.lock import locked

    with locked(index.folder(root) / "lock", root=root):
        yield


def _sync(root: Path, config: Config, early: _Early | None = None) -> dict[str, Any]:
    from orkestra.mining.gitcmd import Git

    git = Git(root)
    head, shallow = (early.head, early.shallow) if early else git.probe()
    if head is None:
        raise InputError(git.no_commits(), file=str(root))
    maker = signal_maker(config)
    digest = mining_digest(config)
    header = index.read_header(root)
    if header is None or header.shallow != shallow:  # a deepened clone shows older history
        return _full(root, git, head, maker, digest, shallow, early)
    changed = header.mining != digest
    if changed:
        try:
            _resignal(root, maker)
        except index.IndexDamaged:  # a damaged derived index is rebuilt from git
            return _full(root, git, head, maker, digest, shallow)
    if header.head == head:
        kind = "config" if changed else "noop"
        return _finish(root, head, digest, shallow, header.count, kind=kind)
    if git.is_ancestor(header.head, head):
        from orkestra.mining import reader

        new = list(reader.records(reader.log(git, [f"{header.head}..{head}"]), maker))
        new.reverse()
        index.append_records(root, new)
        count = header.count + len(new)
        return _finish(root, head, digest, shallow, count, new=len(new), kind="incremental")
    return _repair(root, git, head, maker, digest, shallow)


def _full(
    root: Path,
    git: Git,
    head: str,
    maker: SignalMaker,
    digest: str,
    shallow: list[str],
    early: _Early | None = None,
) -> dict[str, Any]:
    from orkestra.mining import reader

    index.remove(root)
    chunks = early.chunks() if early and early.head == head else reader.log(git, [head])
    # encode while git is still writing: the parse overlaps git's own work
    lines = [index.encode(r) for r in reader.records(chunks, maker)]
    lines.reverse()
    index.write_lines(root, lines)
    return _finish(root, head, digest, shallow, len(lines), new=len(lines), kind="full")


def _repair(
    root: Path, git: Git, head: str, maker: SignalMaker, digest: str, shallow: list[str]
) -> dict[str, Any]:
    from orkestra.mining import reader

    reachable = git.rev_list(head)
    wanted = set(reachable)
    lines = index.raw_lines(root)
    kept = [line for line in lines if line[:40] in wanted]
    have = {line[:40] for line in kept}
    missing = [sha for sha in reachable if sha not in have]
    new: list[index.Record] = []
    if missing:
        with tempfile.TemporaryFile() as revs:
            revs.write("".join(f"{sha}\n" for sha in missing).encode())
            revs.seek(0)
            chunks = reader.log(git, ["--no-walk=unsorted"], istream=revs)
            new = list(reader.records(chunks, maker))
        new.reverse()
    index.write_lines(root, [f"{line}\n" for line in kept] + [index.encode(r) for r in new])
    count, removed = len(kept) + len(new), len(lines) - len(kept)
    return _finish(
        root, head, digest, shallow, count, new=len(new), removed=removed, kind="rewritten"
    )


def _resignal(root: Path, maker: SignalMaker) -> None:
    from orkestra.mining import reader

    records = [reader.resignal(r, maker) for r in index.records(root)]
    index.write_records(root, records)


def _finish(
    root: Path,
    head: str,
    digest: str,
    shallow: list[str],
    count: int,
    *,
    new: int = 0,
    removed: int = 0,
    kind: str,
) -> dict[str, Any]:
    path = index.folder(root) / "commits.idx"
    size = path.stat().st_size if path.exists() else index.write_records(root, [])
    header = index.Header(head, count, index.config_digest(root), digest, size, shallow)
    index.write_header(root, header)
    return sync_result(header, new=new, removed=removed, kind=kind)
