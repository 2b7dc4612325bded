"""Red-team checks of the load-path speed-ups: the sharded parse cache, the reused lstat and the
one-fstat reader (`core.readfile.read_regular`). Each attack compares with a cold load, or with
what the reader did before (whole file, read to its end)."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import jsonio, readfile, yamlio
from orkestra.core.errors import InputError
from orkestra.registry import cache
from orkestra.registry.loader import load
from tests.conftest import read_json_file, write_json_file
from tests.registry.helpers import scaffold
from tests.registry.test_cache import _apply, _entries, _shards, snap

AGENT_REL = "registries/agents/example-agent.yaml"


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    return scaffold(tmp_path / "p")


def _cold(root: Path) -> dict[str, Any]:
    return snap(load(root, use_cache=False))


# --- read_regular: the same text the whole-file read gave ---------------------------------------


def _short_reads(monkeypatch: pytest.MonkeyPatch, most: int) -> None:
    """Every read returns at most `most` bytes (a FUSE or network file system may)."""
    real = os.read
    monkeypatch.setattr(readfile.os, "read", lambda fd, n: real(fd, min(n, most)))


@pytest.mark.parametrize("size", [1, 100, 5000, (1 << 16) + 7])
def test_short_reads_before_the_end_still_give_the_whole_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    path = tmp_path / "a.yaml"
    data = (b"name: x\n" * size)[:size]
    path.write_bytes(data)
    _short_reads(monkeypatch, 7)
    assert readfile.read_regular(path, max_bytes=1 << 20) == (data, size)
    assert yamlio.read_text(path) == data.decode()


def test_a_file_whose_size_says_zero_is_read_to_its_end(tmp_path: Path) -> None:
    """`/proc` files report size 0 and read a page at a time; the reader before read to EOF."""
    proc = Path("/proc/self/smaps")
    if not proc.is_file():
        pytest.skip("no /proc")
    raw, size = readfile.read_regular(proc, max_bytes=1 << 24)
    assert size == len(raw) > 4096  # more than one page: not cut at the first short read
    assert raw.endswith(b"\n")


@pytest.mark.parametrize(
    ("data", "limit"),
    [
        (b"", 0),
        (b"", 10),
        (b"a", 0),
        (b"abc", 3),
        (b"abcd", 3),
        (b"\xef\xbb\xbfname: a\n", 100),
        (b"\xef\xbb\xbf", 3),
        (b"a: 1\nb: 2\nc: \xff\n", 100),
        (b"\xef\xbb\xbfa: 1\n\xc3\n", 100),
        (b"a\x00b", 100),
    ],
)
def test_yaml_and_json_readers_answer_as_the_whole_file_reads_did(
    tmp_path: Path, data: bytes, limit: int
) -> None:
    path = tmp_path / "f"
    path.write_bytes(data)
    assert _outcome(lambda: yamlio.read_text(path, max_bytes=limit)) == _old_yaml(path, limit)
    assert _outcome(lambda: jsonio.read_text(path, max_bytes=limit)) == _old_json(path, limit)


def _outcome(run: Callable[[], str]) -> Any:
    try:
        return run()
    except InputError as exc:
        return ("error", exc.message, exc.line)


def _old_yaml(path: Path, limit: int) -> Any:
    """`yamlio.read_text` as it was before `read_regular` (open_regular, fstat, read all)."""
    try:
        with readfile.open_regular(path) as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > limit:
                return (
                    "error",
                    f"file is {size} bytes, over the {limit}-byte limit; split it",
                    None,
                )
            raw = handle.read()
    except OSError as exc:
        return ("error", f"cannot read file: {exc.strerror or exc}", None)
    if b"\x00" in raw:  # named at the NUL's line since, as YAML numbers lines
        message = "binary file (contains NUL bytes); expected UTF-8 text: remove the NUL byte"
        return ("error", message, raw[: raw.index(b"\x00")].count(b"\n") + 1)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return ("error", f"invalid UTF-8 at byte {exc.start}; save the file as UTF-8", line)


def _old_json(path: Path, limit: int) -> Any:
    with readfile.open_regular(path) as handle:
        raw = handle.read(limit + 1)
    if len(raw) > limit:
        return ("error", f"larger than the {limit}-byte limit for JSON input", None)
    return _outcome(lambda: jsonio.decode(raw.removeprefix(b"\xef\xbb\xbf"), source=str(path)))


def test_fifo_and_dev_zero_link_are_refused_without_hanging(tmp_path: Path, alarm: None) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    zero = tmp_path / "zero"
    zero.symlink_to("/dev/zero")
    for path in (fifo, zero):
        with pytest.raises(OSError, match="not a regular file"):
            readfile.read_regular(path, max_bytes=10)
        with pytest.raises(InputError, match="not a regular file"):
            yamlio.read_text(path)
    with pytest.raises(InputError, match="cannot read"):
        jsonio.read_text(zero, follow=False)  # a symlink at the path itself: refused


# --- the sharded cache under damage -------------------------------------------------------------


def _shard_file(root: Path, rel: str = AGENT_REL) -> Path:
    return root / cache.shard_path(cache.shard_of(rel))


def _plant(shard: Path, kind: str, tmp: Path) -> None:
    shard.unlink()
    if kind == "folder":
        shard.mkdir()
        (shard / "x.json").write_text("{}")
    elif kind == "fifo":
        os.mkfifo(shard)
    elif kind == "dev-zero":
        shard.symlink_to("/dev/zero")
    elif kind == "dangling":
        shard.symlink_to(tmp / "nowhere")


@pytest.mark.parametrize("kind", ["folder", "fifo", "dev-zero", "dangling"])
def test_a_shard_that_is_no_file_neither_hangs_nor_changes_the_load(
    proj: Path, tmp_path: Path, alarm: None, kind: str
) -> None:
    load(proj)
    _plant(_shard_file(proj), kind, tmp_path)
    expected = _cold(proj)
    for _ in range(2):
        assert snap(load(proj)) == expected
    assert not (tmp_path / "nowhere").exists()  # a dangling link is never written through


def test_a_forged_entry_in_every_other_shard_is_never_replayed(proj: Path) -> None:
    """Its own shard damaged and a conflicting copy (valid identity, no agent) in all the
    others: none of the copies is used."""
    load(proj)
    files = _entries(proj)
    forged = list(files[AGENT_REL])
    forged[8] = []  # would drop the agent if replayed
    mine = cache.shard_of(AGENT_REL)
    for n, shard in enumerate(_shards(proj)):
        if n == mine:
            shard.write_text("{not json")
            continue
        data = read_json_file(shard)
        data["files"][AGENT_REL] = forged
        write_json_file(shard, data)
    expected = _cold(proj)
    assert "example-agent" in expected["agents"]
    for _ in range(2):
        assert snap(load(proj)) == expected
    for n, shard in enumerate(_shards(proj)):  # every copy gone, the right one back
        held = read_json_file(shard)["files"]
        assert (AGENT_REL in held) == (n == mine)


def test_interleaved_loads_with_different_edits_agree_with_a_cold_load(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Load A reads the shards, then B edits, loads and saves, then A saves its older view."""
    load(proj)
    real_save = cache.ParseCache.save
    inner: list[bool] = []

    def save_after_another(self: cache.ParseCache) -> None:
        if not inner:
            inner.append(True)
            _apply(proj, "agent", 7)
            _apply(proj, "skill", 8)
            load(proj)  # B: its edits saved first
        real_save(self)

    _apply(proj, "agent", 1)
    monkeypatch.setattr(cache.ParseCache, "save", save_after_another)
    load(proj)  # A
    monkeypatch.undo()
    expected = _cold(proj)
    for _ in range(2):
        assert snap(load(proj)) == expected


