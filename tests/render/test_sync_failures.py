"""Errors mid-change (issue 11, cases 9 and 17; PRODUCT.md §4 and §13).

Every precondition of the whole plan (path types, permissions, conflicts) is checked before the
first write; when the OS still fails mid-apply the lock records what was done, the message names
the path and the cause (exit 1, never an internal error) and the next run converges. Temporary
files a killed run left behind are drift for `--check` and removed by the next sync. A property
test interrupts sync at random points of a large plan and checks convergence and that nothing
outside the owned set was ever touched.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orkestra.core.errors import ConflictError, WriteFailed
from orkestra.registry.render_lock import mark_line
from orkestra.render import manifest
from orkestra.render.sync import sync
from orkestra.scaffold import init_project
from tests.conftest import write
from tests.render.conftest import put


def _killed_wrote(name: str) -> str:
    """What a killed sync was writing for agent `name` (its record of writes under way names
    it): a render, which carries its mark."""
    return f"---\n# {mark_line(f'agent {name}')}\nname: {name}\n---\nwritten by a killed sync\n"


SKILL = ".claude/skills/example-skill"


def _agent(root: Path, name: str, prompt: str = "Do it.\n") -> None:
    put(
        root,
        f"registries/agents/{name}.yaml",
        {"name": name, "description": f"Agent {name}.", "prompt": prompt},
    )


def tree(root: Path) -> dict[str, bytes]:
    """Every file below root (symlinks as their target text)."""
    out: dict[str, bytes] = {}
    for dirpath, _, files in os.walk(root):
        for name in files:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if rel.startswith(".orkestra/"):  # derived caches (the parse cache), not outputs
                continue
            out[rel] = str(path.readlink()).encode() if path.is_symlink() else path.read_bytes()
    return out


# --- case 9: a file where a skill folder goes -------------------------------------------------


def test_force_with_a_file_where_a_skill_folder_goes_changes_nothing(
    scaffold: Path, cli: Any
) -> None:
    _agent(scaffold, "second")
    sync(scaffold)
    (scaffold / "registries/agents/second.yaml").unlink()  # a deletion is planned first
    shutil.rmtree(scaffold / SKILL)
    write(scaffold, SKILL, "a file, not a folder\n")
    before = tree(scaffold)
    with pytest.raises(ConflictError) as err:
        sync(scaffold, force=True)
    assert err.value.file == SKILL and "folder is needed" in err.value.message
    assert tree(scaffold) == before  # the other agent was not deleted
    result = cli("sync", "--force", cwd=scaffold)
    assert result.exit_code == 1 and SKILL in result.stderr and "Traceback" not in result.stderr
    assert tree(scaffold) == before


def test_without_force_a_file_where_a_skill_folder_goes_is_named_not_called_a_conflict(
    scaffold: Path,
) -> None:
    sync(scaffold)
    shutil.rmtree(scaffold / SKILL)
    write(scaffold, SKILL, "a file, not a folder\n")
    before = tree(scaffold)
    with pytest.raises(ConflictError) as err:
        sync(scaffold)
    assert err.value.file == SKILL
    assert err.value.message == (
        f"'{SKILL}' is not a folder, but a folder is needed there to write {SKILL}/SKILL.md; "
        "move it away and run `orkestra sync` again"
    )
    assert tree(scaffold) == before


def test_force_with_a_folder_where_an_agent_file_goes_changes_nothing(scaffold: Path) -> None:
    _agent(scaffold, "second")
    sync(scaffold)
    (scaffold / "registries/agents/second.yaml").unlink()
    (scaffold / ".claude/agents/example-agent.md").unlink()
    write(scaffold, ".claude/agents/example-agent.md/inner.txt", "mine\n")
    before = tree(scaffold)
    with pytest.raises(ConflictError) as err:
        sync(scaffold, force=True)
    assert err.value.file == ".claude/agents/example-agent.md" and "folder" in err.value.message
    assert tree(scaffold) == before


def test_an_unwritable_folder_refuses_the_whole_plan_before_the_first_write(
    scaffold: Path, cli: Any
) -> None:
    _agent(scaffold, "second")
    sync(scaffold)
    (scaffold / "registries/agents/second.yaml").unlink()
    agent = "registries/agents/example-agent.yaml"
    (scaffold / agent).write_text((scaffold / agent).read_text().replace("prompt: ", "prompt: X"))
    next((scaffold / "registries/skills").rglob("example-skill.yaml")).unlink()
    put(
        scaffold,
        "registries/scopes.yaml",
        {"scopes": {"example": {"description": "Example scope", "primary_skills": []}}},
    )
    before = tree(scaffold)
    real = os.access
    skills = str(scaffold / ".claude/skills")

    def access(path: Any, mode: int, **kw: Any) -> bool:  # root may write anywhere: pretend
        return False if str(path).startswith(skills) else real(path, mode, **kw)

    with mock.patch.object(os, "access", access):
        result = cli("sync", cwd=scaffold)
    assert result.exit_code == 1
    assert ".claude/skills/example-skill" in result.stderr and "not writable" in result.stderr
    assert tree(scaffold) == before  # not even the deletion of .claude/agents/second.md


def test_a_folder_on_a_read_only_file_system_is_named_as_such(scaffold: Path, cli: Any) -> None:
    sync(scaffold)
    agent = "registries/agents/example-agent.yaml"
    (scaffold / agent).write_text((scaffold / agent).read_text().replace("prompt: ", "prompt: X"))
    before = tree(scaffold)
    agents = str(scaffold / ".claude/agents")
    real_access, real_statvfs = os.access, os.statvfs

    class ReadOnly:
        f_flag = os.ST_RDONLY

    def access(path: Any, mode: int, **kw: Any) -> bool:
        return False if str(path) == agents else real_access(path, mode, **kw)

    def statvfs(path: Any) -> Any:
        return ReadOnly() if str(path) == agents else real_statvfs(path)

    with mock.patch.object(os, "access", access), mock.patch.object(os, "statvfs", statvfs):
        result = cli("sync", cwd=scaffold)
    assert result.exit_code == 1
    assert "folder '.claude/agents' is on a read-only file system" in result.stderr
    assert "permission denied" not in result.stderr
    assert tree(scaffold) == before


@pytest.mark.parametrize("edited", [True, False], ids=["its-source-edited", "unchanged"])
def test_an_owned_output_that_cannot_be_read_is_named_as_such(
    scaffold: Path, cli: Any, monkeypatch: pytest.MonkeyPatch, edited: bool
) -> None:
    """Whether Orkestra wrote a file it cannot read is unknown: the error says why, not that
    someone else wrote it (an unchanged render of the same size is compared by content first)."""
    from orkestra.render import writer

    sync(scaffold)
    agent = "registries/agents/example-agent.yaml"
    if edited:
        text = (scaffold / agent).read_text().replace("prompt: ", "prompt: X")
        (scaffold / agent).write_text(text)
    target = ".claude/agents/example-agent.md"
    full = str(scaffold / target)
    os.chmod(full, 0o200)  # noqa: PTH101 - as `chmod`: a new ctime, so it is read again
    real_open, real_digest = os.open, manifest.disk_digest

    def refused(path: Any, *args: Any, **kwargs: Any) -> int:  # root reads any file: pretend
        if str(path) == full:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_open(path, *args, **kwargs)

    def digest(root: Any, rel: str) -> str | None:
        return None if rel == target else real_digest(root, rel)

    def opened(path: Any, *args: Any, **kwargs: Any) -> Any:
        if str(path) == full:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return open(path, *args, **kwargs)  # noqa: PTH123

    monkeypatch.setattr(writer, "open", opened, raising=False)
    with mock.patch.object(os, "open", refused), mock.patch.object(manifest, "disk_digest", digest):
        result = cli("sync", cwd=scaffold)
    assert result.exit_code == 1
    assert f"1 file(s) cannot be read (permission denied), so whether Orkestra wrote them is " \
           f"unknown: {target}" in result.stderr  # fmt: skip
    assert "did not write" not in result.stderr


def test_a_long_list_of_files_in_an_error_shows_five_and_counts_the_rest() -> None:
    from orkestra.render import writer

    paths = [f"f{i}.md" for i in range(7)]
    assert writer._some(paths[:5]) == "f0.md, f1.md, f2.md, f3.md, f4.md"
    assert writer._some(paths) == "f0.md, f1.md, f2.md, f3.md, f4.md and 2 more"


def test_an_unwritable_folder_is_named_when_the_new_folders_below_it_are_not_there_yet(
    scaffold: Path, cli: Any
) -> None:
    """Two new skills (new folders) below a folder that cannot be written: the error names that
    folder, the deepest one there, and it is asked about once for all the files below it."""
    for name in ("new-one", "new-two"):
        write(scaffold, f"registries/skills/project/{name}.yaml",
              (next((scaffold / "registries/skills").rglob("example-skill.yaml")).read_text()
               .replace("example-skill", name)))  # fmt: skip
    sync(scaffold)
    shutil.rmtree(scaffold / ".claude/skills/new-one")
    shutil.rmtree(scaffold / ".claude/skills/new-two")
    before = tree(scaffold)
    real = os.access
    asked: list[str] = []
    skills = str(scaffold / ".claude/skills")

    def access(path: Any, mode: int, **kw: Any) -> bool:
        asked.append(str(path))
        return False if str(path) == skills else real(path, mode, **kw)

    with mock.patch.object(os, "access", access):
        result = cli("sync", cwd=scaffold)
    assert result.exit_code == 1, result.stderr
    assert "folder '.claude/skills' is not writable" in result.stderr
    assert tree(scaffold) == before
    asked.clear()
    with mock.patch.object(os, "access", lambda path, mode, **kw: asked.append(str(path)) or True):
        assert cli("sync", cwd=scaffold).exit_code == 0
    assert (scaffold / ".claude/skills/new-two/SKILL.md").is_file()
    assert asked.count(skills) == 1  # once for both new folders below it


# --- case 9: the OS fails mid-apply -----------------------------------------------------------


@contextmanager
def failing(name: str, when: Callable[[tuple[Any, ...]], bool], error: int) -> Iterator[None]:
    """Make `os.<name>` raise OSError(error) for the calls `when(args)` selects."""
    real = getattr(os, name)

    def fake(*args: Any, **kw: Any) -> Any:
        if when(args):
            raise OSError(error, os.strerror(error), str(args[0]))
        return real(*args, **kw)

    with mock.patch.object(os, name, fake):
        yield


def _many(root: Path, count: int, prompt: str = "Do it.\n") -> None:
    for index in range(count):
        _agent(root, f"agent-{index:03}", prompt)


def test_permission_error_on_one_folder_mid_sync(scaffold: Path, cli: Any) -> None:
    _agent(scaffold, "second")
    sync(scaffold)
    (scaffold / "registries/agents/second.yaml").unlink()
    _many(scaffold, 5)
    skill_dir = str(scaffold / SKILL)

    def in_skills(args: tuple[Any, ...]) -> bool:
        return str(args[0]).startswith(skill_dir) and ".orkestra-" in str(args[0])

    skill_yaml = next((scaffold / "registries/skills").rglob("example-skill.yaml"))
    text = skill_yaml.read_text().replace("description: ", "description: Changed. ", 1)
    skill_yaml.write_text(text)
    with failing("open", in_skills, errno.EACCES):
        result = cli("sync", cwd=scaffold)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert "Permission denied" in result.stderr and ".claude/skills/example-skill" in result.stderr
    assert not [p for p in tree(scaffold) if p.endswith(".tmp")]
    lock = manifest.load(scaffold)
    assert ".claude/agents/second.md" not in lock  # the deletion that was done is recorded
    assert not (scaffold / ".claude/agents/second.md").exists()
    assert sync(scaffold).plan.conflicts == []  # the next run converges
    assert sync(scaffold, mode="check").ok


def test_full_disk_mid_sync_records_what_was_done_and_converges(scaffold: Path, cli: Any) -> None:
    _many(scaffold, 21)
    sync(scaffold)
    _many(scaffold, 21, prompt="Do it better.\n")
    renames = {"n": 0}

    def after_seven(args: tuple[Any, ...]) -> bool:
        if "/.claude/agents/" not in str(args[1]):
            return False
        renames["n"] += 1
        return renames["n"] > 7

    with failing("replace", after_seven, errno.ENOSPC):
        result = cli("sync", cwd=scaffold)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert "No space left on device" in result.stderr and ".claude/agents/agent-" in result.stderr
    new = sorted(
        p
        for p in tree(scaffold)
        if b"better" in (scaffold / p).read_bytes() and p.startswith(".claude/agents/")
    )
    assert len(new) == 7
    lock = manifest.load(scaffold)
    for path in new:  # the lock records the bytes that were written
        assert lock[path].sha256 == manifest.disk_digest(scaffold, path)
    assert manifest.load_unmarked(scaffold) == frozenset()  # and no target waits for its mark
    # the registry changes again: the seven files written are still provably Orkestra's
    _many(scaffold, 21, prompt="Do it best.\n")
    report = sync(scaffold)
    assert report.plan.conflicts == [] and len(report.plan.updated) == 22
    assert sync(scaffold, mode="check").ok


def test_full_disk_while_staging_writes_nothing_and_names_the_file(scaffold: Path) -> None:
    _many(scaffold, 4)
    calls = {"n": 0}

    def third(args: tuple[Any, ...]) -> bool:  # the third write of an output file
        if "/.claude/" not in str(Path(f"/proc/self/fd/{args[0]}").readlink()):
            return False  # the derived caches' writes
        calls["n"] += 1
        return calls["n"] == 3

    with failing("write", third, errno.ENOSPC), pytest.raises(WriteFailed) as err:
        sync(scaffold)
    assert err.value.file and err.value.file.startswith(".claude/")
    assert "No space left on device" in err.value.message
    assert not (scaffold / ".claude/agents").exists() or not list(
        (scaffold / ".claude/agents").iterdir()
    )
    assert sync(scaffold).written > 0 and sync(scaffold, mode="check").ok


# --- case 17: temporary files a killed run left ------------------------------------------------


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_a_killed_runs_temporary_file_is_drift_and_removed(scaffold: Path, cli: Any) -> None:
    sync(scaffold)
    stale = f".claude/agents/.agent-0091.md.orkestra-{_dead_pid()}-7.tmp"
    write(scaffold, stale, "half a fi")
    beside = f".GROUND_TRUTHS.md.orkestra-{_dead_pid()}-3.tmp"  # in the project folder itself
    write(scaffold, beside, "half")
    old = f".claude/skills/example-skill/.SKILL.md.orkestra-{os.getppid()}-1.tmp"
    write(scaffold, old, "older than a day")
    day_ago = time.time() - 2 * 86400
    os.utime(scaffold / old, (day_ago, day_ago))
    live = f".claude/agents/.x.md.orkestra-{os.getpid()}-2.tmp"  # a live run's: left alone
    write(scaffold, live, "in progress")
    check = cli("sync", "--check", cwd=scaffold)
    assert check.exit_code == 1 and sorted(check.json()["deleted"]) == sorted([stale, old, beside])
    assert (scaffold / stale).exists()
    assert sync(scaffold).plan.deleted == sorted([stale, old, beside])
    assert not (scaffold / stale).exists() and not (scaffold / old).exists()
    assert not (scaffold / beside).exists()
    assert (scaffold / live).exists()
    (scaffold / live).unlink()
    assert cli("sync", "--check", cwd=scaffold).exit_code == 0


# --- property: interrupted anywhere, the next run converges -----------------------------------

MUTATING = ("open", "write", "replace", "unlink", "symlink", "rmdir")


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("big") / "proj"
    init_project(root)
    _many(root, 30)
    write(root, "README.md", "# mine\n")
    write(root, ".claude/settings.json", "{}\n")
    write(root, ".claude/agents/mine.md", "hand-written\n")
    sync(root)
    return root


def _owned_or_temp(rel: str) -> bool:
    """Inside the Claude target's roots, the ground truths, the lock, or their temporary files
    (or the derived parse cache under .orkestra/)."""
    if rel.startswith(".orkestra/"):
        return True
    if rel.startswith((".claude/agents/", ".claude/skills/", ".claude/commands/")):
        return rel != ".claude/agents/mine.md"
    if rel in (".claude/agents", ".claude/skills", ".claude/commands"):  # emptied, removed
        return True
    return rel in (manifest.LOCK_PATH, "GROUND_TRUTHS.md") or rel.startswith(
        ("registries/..render-lock.json.orkestra-", ".GROUND_TRUTHS.md.orkestra-")
    )


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    removed=st.sets(st.integers(0, 29), max_size=8),
    changed=st.sets(st.integers(0, 29), max_size=30),
    added=st.integers(0, 6),
    fault=st.integers(1, 100),
    kind=st.sampled_from([errno.ENOSPC, errno.EACCES, errno.EIO]),
)
def test_sync_interrupted_anywhere_converges_and_touches_only_owned_files(
    big: Path, tmp_path_factory: pytest.TempPathFactory, removed: set[int], changed: set[int],
    added: int, fault: int, kind: int,
) -> None:  # fmt: skip
    base = tmp_path_factory.mktemp("run")
    root = base / "proj"
    shutil.copytree(big, root, symlinks=True)
    for index in removed:
        (root / f"registries/agents/agent-{index:03}.yaml").unlink()
    for index in changed - removed:
        _agent(root, f"agent-{index:03}", "Changed.\n")
    for index in range(added):
        _agent(root, f"new-{index}")
    outside = {p: d for p, d in tree(root).items() if not _owned_or_temp(p)}
    touched: list[str] = []
    calls = {"n": 0}
    real = {name: getattr(os, name) for name in MUTATING}

    def wrap(name: str) -> Callable[..., Any]:
        def fake(*args: Any, **kw: Any) -> Any:
            target = args[1] if name in ("replace", "symlink") else args[0]
            if name == "open" and not args[1] & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
                return real[name](*args, **kw)
            if name != "write":
                rel = os.path.relpath(str(target), root)
                touched.append(rel)
            calls["n"] += 1
            if calls["n"] == fault:
                raise OSError(kind, os.strerror(kind), str(target))
            return real[name](*args, **kw)

        return fake

    patches = [mock.patch.object(os, name, wrap(name)) for name in MUTATING]
    patches.append(mock.patch.object(os, "fsync", lambda fd: None))  # speed: not the subject
    for patch in patches:
        patch.start()
    try:
        try:
            sync(root)
        except WriteFailed as exc:
            assert exc.file and os.strerror(kind) in exc.message
    finally:
        for patch in patches:
            patch.stop()
    assert [p for p in touched if not _owned_or_temp(p)] == []
    with mock.patch.object(os, "fsync", lambda fd: None):
        _converges(root, outside, base / "fresh")


def _converges(root: Path, outside: dict[str, bytes], fresh: Path) -> None:
    sync(root)  # the next run
    assert sync(root, mode="check").ok
    assert {p: d for p, d in tree(root).items() if not _owned_or_temp(p)} == outside
    # the same registries synced from scratch give the same tree
    shutil.copytree(root, fresh, symlinks=True)
    for rel in tree(fresh):
        if _owned_or_temp(rel):
            (fresh / rel).unlink()
    sync(fresh)
    assert tree(fresh) == tree(root)


def test_full_disk_at_fsync_names_a_file_and_writes_nothing(scaffold: Path, cli: Any) -> None:
    _many(scaffold, 3)
    with failing("fsync", lambda args: True, errno.ENOSPC):
        result = cli("sync", cwd=scaffold)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert "No space left on device" in result.stderr and "'.claude/" in result.stderr
    assert not [p for p in tree(scaffold) if p.startswith(".claude/") or p.endswith(".tmp")]
    assert sync(scaffold).written > 0 and sync(scaffold, mode="check").ok


def test_a_temporary_file_of_a_really_killed_sync_is_removed(scaffold: Path) -> None:
    sync(scaffold)
    script = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from orkestra.core import safewrite\n"
        "batch = safewrite.Batch(Path(sys.argv[1]))\n"
        "batch.file('.claude/agents/agent-0091.md', b'half')\n"
        "os.kill(os.getpid(), 9)\n"
    )
    killed = subprocess.run([sys.executable, "-c", script, str(scaffold)], check=False)
    assert killed.returncode == -9
    left = [p for p in tree(scaffold) if p.endswith(".tmp")]
    assert len(left) == 1 and left[0].startswith(".claude/agents/.agent-0091.md.orkestra-")
    assert not sync(scaffold, mode="check").ok
    assert sync(scaffold).plan.deleted == left
    assert not [p for p in tree(scaffold) if p.endswith(".tmp")]
    assert sync(scaffold, mode="check").ok


def test_an_interrupt_mid_renames_records_what_was_done_and_converges(scaffold: Path) -> None:
    """Ctrl-C during the renames: the lock records the files already renamed, so the next sync
    (after the source changed back, say) finds them Orkestra's, not conflicts."""
    _many(scaffold, 21)
    sync(scaffold)
    _many(scaffold, 21, prompt="Do it better.\n")
    real, renames = os.replace, {"n": 0}

    def replace(src: Any, dst: Any) -> None:
        if "/.claude/agents/" in str(dst):
            renames["n"] += 1
            if renames["n"] == 8:
                raise KeyboardInterrupt
        real(src, dst)

    with mock.patch.object(os, "replace", replace), pytest.raises(KeyboardInterrupt):
        sync(scaffold)
    new = [p for p in tree(scaffold) if p.startswith(".claude/agents/")
           and b"better" in (scaffold / p).read_bytes()]  # fmt: skip
    assert len(new) == 7 and not [p for p in tree(scaffold) if p.endswith(".tmp")]
    lock = manifest.load(scaffold)
    assert all(lock[path].sha256 == manifest.disk_digest(scaffold, path) for path in new)
    _many(scaffold, 21)  # back as it was
    report = sync(scaffold)
    assert report.plan.conflicts == [] and len(report.plan.updated) == 8  # 7 agents, the lock


