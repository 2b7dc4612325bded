"""The render helper (`render.helper`): a sync that misses the render cache often shares its
renders with a forked process, and its outputs are always those of one process alone."""

from __future__ import annotations

import asyncio
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import forking, yamlio
from orkestra.core.errors import InputError
from orkestra.registry import prefetch
from orkestra.render import helper, noop
from orkestra.render import sync as sync_module
from orkestra.render.environment import Templates
from orkestra.render.sync import KNOWN_TARGETS, sync
from orkestra.scaffold import init_project
from tests.conftest import write
from tests.forking import another_thread, no_child_left, recorded_kills, refuse_fork
from tests.render.conftest import _skill, put

AGENTS = 14


def _project(root: Path) -> Path:
    """Agents and skills enough for a helper (with `FORK_AT` lowered), for every target: the
    agents' skill lists and composed prompts are renders that go into other renders."""
    init_project(root)
    config = yamlio.load_mapping(root / "registries" / "orkestra.yaml")
    put(root, "registries/orkestra.yaml", {**config, "targets": list(KNOWN_TARGETS)})
    skills = [f"skill-{n:02d}" for n in range(AGENTS)]
    for name in skills:
        put(root, f"registries/skills/project/{name}.yaml",
            _skill(name, "K4", f"Skill {name}. Use when {name} matters to the work."))  # fmt: skip
    put(root, "registries/scopes.yaml",
        {"scopes": {"example": {"description": "Example scope",
                                "primary_skills": ["example-skill", *skills]}}})  # fmt: skip
    for n in range(AGENTS):
        put(root, f"registries/agents/agent-{n:02d}.yaml", {
            "name": f"agent-{n:02d}",
            "description": f"Agent {n}. Use when agent {n} is the one for the job.",
            "scopes": ["example"],
            "skills": skills[: n + 1],
            "prompt": f"You are agent {n}.\n",
        })  # fmt: skip
    return root


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.relative_to(root).as_posix().startswith(".orkestra/")
    }


