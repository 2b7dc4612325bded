"""The cold-load helper (`registry.prefetch`): a load that shares its agent and skill files
with a forked helper gives exactly what one process gives, and leaves the same parse cache."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orkestra.registry import cache, prefetch
from orkestra.registry.loader import load
from tests.conftest import read_json_file
from tests.forking import another_thread, no_child_left, recorded_kills, refuse_fork
from tests.registry.helpers import scaffold
from tests.registry.test_cache import AGENT, EDITS, SKILL, _apply, _write, snap

COUNT = 12
#: the helper's share: every other one of the agent and skill files, in load order (the
#: scaffold's example agent and skill, then COUNT of each): the even-numbered `many-` files
#: and the example skill
SHARE = COUNT + 1


def _project(root: Path) -> Path:
    scaffold(root)
    for n in range(COUNT):
        _write(root, f"registries/agents/many-{n:02d}.yaml", AGENT.format(
            name=f"many-{n:02d}", body=n, scope="s0", skill=f"many-{(n + 1) % COUNT:02d}"))  # fmt: skip
        _write(root, f"registries/skills/domains/many-{n:02d}.yaml",
               SKILL.format(name=f"many-{n:02d}", body=n, scope="s1"))  # fmt: skip
    _write(root, "registries/scopes.yaml",
           "scopes:\n  s0:\n    description: Zero.\n  s1:\n    description: One.\n")  # fmt: skip
    return root


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many entries each load's helper gave (`MIN_FILES` lowered for a small project)."""
    monkeypatch.setattr(prefetch, "MIN_FILES", 4)
    counts: list[int] = []
    real = prefetch.Prefetch.stop

    def counting(self: prefetch.Prefetch) -> None:
        if self.helper.pid > 0:  # once per helper, however often it is stopped
            counts.append(self.taken)
        real(self)

    monkeypatch.setattr(prefetch.Prefetch, "stop", counting)
    return counts


def _entries(root: Path) -> dict[str, Any]:
    """The parse cache's entries without what differs between two loads of one tree (the time
    each file was looked at)."""
    out = {}
    for shard in sorted((root / cache.CACHE).glob("*.json")):
        for rel, entry in read_json_file(shard)["files"].items():
            out[rel] = [*entry[:5], *entry[6:8]]
    return out


def _cold(root: Path) -> None:
    shutil.rmtree(root / ".orkestra", ignore_errors=True)


def test_a_cold_load_with_a_helper_is_the_load_of_one_process(
    tmp_path: Path, taken: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "p")
    alone = snap(load(root, use_cache=False))
    _cold(root)
    with monkeypatch.context() as m:
        m.setattr(prefetch, "MIN_FILES", 10**9)
        load(root)
    expected = _entries(root)
    _cold(root)
    assert snap(load(root)) == alone
    assert taken == [SHARE]
    assert _entries(root) == expected
    no_child_left()
    assert snap(load(root)) == alone and taken == [SHARE]  # a warm cache: no helper


def test_a_file_changed_after_the_helper_read_it_is_parsed_again(
    tmp_path: Path, taken: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "p")
    changed = "registries/skills/domains/many-04.yaml"  # one of the helper's
    real = prefetch.Prefetch.offer

    def edit_first(self: prefetch.Prefetch, rel: str, parse_cache: cache.ParseCache) -> None:
        real(self, rel, parse_cache)
        if rel == changed:  # after the helper sent its entry, before the parent looks it up
            (root / rel).write_text(SKILL.format(name="many-04", body="later", scope="s1"))

    monkeypatch.setattr(prefetch.Prefetch, "offer", edit_first)
    reg = load(root)
    assert "later" in reg.skills["many-04"].description
    monkeypatch.undo()
    assert snap(reg) == snap(load(root, use_cache=False))
    no_child_left()


def test_a_helper_that_dies_leaves_the_rest_to_the_parent(
    tmp_path: Path, taken: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "p")
    alone = snap(load(root, use_cache=False))
    real = prefetch._serve

    def dying(parse_cache: cache.ParseCache, owned: list[Any], helper: Any) -> None:
        real(parse_cache, owned[:3], helper)
        os._exit(3)

    monkeypatch.setattr(prefetch, "_serve", dying)
    assert snap(load(root)) == alone
    assert taken == [3]
    no_child_left()


