"""Red team of the plan's proven outputs (`noop.proven`, `writer._proven_same`) and of the early
stop of a record's check: every attack compares a sync that may use a record with a full run
that has none (`sync(..., registry=load(root))`, or a run in a copy without `.orkestra/`)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from orkestra.registry.loader import load
from orkestra.render import noop
from orkestra.render import sync as sync_module
from orkestra.render.sync import sync
from tests.conftest import read_json_file, write_json_file
from tests.render.conftest import at_call, synced_rich
from tests.render.test_noop_fast import (
    _agent_file,
    _append,
    _bump,
    _fast,
    _record,
    _reference,
    _reprompt,
    _written_output,
)

LOCK = "registries/.render-lock.json"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synced_rich(tmp_path_factory.mktemp("proven") / "proj")


@pytest.fixture
def proj(template: Path, tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(template, root, symlinks=True)
    return root


@pytest.fixture(autouse=True)
def _no_racy_window(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """As in `test_noop_fast`: every edit here sets a unique mtime (the copy is all "now")."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    if "racy" not in request.node.name:
        monkeypatch.setattr(noop, "RACY_NS", 0)
        monkeypatch.setattr(noop, "FINE_RACY_NS", 0)


def _check(root: Path) -> dict[str, Any]:
    """A full `sync --check` that neither reads nor writes a record (nothing proven)."""
    result: dict[str, Any] = sync(root, mode="check", registry=load(root)).to_dict()
    return result