@pytest.fixture
def projects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Two copies of one project: one synced by one process, one with a helper."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    alone = _project(tmp_path / "alone")
    shared = tmp_path / "shared"
    shutil.copytree(alone, shared)
    return alone, shared


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The keys of the texts the parent took from a helper (the helper lowered to 3 misses)."""
    monkeypatch.setattr(helper, "FORK_AT", 3)
    keys: list[bytes] = []
    real = helper.Helper.take

    def counting(self: helper.Helper, key: bytes) -> str | None:
        text = real(self, key)
        if text is not None:
            keys.append(key)
        return text

    monkeypatch.setattr(helper.Helper, "take", counting)
    return keys


def _alone(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(helper, "FORK_AT", 10**9)
        sync(root)


def test_a_shared_render_writes_what_one_process_writes(
    projects: tuple[Path, Path], taken: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    alone, shared = projects
    _alone(alone, monkeypatch)
    report = sync(shared)
    assert len(taken) >= AGENTS  # half of the whole-file renders after the third miss
    assert report.written == len(_tree(alone)) - len(_tree(_project_sources(alone)))
    assert _tree(shared) == _tree(alone)
    no_child_left()
    assert sync(shared).written == 0  # and the render cache holds the helper's texts too


def _project_sources(root: Path) -> Path:
    """`root` without what sync wrote (for counting)."""
    copy = root.parent / f"{root.name}-sources"
    if not copy.exists():
        shutil.copytree(root, copy, ignore=shutil.ignore_patterns(
            ".claude", ".codex", ".cursor", ".gemini", ".github", ".agents", ".orkestra",
            ".render-lock.json", "CLAUDE.md", "AGENTS.md", "GEMINI.md", "GROUND_TRUTHS.md",
            ".mcp.json"))  # fmt: skip
    return copy


def test_a_helper_that_cannot_render_leaves_the_rest_to_the_parent(
    projects: tuple[Path, Path], taken: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    alone, shared = projects
    _alone(alone, monkeypatch)
    real = Templates._render
    calls: list[int] = []

    def failing_in_the_helper(self: Templates, *args: Any) -> str:
        if self.helper is not None and self.helper.child:
            calls.append(1)
            if len(calls) > 2:  # its third render fails: it sends "nothing" and ends
                raise RuntimeError("the helper broke")
        return real(self, *args)

    monkeypatch.setattr(Templates, "_render", failing_in_the_helper)
    sync(shared)
    assert 1 <= len(taken) <= 2
    assert _tree(shared) == _tree(alone)
    no_child_left()


def test_a_text_sent_for_another_render_is_never_used(
    projects: tuple[Path, Path], taken: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    alone, shared = projects
    _alone(alone, monkeypatch)
    real = helper.Helper.answer

    def out_of_step(self: helper.Helper, key: bytes, text: str | None) -> None:
        if self.misses > 4:  # from its third text on, each answers another render
            key = bytes(32 - len(key)) + key[::-1]
            text = "not this render's text\n"
        real(self, key, text)

    monkeypatch.setattr(helper.Helper, "answer", out_of_step)
    sync(shared)
    assert len(taken) == 2
    assert _tree(shared) == _tree(alone)
    no_child_left()


def test_a_template_error_in_the_helper_s_half_is_raised_as_one_process_raises_it(
    projects: tuple[Path, Path], taken: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    alone, shared = projects
    bundled = (Path(__file__).parents[2] / "templates" / "claude" / "agent.md.j2").read_text()
    broken = "{% if name == 'agent-09' %}{{ no_such_value }}{% endif %}\n" + bundled
    errors = []
    for root in (alone, shared):
        write(root, "templates/claude/agent.md.j2", broken)
        before = _tree(root)
        with pytest.raises(InputError) as caught:
            if root == alone:
                _alone(root, monkeypatch)
            else:
                sync(root)
        errors.append((caught.value.message, Path(caught.value.file or "").name, caught.value.line))
        assert _tree(root) == before  # nothing written
    assert errors[0] == errors[1] and "no_such_value" in errors[0][0]
    assert taken  # the helper did answer renders before the failing one
    no_child_left()


def test_no_helper_is_forked_while_another_thread_runs(
    projects: tuple[Path, Path], taken: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, shared = projects

    refuse_fork(monkeypatch, "forked with a second thread running")
    with another_thread():
        sync(shared)
    assert taken == []


def test_no_helper_below_fork_at_misses(
    projects: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, shared = projects

    refuse_fork(monkeypatch, "forked for a small render")
    sync(shared)  # FORK_AT as shipped: far more misses than this project has


def test_a_render_failing_after_its_helper_was_dropped_signals_no_other_process(
    projects: tuple[Path, Path], taken: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, shared = projects
    asked = recorded_kills(monkeypatch)
    real = helper.Helper.answer

    def out_of_step(self: helper.Helper, key: bytes, text: str | None) -> None:
        real(self, bytes(32) if self.misses > 2 else key, text)  # dropped from its second text

    monkeypatch.setattr(helper.Helper, "answer", out_of_step)
    bundled = (Path(__file__).parents[2] / "templates" / "claude" / "agent.md.j2").read_text()
    write(shared, "templates/claude/agent.md.j2",
          "{% if name == 'agent-13' %}{{ no_such_value }}{% endif %}\n" + bundled)  # fmt: skip
    with pytest.raises(InputError, match="no_such_value"):
        sync(shared)
    assert len(taken) == 1 and asked and all(pid > 0 for pid in asked)
    no_child_left()


def test_a_cold_sync_with_helpers_leaves_its_no_op_record(
    projects: tuple[Path, Path], taken: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The helpers' forks are not spawns the record cannot vouch for: they read registry files
    and templates, which it stats, and write nothing."""
    _, shared = projects
    monkeypatch.setattr(prefetch, "MIN_FILES", 4)
    time.sleep(3 * noop.FINE_RACY_NS / 1e9)  # the sources older than the racy window
    first = noop.sync_result(shared, "write")
    assert taken and (shared / noop.record_path("sync")).is_file()

    def no_full_run(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a full sync ran where the record answers")

    monkeypatch.setattr(sync_module, "sync", no_full_run)
    assert noop.sync_result(shared, "write") == {**first, "written": 0, "created": [],
                                                 "unchanged": sorted(first["created"])}  # fmt: skip


def test_no_helper_inside_a_running_event_loop() -> None:
    async def inside() -> bool:
        return forking.can_fork()

    assert forking.can_fork() == (forking.cores() >= 2 and threading.active_count() == 1)
    assert asyncio.run(inside()) is False