def test_entries_sent_out_of_step_are_never_used(
    tmp_path: Path, taken: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "p")
    alone = snap(load(root, use_cache=False))
    real = prefetch._serve

    def shuffled(parse_cache: cache.ParseCache, owned: list[Any], helper: Any) -> None:
        real(parse_cache, [*owned[2:], *owned[:2]], helper)  # the first two sent last

    monkeypatch.setattr(prefetch, "_serve", shuffled)
    asked = recorded_kills(monkeypatch)
    assert snap(load(root)) == alone
    assert taken == [0]  # the first line is for another file: the parent went on alone
    assert len(asked) == 1 and asked[0] > 0  # stopped once, though asked twice
    no_child_left()


def test_a_broken_file_among_the_helper_s_is_reported_as_one_process_reports_it(
    tmp_path: Path, taken: list[int]
) -> None:
    root = _project(tmp_path / "p")
    _write(root, "registries/skills/domains/many-02.yaml", "metadata: [unclosed\n")
    _write(root, "registries/agents/many-06.yaml", "name: many-06\ncolour: 7\n")
    alone = snap(load(root, use_cache=False))
    _cold(root)
    assert snap(load(root)) == alone
    assert {f.file for f in load(root).findings} >= {
        "registries/skills/domains/many-02.yaml", "registries/agents/many-06.yaml"}  # fmt: skip
    assert taken[0] == SHARE  # a file's findings are cached with it, as on any load
    no_child_left()


def test_a_file_the_parent_passes_over_does_not_put_the_helper_out_of_step(
    tmp_path: Path, taken: list[int]
) -> None:
    root = _project(tmp_path / "p")
    outside = tmp_path / "outside.yaml"
    outside.write_text((root / "registries/agents/many-02.yaml").read_text())
    (root / "registries/agents/many-02.yaml").unlink()
    (root / "registries/agents/many-02.yaml").symlink_to(outside)  # refused, never read
    alone = snap(load(root, use_cache=False))
    assert any(f.code == "ORK045" for f in load(root, use_cache=False).findings)
    _cold(root)
    assert snap(load(root)) == alone
    assert taken == [SHARE - 1]  # every entry but the refused file's
    no_child_left()


def test_no_helper_while_another_thread_runs(
    tmp_path: Path, taken: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "p")

    refuse_fork(monkeypatch, "forked with a second thread running")
    with another_thread():
        load(root)
    assert taken == []


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(st.tuples(EDITS, st.integers(0, 50)), min_size=1, max_size=5))
def test_cold_loads_with_a_helper_equal_loads_alone_over_random_edits(
    tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, int]]
) -> None:
    root = _project(tmp_path_factory.mktemp("edits") / "p")
    saved = prefetch.MIN_FILES
    prefetch.MIN_FILES = 4
    try:
        for edit, n in steps:
            _apply(root, edit, n)
            _cold(root)
            assert snap(load(root)) == snap(load(root, use_cache=False))
    finally:
        prefetch.MIN_FILES = saved


def test_the_file_clock_is_read_by_the_parent_once_and_the_helper_s_entries_use_it(
    tmp_path: Path, taken: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's clock 10 s behind ours: the lag is read (a write under `.orkestra/`) once,
    by the parent before the fork, so the helper writes nothing; every entry, the helper's
    too, is recorded by the file system's clock, so none vouches for a change just made."""
    import time

    from orkestra.core import clock

    root = _project(tmp_path / "p")
    calls = tmp_path / "calls"
    real_behind, real_now = clock.files_behind, time.time_ns

    def counted(at: Path) -> int:
        with calls.open("a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()}\n")
        return real_behind(at)

    monkeypatch.setattr(clock, "files_behind", counted)
    monkeypatch.setattr(time, "time_ns", lambda: real_now() + 5 * cache.RACY_NS)
    load(root)
    assert taken == [SHARE]
    assert calls.read_text(encoding="utf-8").split() == [str(os.getpid())]
    entries = [
        entry
        for shard in sorted((root / cache.CACHE).glob("*.json"))
        for entry in read_json_file(shard)["files"].values()
    ]
    # recorded by the file system's clock, not by the process's (10 s ahead): a recording by
    # the wrong clock would vouch for every file just written; this bound holds however slow
    # the machine (a check of `vouched` itself failed under load, past the 0.1 s window)
    after = real_now()
    assert len(entries) > SHARE and all(entry[5] <= after + cache.RACY_NS for entry in entries)
    no_child_left()