_DAMAGE = ["delete", "corrupt", "foreign", "swap", "fifo", "folder", "empty"]
_EDITS = ["agent", "skill", "bad-yaml", "bad-schema", "wrong-stem", "delete", "scopes", "duplicate"]


def _damage(root: Path, rng: random.Random) -> None:
    shards = [root / cache.shard_path(n) for n in range(cache.SHARDS)]
    shard = rng.choice(shards)
    what = rng.choice(_DAMAGE)
    if not shard.is_file():
        return
    if what == "delete":
        shard.unlink()
    elif what == "corrupt":
        shard.write_bytes(shard.read_bytes()[: rng.randrange(max(shard.stat().st_size, 1))])
    elif what == "foreign":
        data = read_json_file(shard)
        data["version"] = "0|foreign"
        write_json_file(shard, data)
    elif what == "swap":  # two shards exchange their files: every entry in the wrong shard
        other = rng.choice(shards)
        if other.is_file():
            tmp = shard.with_suffix(".swap")
            shard.rename(tmp)
            other.rename(shard)
            tmp.rename(other)
    elif what in ("fifo", "folder"):
        shard.unlink()
        if what == "fifo":
            os.mkfifo(shard)
        else:
            shard.mkdir()
    elif what == "empty":
        shard.write_text(json.dumps({"version": cache.stamp(), "files": {}}))


@pytest.mark.parametrize("seed", range(6))
def test_random_edits_and_shard_damage_always_give_the_cold_load(
    tmp_path: Path, alarm: None, seed: int
) -> None:
    rng = random.Random(seed)
    root = scaffold(tmp_path / "p")
    load(root)
    for step in range(6):
        if rng.random() < 0.6:
            _apply(root, rng.choice(_EDITS), rng.randrange(50))
        if rng.random() < 0.6:
            _damage(root, rng)
        expected = _cold(root)
        assert snap(load(root)) == expected, (seed, step)
        assert snap(load(root)) == expected, (seed, step)