KILL_AT_FIRST_RENAME = """
import os, signal, sys
def hook(event, args):
    if event == "os.rename" and "/.claude/" in str(args[1]):  # every output's temporary file
        os.kill(os.getpid(), signal.SIGKILL)  # is made, none renamed yet
sys.addaudithook(hook)
from orkestra.cli.entry import main
main(["--root", sys.argv[1], "sync"])
"""


def test_a_killed_syncs_temporary_files_are_removed_even_where_no_output_is_left(
    scaffold: Path,
) -> None:
    """A sync killed (SIGKILL: no cleanup runs) once its temporary files are made; a new skill's
    source is removed before the next sync, so no output and no lock entry names that folder:
    its temporary file is still removed, from the record of the writes under way."""
    from orkestra.core.safewrite import TEMP_RE
    from orkestra.render import pending

    sync(scaffold)
    source = next((scaffold / "registries/skills").rglob("example-skill.yaml"))
    new = source.with_name("brand-new-skill.yaml")
    new.write_text(source.read_text().replace("example-skill", "brand-new-skill"))
    _agent(scaffold, "another")
    done = subprocess.run([sys.executable, "-c", KILL_AT_FIRST_RENAME, str(scaffold)],
                          check=False, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == -9, done.stderr
    temps = sorted(p for p in tree(scaffold) if TEMP_RE.match(Path(p).name))
    assert any(p.startswith(".claude/skills/brand-new-skill/") for p in temps), temps
    assert (scaffold / pending.PATH).is_file()
    new.unlink()  # its folder is in no plan now
    report = sync(scaffold)
    assert sorted(p for p in report.plan.deleted if TEMP_RE.match(Path(p).name)) == temps
    assert not [p for p in tree(scaffold) if TEMP_RE.match(Path(p).name)]
    assert not (scaffold / pending.PATH).exists() and sync(scaffold, mode="check").ok


def _killed_mid_renames(scaffold: Path, after: int) -> None:
    """A sync killed (nothing runs after it: no partial lock) after `after` renames."""
    from orkestra.render import writer

    real, renames = os.replace, {"n": 0}

    def replace(src: Any, dst: Any) -> None:
        if "/.claude/agents/" in str(dst):
            renames["n"] += 1
            if renames["n"] > after:
                raise SystemExit(137)
        real(src, dst)

    with (
        mock.patch.object(os, "replace", replace),
        mock.patch.object(writer, "_record_partial", lambda *a: None),
        pytest.raises(SystemExit),
    ):
        sync(scaffold)


def test_a_sync_killed_during_the_renames_leaves_files_the_next_one_knows_as_its_own(
    scaffold: Path,
) -> None:
    """No partial lock is written by a killed sync; the record of the writes under way, made
    just before the renames, lets the next sync take the renamed files for Orkestra's."""
    from orkestra.render import pending

    _many(scaffold, 21)
    sync(scaffold)
    _many(scaffold, 21, prompt="Do it better.\n")
    _killed_mid_renames(scaffold, 7)
    assert (scaffold / pending.PATH).is_file()
    _many(scaffold, 21)  # back as it was: the seven files renamed must be rewritten
    report = sync(scaffold)
    assert report.plan.conflicts == [] and len(report.plan.updated) == 7  # the lock is as it was
    assert not (scaffold / pending.PATH).exists()
    assert sync(scaffold, mode="check").ok


def test_the_record_of_writes_under_way_claims_nothing_the_lock_could_not(
    scaffold: Path,
) -> None:
    """Once the lock changed (a checkout), the record says nothing; an entry outside the
    output roots is never adopted, whatever hash it gives."""
    from orkestra.render import pending

    _many(scaffold, 3)
    sync(scaffold)
    readme = write(scaffold, "README.md", "# Mine\n")
    agent = scaffold / ".claude/agents/agent-000.md"
    agent.write_text(_killed_wrote("agent-000"))
    lock = (scaffold / manifest.LOCK_PATH).read_bytes()
    claims = {"README.md": manifest.Entry("claude", manifest.digest(b"# Mine\n")),
              ".claude/agents/agent-000.md": manifest.Entry("claude",
                                                            manifest.digest(_killed_wrote("agent-000").encode()))}  # fmt: skip
    pending.record(scaffold, "0" * 64, {}, claims)  # another lock than this one
    with pytest.raises(ConflictError):
        sync(scaffold)
    pending.record(scaffold, manifest.digest(lock), {}, claims)
    (scaffold / "registries/agents/agent-001.yaml").unlink()
    report = sync(scaffold)  # the agent file is adopted (its bytes are the recorded ones)
    assert ".claude/agents/agent-000.md" in report.plan.updated
    assert readme.read_text() == "# Mine\n" and "README.md" not in manifest.load(scaffold)


def test_a_damaged_record_of_writes_under_way_adopts_nothing(scaffold: Path) -> None:
    import json

    from orkestra.render import pending

    sync(scaffold)
    rel = ".claude/agents/example-agent.md"
    (scaffold / rel).write_text(_killed_wrote("example-agent"))
    lock = manifest.digest((scaffold / manifest.LOCK_PATH).read_bytes())
    sha = manifest.digest(_killed_wrote("example-agent").encode())
    good = {"version": 1, "lock": lock, "files": {rel: ["claude", sha]}}
    damaged = [{**good, "version": 9}, {**good, "lock": 3}, {**good, "files": {rel: ["claude"]}},
               {**good, "files": {rel: ["claude", sha, "x"]}}, {**good, "files": [rel]},
               {**good, "files": {"../out/x.md": None, ".git/x": None, "/abs/x": None}}]  # fmt: skip
    for record in [*(json.dumps(d) for d in damaged), "{bad", "[]"]:
        write(scaffold, pending.PATH, record)
        assert sync(scaffold, mode="check").plan.conflicts == [rel]
    write(scaffold, pending.PATH, json.dumps(good))
    assert sync(scaffold, mode="check").plan.conflicts == []  # the same record, whole: adopted
    assert (scaffold / rel).read_text() == _killed_wrote("example-agent")


def test_a_second_kill_keeps_what_the_first_ones_record_adopted(scaffold: Path) -> None:
    """Killed during the renames, then killed again before any: the files the first run
    renamed, which the second had no need to rewrite, are still known as Orkestra's."""
    _many(scaffold, 6)
    sync(scaffold)
    _many(scaffold, 6, prompt="Do it better.\n")
    _killed_mid_renames(scaffold, 3)
    _agent(scaffold, "extra")
    _killed_mid_renames(scaffold, 0)
    _many(scaffold, 6)  # back as it was
    report = sync(scaffold, mode="check")
    assert report.plan.conflicts == [] and len(report.plan.updated) == 3 + 1  # and the lock


def test_a_temporary_file_not_stale_yet_keeps_its_folder_in_the_record(scaffold: Path) -> None:
    """A killed run's temporary file whose pid is alive (reused) is not stale for a day; its
    folder, in no plan, stays in the record after the next sync, so a later one removes it."""
    from orkestra.core import safewrite
    from orkestra.render import pending

    sync(scaffold)
    folder = scaffold / ".claude/skills/gone-skill"
    folder.mkdir()
    alive = folder / f".SKILL.md.orkestra-{os.getppid()}-1.tmp"  # a live process's pid
    alive.write_text("half")
    pending.record(scaffold, None, {}, {".claude/skills/gone-skill/SKILL.md": None})
    _agent(scaffold, "another")
    sync(scaffold)  # writes, then clears the record: but not of that folder
    assert alive.exists() and ".claude/skills/gone-skill" in pending.folders(scaffold)
    day = time.time() - safewrite.STALE_SECONDS - 60
    os.utime(alive, (day, day))
    _agent(scaffold, "yet-another")
    report = sync(scaffold)
    assert ".claude/skills/gone-skill/" + alive.name in report.plan.deleted
    assert not alive.exists() and not (scaffold / pending.PATH).exists()


def test_a_sync_after_no_kill_looks_in_no_folder_for_the_record(
    scaffold: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Clearing the record after a whole write looks only at folders kept from an earlier
    record, not at every folder the sync wrote into (thousands on a cold sync)."""
    from orkestra.core import safewrite
    from orkestra.render import pending

    real, looked = safewrite.holds_temporary, []

    def spy(folder: str) -> bool:
        looked.append(folder)
        return real(folder)

    monkeypatch.setattr(safewrite, "holds_temporary", spy)
    _many(scaffold, 20)
    sync(scaffold)
    assert looked == [] and not (scaffold / pending.PATH).exists()