def _tree(root: Path) -> dict[str, bytes | str]:
    """Every file (bytes) and link (its target) of the project but `.orkestra/`."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != noop.FOLDER]
        for name in [*files, *(d for d in dirs if (Path(dirpath) / d).is_symlink())]:
            full = Path(dirpath) / name
            rel = full.relative_to(root).as_posix()
            out[rel] = str(full.readlink()) if full.is_symlink() else full.read_bytes()
    return out


def _write_as_without_record(root: Path, tmp_path: Path) -> dict[str, Any]:
    """A writing `sync_result` in `root`, and a full write in a copy without `.orkestra/`:
    the same answer, the same files left (the copy's inodes differ: nothing proven there)."""
    copy = tmp_path / "reference"
    shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns(noop.FOLDER))
    try:
        want: Any = sync(copy, mode="write").to_dict()
    except Exception as exc:  # the same error class is the expected answer
        want = type(exc).__name__
    try:
        got: Any = noop.sync_result(root, "write")
    except Exception as exc:
        got = type(exc).__name__
    assert got == want
    assert _tree(root) == _tree(copy)
    return got if isinstance(got, dict) else {}


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def _proven_plans(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The `proven` each plan is given from now on."""
    from orkestra.render import writer

    seen: list[Any] = []
    real = writer.plan

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("proven"))
        return real(*args, **kwargs)

    monkeypatch.setattr(writer, "plan", spy)
    return seen


def _input_comment(root: Path) -> None:
    """An input edit that renders the same outputs: the next run is full but may prove."""
    _append(_agent_file(root), f"# comment {os.urandom(4).hex()}\n")


# --- the lock ------------------------------------------------------------------------------


def _lock_owning_new_render(root: Path, rel: str) -> None:
    """A checkout: the lock now records the new render of `rel` (the disk holds the old)."""
    rendered = sync(root, mode="dry-run", registry=load(root)).plan.outputs[rel].data
    lock = root / LOCK
    data = read_json_file(lock)
    data["files"][rel]["sha256"] = hashlib.sha256(rendered or b"").hexdigest()
    lock.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    _bump(lock)


@pytest.mark.parametrize("recorded_by", ["check", "write"])
def test_a_lock_changed_after_the_proof_but_before_the_plan_reads_it(
    proj: Path, monkeypatch: pytest.MonkeyPatch, recorded_by: str
) -> None:
    """The lock is checked by `proven` and read again by the plan: a checkout in between must
    not lend the new lock's hashes to identities the old lock proved."""
    if recorded_by == "write":
        other = proj / "registries" / "agents" / "plain-helper.yaml"
        other.write_text(other.read_text("utf-8").replace("Be plain.", "Be plainer."), "utf-8")
        _bump(other)
    noop.sync_result(proj, recorded_by)
    rel = _rel(proj, _written_output(proj))
    _reprompt(proj)
    fired = at_call(
        monkeypatch, sync_module, "owned_entries", lambda: _lock_owning_new_render(proj, rel)
    )
    answer = noop.sync_result(proj, "check")
    assert fired
    assert answer == _check(proj)
    assert rel in answer["conflicts"]


@pytest.mark.parametrize("recorded_by", ["check", "write"])
def test_a_lock_changed_and_restored_to_the_same_bytes(
    proj: Path, monkeypatch: pytest.MonkeyPatch, recorded_by: str
) -> None:
    """Recorded by a check, the lock is proved by its identity (a new one proves nothing);
    recorded by a write, by its bytes (the same bytes still prove)."""
    if recorded_by == "write":
        _reprompt(proj)
    noop.sync_result(proj, recorded_by)
    lock = proj / LOCK
    text = lock.read_bytes()
    lock.write_bytes(text + b" ")
    lock.write_bytes(text)
    _bump(lock)
    _input_comment(proj)
    seen = _proven_plans(monkeypatch)
    assert noop.sync_result(proj, "check") == _check(proj)
    assert bool(seen[0]) is (recorded_by == "write")


def test_two_writes_in_a_row_the_second_proves_from_the_first(
    proj: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The first write leaves the lock in `expected`; the second changes the same output back
    and must write it (the lock's hash for it is the first write's)."""
    path = _agent_file(proj)
    original = path.read_text("utf-8")
    _reprompt(proj)
    _write_as_without_record(proj, tmp_path / "a")
    assert LOCK in _record(proj)["expected"]
    path.write_text(original, encoding="utf-8")
    _bump(path)
    wrote = _write_as_without_record(proj, tmp_path / "b")
    assert _rel(proj, _written_output(proj)) in wrote["updated"]
    _input_comment(proj)
    _write_as_without_record(proj, tmp_path / "c")
    assert _fast(proj) == _reference(proj)


# --- the outputs -----------------------------------------------------------------------------


def test_an_output_restored_with_utime_after_an_edit_is_read(
    proj: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Same size and mtime, other bytes, same inode: only its change time differs."""
    noop.sync_result(proj, "check")
    output = _written_output(proj)
    st = output.stat()
    with output.open("r+b") as handle:  # in place: the same inode
        first = handle.read(1)
        handle.seek(0)
        handle.write(b"X" if first != b"X" else b"Y")
    os.utime(output, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert output.stat().st_ino == st.st_ino
    _input_comment(proj)
    answer = noop.sync_result(proj, "check")
    assert answer == _check(proj)
    assert answer["conflicts"] == [_rel(proj, output)]
    _write_as_without_record(proj, tmp_path)  # a conflict: refused either way


@pytest.mark.parametrize("same", [True, False], ids=["same bytes", "other bytes"])
def test_an_output_replaced_by_a_hard_link(
    proj: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, same: bool
) -> None:
    noop.sync_result(proj, "check")
    output = _written_output(proj)
    elsewhere = tmp_path / "elsewhere.md"
    data = output.read_bytes()
    elsewhere.write_bytes(data if same else data.replace(b"a", b"b", 1))
    os.utime(elsewhere, ns=(output.stat().st_atime_ns, output.stat().st_mtime_ns))
    output.unlink()
    os.link(elsewhere, output)
    _input_comment(proj)
    answer = noop.sync_result(proj, "check")
    assert answer == _check(proj)
    assert (_rel(proj, output) in answer["conflicts"]) is not same


def test_a_proven_output_made_executable_is_updated(
    proj: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    noop.sync_result(proj, "check")
    output = _written_output(proj)
    st = output.stat()
    output.chmod(0o755)
    os.utime(output, ns=(st.st_atime_ns, st.st_mtime_ns))
    _input_comment(proj)
    answer = noop.sync_result(proj, "check")
    assert answer == _check(proj)
    assert _rel(proj, output) in answer["updated"]
    _write_as_without_record(proj, tmp_path)


@pytest.mark.parametrize("how", ["cp -a", "moved"])
def test_a_copied_or_moved_project(
    proj: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, how: str
) -> None:
    """Copied, every inode differs (nothing proven); moved, the identities stay (the bytes too)
    while the key changes: the same answers as without a record either way."""
    noop.sync_result(proj, "check")
    other = tmp_path / "elsewhere" / "proj"
    other.parent.mkdir()
    if how == "cp -a":
        shutil.copytree(proj, other, symlinks=True, copy_function=shutil.copy2)
    else:
        proj.rename(other)
    _reprompt(other)
    seen = _proven_plans(monkeypatch)
    assert _fast(other) == _reference(other)
    if how == "moved":
        assert seen[0]  # the record still proves, and rightly: the bytes did not move
    _write_as_without_record(other, tmp_path / "ref")


def test_a_deleted_proven_output_is_created_and_a_directory_there_is_a_conflict(
    proj: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    noop.sync_result(proj, "check")
    output = _written_output(proj)
    output.unlink()
    _input_comment(proj)
    assert noop.sync_result(proj, "check") == _check(proj)
    output.mkdir()
    assert noop.sync_result(proj, "check") == _check(proj)


def test_a_script_whose_source_lost_its_executable_bit_is_updated(
    proj: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The same bytes, the same identity on disk: only the render's executable bit differs."""
    noop.sync_result(proj, "check")
    source = proj / "registries/skills/domains/schema-migration/scripts/check.sh"
    output = proj / ".claude/skills/schema-migration/scripts/check.sh"
    assert output.stat().st_mode & 0o100
    source.chmod(0o644)
    _bump(source)
    answer = noop.sync_result(proj, "check")
    assert answer == _check(proj)
    assert _rel(proj, output) in answer["updated"]
    _write_as_without_record(proj, tmp_path)
    assert not output.stat().st_mode & 0o100


def test_a_file_the_last_write_made_is_never_proven_by_its_identity(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its identity was taken within the racy window (an edit in the same tick keeps it): it is
    checked by content. Simulated: the record given the identity an edit left."""
    _reprompt(proj)
    noop.sync_result(proj, "write")
    output = _written_output(proj)
    rel = _rel(proj, output)
    assert rel in _record(proj)["expected"]
    output.write_bytes(output.read_bytes().replace(b"a", b"b", 1))
    record = proj / noop.record_path("sync")
    data = read_json_file(record)
    data["files"][rel] = noop._identity(str(output))
    write_json_file(record, data)
    _input_comment(proj)
    answer = noop.sync_result(proj, "check")
    assert answer == _check(proj)
    assert answer["conflicts"] == [rel]


def test_a_lock_changed_while_proven_reads_it_proves_nothing(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkout between the lock's stat and its read by `proven`: the text read is not the
    one whose identity was proven."""
    noop.sync_result(proj, "check")
    rel = _rel(proj, _written_output(proj))
    _reprompt(proj)
    from orkestra.core import jsonio

    real = jsonio.read_text
    fired: list[bool] = []

    def spy(path: Any, **kwargs: Any) -> str:
        if str(path).endswith(LOCK) and not fired:
            fired.append(True)
            _lock_owning_new_render(proj, rel)
        return real(path, **kwargs)

    monkeypatch.setattr(jsonio, "read_text", spy)
    answer = noop.sync_result(proj, "check")
    assert fired
    assert answer == _check(proj)
    assert rel in answer["conflicts"]


# --- flags that run in full ----------------------------------------------------------------


@pytest.mark.parametrize(
    "args", [["--force"], ["--target", "claude"], ["--dry-run"]], ids=lambda a: a[0]
)
def test_force_target_and_dry_run_prove_nothing(
    proj: Path, monkeypatch: pytest.MonkeyPatch, cli: Any, args: list[str]
) -> None:
    noop.sync_result(proj, "check")
    _input_comment(proj)
    seen = _proven_plans(monkeypatch)
    result = cli("sync", *args, cwd=proj)
    assert result.exit_code == 0, result.stderr
    assert seen == [None]
    assert cli("sync", "--check", cwd=proj).exit_code == 0
    assert seen[1]  # a plain `sync --check` after it does prove


# --- other targets, shared files, vendor links ---------------------------------------------


def test_every_target_s_outputs_and_shared_files(
    proj: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """All clients configured (`.agents/skills/`, AGENTS.md and copilot blocks, MCP configs):
    after a recorded run, edits of each kind of output are seen as without a record."""
    config = proj / "registries" / "orkestra.yaml"
    text = config.read_text("utf-8")
    all_targets = "[claude, agents-md, codex, cursor, gemini, copilot]"
    config.write_text(text.replace("targets:\n  - claude\n", f"targets: {all_targets}\n"), "utf-8")
    assert config.read_text("utf-8") != text, text
    _bump(config)
    (proj / "AGENTS.md").write_text("# The user's own\n", encoding="utf-8")
    _write_as_without_record(proj, tmp_path / "first")
    noop.sync_result(proj, "check")  # the record of a no-op
    outputs = _check(proj)["unchanged"]
    _input_comment(proj)
    seen = _proven_plans(monkeypatch)
    noop.sync_result(proj, "check")
    assert {".agents/skills/example-skill/SKILL.md", ".codex/agents/db-guardian.toml"} <= set(
        seen[0]
    )
    for prefix in (".codex/", ".cursor/", ".gemini/", ".github/", ".agents/skills/", "AGENTS.md"):
        assert any(p.startswith(prefix) for p in outputs), prefix
    kinds = (".agents/skills/example", ".codex/", "AGENTS.md", ".github/copilot", ".cursor/rules")
    for n, prefix in enumerate(kinds):
        victim = proj / next(p for p in sorted(outputs) if p.startswith(prefix))
        st = victim.stat()
        victim.write_bytes(victim.read_bytes().replace(b"e", b"E", 1))
        os.utime(victim, ns=(st.st_atime_ns, st.st_mtime_ns))
        _input_comment(proj)
        assert _fast(proj) == _reference(proj), victim
        _write_as_without_record(proj, tmp_path / f"ref{n}")


# --- a hostile `.orkestra/` ----------------------------------------------------------------


def test_a_forged_record_hides_an_edit_but_never_overwrites_it(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand-made record claiming an edited output's new identity: the check misses the edit
    (the record is trusted as `.orkestra/` always is), but no write ever touches the edit: the
    lock still records the rendered hash, so a later change of its source is a conflict."""
    noop.sync_result(proj, "check")
    output = _written_output(proj)
    rel = _rel(proj, output)
    _append(output, "the user's edit\n")
    edited = output.read_bytes()
    record = proj / noop.record_path("sync")
    data = read_json_file(record)
    data["files"][rel] = noop._identity(str(output))
    write_json_file(record, data)
    _input_comment(proj)
    assert rel in _check(proj)["conflicts"]
    assert rel not in noop.sync_result(proj, "write")["conflicts"]  # the accepted gap
    assert output.read_bytes() == edited
    _reprompt(proj)
    with pytest.raises(Exception, match="edited since"):
        noop.sync_result(proj, "write")
    assert output.read_bytes() == edited


# --- the early stop --------------------------------------------------------------------------


@pytest.mark.parametrize("call", [1, 3, 60])
@pytest.mark.parametrize("what", ["deleted", "added", "edited"])
def test_an_input_changed_while_the_record_is_checked(
    proj: Path, monkeypatch: pytest.MonkeyPatch, what: str, call: int
) -> None:
    """A registry file changed while the walk is under way, before its own stat (call 1) or
    maybe after it: the answer is a full run's on the disk as it was before or after the
    change, never anything else; before its stat, the one after."""
    noop.sync_result(proj, "check")
    assert noop.recorded(proj, "sync") is not None
    victim = proj / "registries" / "agents" / "plain-helper.yaml"  # the last agent walked
    before = _check(proj)

    def meddle() -> None:
        if what == "deleted":
            victim.unlink()
        elif what == "added":
            copy = victim.with_name("zz-new.yaml")
            copy.write_text(victim.read_text("utf-8").replace(victim.stem, "zz-new", 1), "utf-8")
            _bump(copy)
        else:
            victim.write_text(victim.read_text("utf-8").replace("Be plain.", "Be terse."), "utf-8")
            _bump(victim)

    fired = at_call(monkeypatch, noop, "_identity", meddle, call=call)
    answer = noop.sync_result(proj, "check")
    assert fired
    after = _check(proj)
    assert after != before
    assert answer in (before, after)
    if call == 1:
        assert answer == after
    assert _fast(proj) == _reference(proj)
