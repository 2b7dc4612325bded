"""The whole-run no-op check of `sync` and `validate` (`render.noop`): a recorded result is given
only when nothing the run read changed, and is always the result a full run gives."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orkestra.core import jsonio
from orkestra.core.errors import OrkestraError
from orkestra.registry import cache as parse_cache
from orkestra.registry.loader import load
from orkestra.registry.validate import validate
from orkestra.render import noop
from orkestra.render.sync import sync
from tests.conftest import read_json_file, write_json_file
from tests.render.conftest import at_call, build_rich, synced_rich

_TICK = [1_000_000_000_000_000_000]  # 2001: in the past, so never racy


def _bump(path: Path) -> None:
    """A unique mtime, so an edit never shares its timestamp with the recording."""
    _TICK[0] += 10_000_000_000
    os.utime(path, ns=(_TICK[0], _TICK[0]))


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synced_rich(tmp_path_factory.mktemp("noop") / "proj")


@pytest.fixture
def proj(template: Path, tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(template, root, symlinks=True)
    return root


def _findings(report: Any) -> list[tuple[str, int, str, str, str]]:
    return [(f.file, f.line, f.code, f.severity, f.message) for f in report.findings]


def _outcome(run: Callable[[], Any]) -> Any:
    """A run's result, or its error's class and message."""
    try:
        return run()
    except OrkestraError as exc:
        return (type(exc).__name__, str(exc))


def _reference(root: Path) -> tuple[Any, Any]:
    """Full runs that neither read nor write a no-op record, nor the parse cache (a load that
    stores an edited file's new identity would leave `same_bytes` nothing to prove)."""
    findings = _outcome(lambda: _findings(validate(load(root, use_cache=False))))
    return findings, _outcome(
        lambda: sync(root, mode="check", registry=load(root, use_cache=False)).to_dict()
    )


def _fast(root: Path) -> tuple[Any, Any]:
    findings = _outcome(lambda: _findings(noop.validate_report(root)))
    return findings, _outcome(lambda: noop.sync_result(root, "check"))


@pytest.fixture(autouse=True)
def _no_racy_window(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copied project's files all changed (ctime) just now; every edit here sets a unique
    mtime instead, so the racy window is not needed, except where it is the subject."""
    if "racy" not in request.node.name:
        for module in (noop, parse_cache):
            monkeypatch.setattr(module, "RACY_NS", 0)
            monkeypatch.setattr(module, "FINE_RACY_NS", 0)


class Hits:
    """Counts the runs answered from a record."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = noop._answer

        def counted(root: Path, run: str, data: Any, *rest: Any) -> Any:
            found = real(root, run, data, *rest)
            self.count += found is not None
            return found

        monkeypatch.setattr(noop, "_answer", counted)


def _agent_file(root: Path) -> Path:
    return sorted((root / "registries" / "agents").rglob("*.yaml"))[0]


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")
    _bump(path)


def _edit_agent(root: Path) -> None:
    _append(_agent_file(root), "# a comment changes nothing rendered\n")


def _describe_agent(root: Path) -> None:
    path = _agent_file(root)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("\ncategory: ", "\ncategory: renamed-", 1), encoding="utf-8")
    _bump(path)


def _new_agent(root: Path) -> None:
    source = _agent_file(root)
    name = f"copy{_TICK[0] % 100000}"
    text = source.read_text(encoding="utf-8").replace(f"name: {source.stem}", f"name: {name}", 1)
    target = source.with_name(f"{name}.yaml")
    target.write_text(text, encoding="utf-8")
    _bump(target)


def _drop_output(root: Path) -> None:
    outputs = sorted((root / ".claude" / "agents").glob("*.md"))
    if outputs:
        outputs[0].unlink()


def _hand_edit_output(root: Path) -> None:
    outputs = sorted((root / ".claude" / "agents").glob("*.md"))
    if outputs:
        _append(outputs[0], "hand edit\n")


def _template_override(root: Path) -> None:
    from orkestra.render.template_paths import bundled_templates

    target = root / "templates" / "claude" / "agent.md.j2"
    target.parent.mkdir(parents=True, exist_ok=True)
    base = (bundled_templates() / "claude" / "agent.md.j2").read_text(encoding="utf-8")
    target.write_text(base + "\n<!-- project template -->\n", encoding="utf-8")
    _bump(target)


def _evidence(root: Path) -> None:
    _append(root / "registries" / "orkestra.yaml", "# evidence of a truth changes\n")


def _touch(root: Path) -> None:
    _bump(_agent_file(root))


def _unrelated(root: Path) -> None:
    (root / "NOTES.txt").write_text("unrelated\n", encoding="utf-8")


def _vendor(root: Path) -> None:
    skill = next((root / "vendor" / "linked").rglob("SKILL.md"))
    _append(skill, "\nMore text.\n")


def _write_sync(root: Path) -> None:
    _outcome(lambda: noop.sync_result(root, "write"))


def _same_bytes(root: Path) -> None:
    """Written again with the bytes it holds (an editor's save with no change)."""
    path = _agent_file(root)
    path.write_bytes(path.read_bytes())
    _bump(path)


def _scopes_saved(root: Path) -> None:
    """`scopes.yaml` written again with the bytes it holds."""
    path = root / "registries" / "scopes.yaml"
    path.write_bytes(path.read_bytes())
    _bump(path)


def _renamed_over(root: Path) -> None:
    """The same bytes saved by rename (a new inode; the times of the folder, which the load
    lists, change)."""
    path = _agent_file(root)
    temporary = path.with_name(f"{path.name}.new")
    temporary.write_bytes(path.read_bytes())
    _bump(temporary)
    temporary.replace(path)


def _same_size_edit(root: Path) -> None:
    """Another text of the same length: only the content tells."""
    path = _agent_file(root)
    text = path.read_text(encoding="utf-8")
    at = text.index("description:") + len("description: ")
    swapped = "X" if text[at] != "X" else "Y"
    path.write_text(text[:at] + swapped + text[at + 1 :], encoding="utf-8")
    _bump(path)


EDITS: dict[str, Callable[[Path], None]] = {
    "nothing": lambda _root: None,
    "comment in an agent": _edit_agent,
    "agent description": _describe_agent,
    "new agent": _new_agent,
    "output deleted": _drop_output,
    "output hand-edited": _hand_edit_output,
    "project template": _template_override,
    "truth evidence": _evidence,
    "touch": _touch,
    "unrelated file": _unrelated,
    "vendor skill": _vendor,
    "sync": _write_sync,
    "same bytes saved": _same_bytes,
    "same bytes renamed over": _renamed_over,
    "scopes saved unchanged": _scopes_saved,
    "same-size edit": _same_size_edit,
}
#: edits that leave every input's bytes as they were: the record still answers
SAME_BYTES = {"touch", "same bytes saved", "same bytes renamed over", "scopes saved unchanged"}


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(edits=st.lists(st.sampled_from(sorted(EDITS)), min_size=1, max_size=6))
def test_the_recorded_result_is_always_the_full_run_s(
    edits: list[str], template: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = tmp_path_factory.mktemp("seq") / "proj"
    shutil.copytree(template, root, symlinks=True)
    os.environ["ORKESTRA_TODAY"] = "2026-11-30"
    real, hits = noop._answer, []
    noop._answer = lambda *args: hits.append(real(*args)) or hits[-1]  # type: ignore[assignment]
    try:
        for edit in ["nothing", *edits, "nothing"]:
            EDITS[edit](root)
            findings, checked = _reference(root)
            for _ in range(2):  # the second run may answer from the first one's record
                assert _fast(root) == (findings, checked), edit
    finally:
        del os.environ["ORKESTRA_TODAY"]
        noop._answer = real  # type: ignore[assignment]
    assert any(hit is not None for hit in hits)  # the record did answer


def test_a_missing_folder_the_run_looks_in_is_recorded_absent(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git keeps no empty folder: a clone has no `registries/changelog/` until a record is
    written. Its absence is recorded (the record still answers), and its arrival is a change."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    shutil.rmtree(proj / "registries" / "changelog")
    hits = Hits(monkeypatch)
    first = noop.sync_result(proj, "write")
    assert noop.sync_result(proj, "write") == first
    assert hits.count == 1
    record = jsonio.read_sealed(proj / noop.record_path("sync"))
    assert record["files"]["registries/changelog/"] is None
    (proj / "registries" / "changelog").mkdir()
    assert _fast(proj) == _reference(proj)
    assert hits.count == 1


def test_an_unchanged_project_is_answered_from_the_record(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    hits = Hits(monkeypatch)
    first = noop.sync_result(proj, "write")
    assert noop.sync_result(proj, "write") == first
    assert noop.sync_result(proj, "check") == {**first, "mode": "check"}
    report = noop.validate_report(proj)
    assert _findings(noop.validate_report(proj)) == _findings(report)
    assert hits.count == 4  # the sync recorded `validate`'s answer too
    record = jsonio.read_sealed(proj / noop.record_path("sync"))
    assert "vendor/linked" in record["folders"]
    assert "CLAUDE.md" in record["singles"]


def test_a_changed_input_is_found_at_its_own_stat(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check of a record stops at the first identity that differs: the registry's first
    file changed, the thousands of stats after it are not taken."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    noop.sync_result(proj, "check")
    looked: list[str] = []
    real = noop._identity

    def spy(path: str, links: bool = False) -> Any:
        looked.append(path)
        return real(path, links)

    monkeypatch.setattr(noop, "_identity", spy)
    assert noop.recorded(proj, "sync") is not None
    everything = len(looked)
    first = min((proj / "registries/agents").glob("*.yaml"))
    first.write_text(first.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    _bump(first)
    looked.clear()
    assert noop.recorded(proj, "sync") is None
    assert looked[-1] == str(first) and len(looked) < everything // 10
    assert _fast(proj) == _reference(proj)


@pytest.mark.parametrize(
    "edit", sorted(set(EDITS) - {"nothing", "sync", "unrelated file"} - SAME_BYTES)
)
def test_every_kind_of_input_change_reaches_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch, edit: str
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    noop.sync_result(proj, "check")
    noop.validate_report(proj)
    hits = Hits(monkeypatch)
    EDITS[edit](proj)
    assert _fast(proj) == _reference(proj)
    assert hits.count == 0


def _never_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    from orkestra.registry import loader

    def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the registry was loaded")

    monkeypatch.setattr(loader, "load", refused)


@pytest.mark.parametrize("edit", sorted(SAME_BYTES))
def test_an_input_holding_the_same_bytes_is_answered_from_the_record(
    proj: Path, monkeypatch: pytest.MonkeyPatch, edit: str
) -> None:
    """Its stat changed, its bytes did not (the parse cache's sha256 of them says so): the
    recorded answers stand, nothing is loaded, and both records take the new identities, so
    the runs after that only stat."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    noop.sync_result(proj, "write")
    expected = _reference(proj)  # before the edit: a full load would store the new identity
    EDITS[edit](proj)
    with monkeypatch.context() as patched:
        _never_loaded(patched)
        assert _fast(proj) == expected
        checks: list[Any] = []
        real = noop.same_bytes
        patched.setattr(noop, "same_bytes", lambda *a, **k: checks.append(a) or real(*a, **k))
        for _ in range(2):
            assert noop.sync_result(proj, "write") == {**expected[1], "mode": "write"}
            assert _fast(proj) == expected
        assert checks == []  # answered by the stats alone: the records were rewritten
    assert _reference(proj) == expected


@pytest.mark.parametrize("edit", ["touch", "same bytes saved"])
def test_the_same_bytes_are_proven_after_another_command_s_load_moved_the_entry_on(
    proj: Path, monkeypatch: pytest.MonkeyPatch, edit: str
) -> None:
    """A list command or the MCP server loaded the saved file first and stored its entry
    under the identity now: the entry for the recorded identity is kept as the one it
    replaced, and still proves the bytes."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    noop.sync_result(proj, "write")
    expected = _reference(proj)
    EDITS[edit](proj)
    load(proj)
    with monkeypatch.context() as patched:
        _never_loaded(patched)
        assert _fast(proj) == expected
    assert _reference(proj) == expected


def test_same_bytes_beside_a_real_edit_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    noop.sync_result(proj, "write")
    _renamed_over(proj)
    _hand_edit_output(proj)
    hits = Hits(monkeypatch)
    assert _fast(proj) == _reference(proj)
    assert hits.count == 0


def test_a_record_that_vouches_for_another_version_is_not_rewritten(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`validate`'s record, made with the sync's, holds another identity for the file (as if
    another version of it had been validated): its answer is not carried to these bytes."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    noop.sync_result(proj, "write")
    path = _agent_file(proj)
    rel = path.relative_to(proj).as_posix()
    record = proj / noop.record_path("validate")
    data = read_json_file(record)
    data["files"][rel] = [1, 2, 3, 4, 5]
    write_json_file(record, data)
    forged = record.read_bytes()
    _same_bytes(proj)
    hits = Hits(monkeypatch)
    assert noop.sync_result(proj, "write")["written"] == 0
    assert hits.count == 1
    assert record.read_bytes() == forged
    assert noop.recorded(proj, "validate") is None  # the full run decides
    assert _fast(proj) == _reference(proj)


def test_a_save_during_another_command_s_load_is_not_taken_for_the_same_bytes(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parse cache deleted (always safe), then `agents list` or the MCP server loads while
    an editor saves an edit of the same size: the load stats the file before the save and
    reads it after. The next sync must see the edit, not the recorded answer."""
    from orkestra.core import yamlio
    from orkestra.registry.loader import load as loaded

    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    noop.sync_result(proj, "write")
    shutil.rmtree(proj / parse_cache.CACHE)
    path = proj / "registries" / "agents" / "plain-helper.yaml"
    text = path.read_text(encoding="utf-8")
    edited = text.replace("Be plain.", "Be plane.", 1)  # the same size
    assert edited != text
    real = yamlio.read_text

    def saved_meanwhile(file: Path, **kwargs: Any) -> str:
        if Path(file) == path and path.read_text(encoding="utf-8") == text:
            temporary = path.with_name("saved.tmp")
            temporary.write_text(edited, encoding="utf-8")
            temporary.replace(path)
        return real(file, **kwargs)

    monkeypatch.setattr(yamlio, "read_text", saved_meanwhile)
    loaded(proj, lazy_models=True)
    monkeypatch.setattr(yamlio, "read_text", real)
    got = _fast(proj)  # before a full load, which would store the new identity
    assert got == _reference(proj)
    assert ".claude/agents/plain-helper.md" in got[1]["updated"]  # the edit shows


def _swap(proj: Path, folder: str, into: Path, aside: Path) -> None:
    """`folder` of the project renamed to `aside`, and `into` renamed into its place."""
    (proj / folder).rename(aside)
    into.rename(proj / folder)


def _settled_tree(top: Path) -> None:
    """Every stat in the tree at `top` an old, settled one (a tree made long ago)."""
    settled = time.time_ns() - 10_000_000_000
    for path in [top, *top.rglob("*")]:
        os.utime(path, ns=(settled, settled), follow_symlinks=False)


@pytest.mark.parametrize("folder", ["registries", "registries/agents", "registries/decisions"])
def test_a_tree_swapped_in_while_a_run_reads_the_old_one_gets_no_record(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str
) -> None:
    """A deploy script renames a new `registries/` (or one of its folders) into place while
    `validate` is between its load and its record. The new tree's files keep their old,
    settled stats, and a folder is recorded by mode, owner and inode: only the folder's own
    ctime shows the rename, so the run is not recorded and the next one loads the new tree."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    new = tmp_path / "new"
    shutil.copytree(proj / folder, new, symlinks=True)
    agent = new / "agents" / "plain-helper.yaml" if folder == "registries" else None
    if folder == "registries/agents":
        agent = new / "plain-helper.yaml"
    if agent is not None:
        agent.write_text(agent.read_text(encoding="utf-8") + "skills: [no-such-skill]\n",
                         encoding="utf-8")  # fmt: skip
    else:
        shutil.rmtree(new)  # the decisions folder swapped for an empty one
        new.mkdir()
    _settled_tree(new)
    monkeypatch.setattr(noop, "FINE_RACY_NS", 100_000_000)  # the real windows
    monkeypatch.setattr(noop, "RACY_NS", 2_000_000_000)
    time.sleep(0.2)  # the copied project's own changes settle
    at_call(monkeypatch, noop, "snapshot", lambda: _swap(proj, folder, new, tmp_path / "old"))
    noop.validate_report(proj)
    assert not (proj / noop.record_path("validate")).exists()
    expected = _findings(validate(load(proj)))
    assert _findings(noop.validate_report(proj)) == expected
    if agent is not None:
        assert any(f[2] == "ORK024" for f in expected)


def test_same_bytes_beside_a_new_file_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    noop.sync_result(proj, "write")
    _same_bytes(proj)  # the first agent: the first change the walk meets
    source = _agent_file(proj)
    text = source.read_text(encoding="utf-8").replace(f"name: {source.stem}", "name: zz-new", 1)
    (source.parent / "zz-new.yaml").write_text(text, encoding="utf-8")
    _bump(source.parent / "zz-new.yaml")
    hits = Hits(monkeypatch)
    assert _fast(proj) == _reference(proj)
    assert hits.count == 0


def test_a_validate_record_made_on_its_own_is_rewritten_too(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`validate`'s record made after the sync's (another start) holds the same identity for
    the file: both take the new one."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    noop.sync_result(proj, "write")
    (proj / noop.record_path("validate")).unlink()
    noop.validate_report(proj)
    assert (
        _record(proj)["start"] != jsonio.read_sealed(proj / noop.record_path("validate"))["start"]
    )
    _same_bytes(proj)
    assert noop.sync_result(proj, "write")["written"] == 0
    checks: list[Any] = []
    real = noop.same_bytes
    monkeypatch.setattr(noop, "same_bytes", lambda *a, **k: checks.append(a) or real(*a, **k))
    assert _findings(noop.validate_report(proj)) == _reference(proj)[0]
    assert checks == []


def test_a_folder_that_cannot_be_looked_at_when_recording_gets_no_record(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    decisions = str(proj / "registries" / "decisions")
    real = os.lstat

    def lstat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        if os.fspath(path) == decisions and calls:  # gone by the time the record is made
            raise FileNotFoundError(path)
        return real(path, *args, **kwargs)

    calls: list[bool] = []
    at_call(monkeypatch, noop, "_folders_settled", lambda: calls.append(True))
    monkeypatch.setattr(os, "lstat", lstat)
    noop.validate_report(proj)
    monkeypatch.setattr(os, "lstat", real)
    assert calls and not (proj / noop.record_path("validate")).exists()


def test_a_tree_swapped_in_while_a_sync_writes_gets_no_record(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock's folder is one a writing sync changes itself, so its times prove nothing: it
    must still be the folder the run began with."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    from orkestra.render import writer

    new = tmp_path / "new"
    shutil.copytree(proj / "registries", new, symlinks=True)
    agent = new / "agents" / "plain-helper.yaml"
    agent.write_text(agent.read_text(encoding="utf-8") + "skills: [no-such-skill]\n", "utf-8")
    _reprompt(proj)  # the sync writes
    at_call(monkeypatch, writer, "apply", lambda: _swap(proj, "registries", new, tmp_path / "old"))
    noop.sync_result(proj, "write")
    assert not (proj / noop.record_path("validate")).exists()
    assert any(f[2] == "ORK024" for f in _findings(noop.validate_report(proj)))


def test_a_tree_swapped_out_and_back_while_a_sync_reads_gets_no_record(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sync loads another `registries/` (swapped in, then the first one put back before the
    write): it renders from the other tree and writes into the first. The folder is the same
    one again, but its ctime moved before the write: no record, and the next runs see what a
    cold run sees."""
    from orkestra.registry import loader

    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    other = tmp_path / "other"
    shutil.copytree(proj / "registries", other, symlinks=True)
    agent = other / "agents" / "plain-helper.yaml"
    agent.write_text(agent.read_text(encoding="utf-8").replace("Be plain.", "Be plane.", 1),
                     encoding="utf-8")  # fmt: skip
    _settled_tree(other)
    _reprompt(proj)  # the sync writes
    real = loader.load

    def swapped(*args: Any, **kwargs: Any) -> Any:
        _swap(proj, "registries", other, tmp_path / "first")
        try:
            return real(*args, **kwargs)
        finally:
            _swap(proj, "registries", tmp_path / "first", other)

    monkeypatch.setattr(loader, "load", swapped)
    noop.sync_result(proj, "write")
    monkeypatch.setattr(loader, "load", real)
    assert not (proj / noop.record_path("sync")).exists()
    assert _fast(proj) == _reference(proj)


def test_a_tree_swapped_in_after_a_sync_wrote_gets_no_record(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Swapped in once the write is done, before the record is made: the lock's folder is no
    longer the one the write left."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    other = tmp_path / "other"
    shutil.copytree(proj / "registries", other, symlinks=True)
    _reprompt(proj)
    at_call(
        monkeypatch,
        noop,
        "_after_write",
        lambda: _swap(proj, "registries", other, tmp_path / "first"),
    )
    noop.sync_result(proj, "write")
    assert not (proj / noop.record_path("sync")).exists()
    assert _fast(proj) == _reference(proj)


def test_a_lock_folder_changed_just_before_a_writing_sync_gets_no_record(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Changed within the racy window before the run began (a time ahead of the clock stands for
    it, the windows being 0 here, and counted from the mtime: `settles_from` would count a
    future mtime from the ctime): where times are coarse, a swap in that tick would not show."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    monkeypatch.setattr(noop, "settles_from", lambda mtime, ctime, at: max(mtime, ctime))
    ahead = time.time_ns() + 60_000_000_000
    os.utime(proj / "registries", ns=(ahead, ahead))
    _reprompt(proj)
    assert noop.sync_result(proj, "write")["written"] >= 2
    assert not (proj / noop.record_path("sync")).exists()
    assert _fast(proj) == _reference(proj)


def test_a_tree_swapped_out_and_back_after_a_sync_wrote_gets_no_record(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the write and the record: the lock's folder is no longer as the write left it
    (its ctime moved), so the record is not made (the same tree is back: a conservative
    refusal)."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    other = tmp_path / "other"
    shutil.copytree(proj / "registries", other, symlinks=True)
    _reprompt(proj)

    def out_and_back() -> None:
        _swap(proj, "registries", other, tmp_path / "first")
        _swap(proj, "registries", tmp_path / "first", other)

    at_call(monkeypatch, noop, "_after_write", out_and_back)
    noop.sync_result(proj, "write")
    assert not (proj / noop.record_path("sync")).exists()
    assert _fast(proj) == _reference(proj)


def test_the_same_bytes_changed_within_the_window_answer_but_are_not_recorded(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Written again just now: an edit in the same tick could keep the new identity, so it
    vouches for nothing yet; the record and the cache entry stay as they were, and the next
    run reads the bytes again. (The racy windows are 0 here: a change time ahead of the clock
    stands for one within the window.)"""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    noop.sync_result(proj, "write")
    path = _agent_file(proj)
    ahead = time.time_ns() + 60_000_000_000
    os.utime(path, ns=(ahead, ahead))
    records = {run: (proj / noop.record_path(run)).read_bytes() for run in ("sync", "validate")}
    shards = {p.name: p.read_bytes() for p in (proj / parse_cache.CACHE).iterdir()}
    hits = Hits(monkeypatch)
    with monkeypatch.context() as patched:
        _never_loaded(patched)
        answers = _fast(proj)
    assert hits.count == 2
    assert {run: (proj / noop.record_path(run)).read_bytes() for run in records} == records
    assert {p.name: p.read_bytes() for p in (proj / parse_cache.CACHE).iterdir()} == shards
    assert answers == _reference(proj)


def test_another_day_or_version_is_a_full_run(proj: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    noop.validate_report(proj)
    hits = Hits(monkeypatch)
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-12-01")
    noop.validate_report(proj)
    monkeypatch.setattr(noop, "SCHEMA", noop.SCHEMA + 1)
    noop.validate_report(proj)
    assert hits.count == 0


@pytest.mark.parametrize(
    "damage",
    ["{not json", "[]", '{"schema": 1}', "", "null", "one letter"],
)
def test_a_damaged_record_is_ignored_and_replaced(
    proj: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    expected = _findings(noop.validate_report(proj))
    record = proj / noop.record_path("validate")
    if damage == "one letter":  # still valid JSON, a well-formed record: the checksum tells
        raw = record.read_bytes()
        at = raw.index(b'"message":"') + len(b'"message":"')
        record.write_bytes(raw[:at] + (b"X" if raw[at : at + 1] != b"X" else b"Y") + raw[at + 1 :])
    else:
        record.write_text(damage, encoding="utf-8")
    hits = Hits(monkeypatch)
    assert _findings(noop.validate_report(proj)) == expected
    assert hits.count == 0
    assert read_json_file(record)["schema"] == noop.SCHEMA


def test_a_forged_result_with_changed_files_is_not_trusted(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    noop.validate_report(proj)
    record = proj / noop.record_path("validate")
    data = read_json_file(record)
    data["result"] = [{"file": "x", "line": 1, "code": "ORK999", "severity": "error",
                       "message": "forged"}]  # fmt: skip
    data["files"][next(iter(data["files"]))] = [1, 2, 3, 4, 5]
    write_json_file(record, data)
    assert all(f.code != "ORK999" for f in noop.validate_report(proj).findings)


def test_a_racy_file_is_never_vouched_for(proj: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    path = _agent_file(proj)
    path.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")  # changed just now
    noop.validate_report(proj)
    hits = Hits(monkeypatch)
    noop.validate_report(proj)
    assert hits.count == 0


def test_a_symlinked_state_folder_gets_no_record(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    shutil.rmtree(proj / ".orkestra", ignore_errors=True)
    (proj / ".orkestra").symlink_to(outside)
    noop.validate_report(proj)
    noop.sync_result(proj, "check")
    assert not list(outside.glob("noop-*"))


def test_a_symlink_in_a_walked_folder_gets_no_record(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    (proj / "registries" / "link.txt").symlink_to(proj / "CLAUDE.md")
    noop.validate_report(proj)
    assert not (proj / noop.record_path("validate")).exists()


def test_a_run_that_spawns_or_writes_is_never_recorded(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    with noop.tracing(root) as trace:
        (root / "read.txt").write_text("x", encoding="utf-8")
    assert trace.unfit
    with noop.tracing(root) as trace:
        (root / noop.FOLDER).mkdir()
        (root / noop.FOLDER / "cache").write_text("x", encoding="utf-8")  # derived state: fine
        (root / "read.txt").read_text(encoding="utf-8")
        list((root / noop.FOLDER).iterdir())
    assert not trace.unfit
    files, folders = trace.paths()
    assert files == ["read.txt"] and folders == []
    with noop.tracing(root) as trace:
        import subprocess

        subprocess.run(["true"], check=True)
    assert trace.unfit


def test_the_cli_answers_a_no_op_from_the_record_with_the_same_output(
    proj: Path, monkeypatch: pytest.MonkeyPatch, cli: Any
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    first = cli("sync", "--format", "json", cwd=proj)
    second = cli("sync", "--format", "json", cwd=proj)
    assert (first.exit_code, first.stdout) == (second.exit_code, second.stdout)
    assert (proj / noop.record_path("sync")).is_file()
    ok = cli("validate", cwd=proj)
    assert ok.exit_code == 0
    agent = _agent_file(proj)
    text = agent.read_text(encoding="utf-8")
    agent.write_text(text.replace("identity:\n  - ", "identity:\n  - no-such-", 1))
    _bump(agent)
    broken = cli("validate", cwd=proj)
    assert broken.exit_code == 1 and "unknown identity 'no-such-" in broken.stdout
    check = cli("sync", "--check", cwd=proj)
    assert check.exit_code == 1


def _validation_also_reads(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Validation gains a finding whose message is `path`'s text: an input no listed folder
    holds (as a later rule might add)."""
    from orkestra.registry import validate as module
    from orkestra.registry.findings import Finding, Report

    real = module.validate

    def reading(reg: Any) -> Report:
        text = path.read_text(encoding="utf-8").strip()
        return Report((*real(reg).findings, Finding.make("ORK108", text, "x", 1)))

    monkeypatch.setattr(module, "validate", reading)
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")


def test_a_file_the_run_read_is_recorded_even_when_nobody_listed_it(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An input a later change adds to validation, outside every listed folder, still counts."""
    extra = proj / "docs" / "policy.txt"
    extra.parent.mkdir()
    extra.write_text("v1\n", encoding="utf-8")
    _validation_also_reads(monkeypatch, extra)
    noop.validate_report(proj)
    record = jsonio.read_sealed(proj / noop.record_path("validate"))
    assert "docs/policy.txt" in record["singles"]
    assert "v1" in {f.message for f in noop.validate_report(proj).findings}
    extra.write_text("v2\n", encoding="utf-8")
    _bump(extra)
    assert "v2" in {f.message for f in noop.validate_report(proj).findings}


def test_the_racy_window_follows_the_file_system_s_timestamp_precision() -> None:
    start = 50 * 1_000_000_000
    whole = 49 * 1_000_000_000  # 1 s before: a whole-second file system may not show an edit
    fine = whole + 123_456_789  # 0.88 s before, with sub-second precision: safely older
    assert noop._racy([1, whole, whole, 1, 1], start)
    assert not noop._racy([1, fine, fine, 1, 1], start)
    assert noop._racy([1, start - 1_000, start - 1_000, 1, 1], start)  # within a tick
    assert noop._racy([1, fine, fine, 1, 1, 1, whole, whole, 1, 1], start)  # a link's target
    assert noop._racy(["x", 1, 2, 3, 4], start)  # malformed: never vouches


def test_a_resources_folder_created_later_clears_its_finding(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A missing resources folder is only checked to exist (no file is opened)."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    _append(proj / "registries" / "skills" / "project" / "dormant-skill.yaml", "resources: res/\n")
    assert "ORK041" in {f.code for f in noop.validate_report(proj).findings}
    assert "ORK041" in {f.code for f in noop.validate_report(proj).findings}  # from the record
    (proj / "registries" / "skills" / "project" / "res").mkdir()
    assert "ORK041" not in {f.code for f in noop.validate_report(proj).findings}


def test_recording_runs_with_the_collector_paused(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record is written beside a loaded registry: a full collection there walks all of it."""
    import gc

    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    seen: list[bool] = []
    real = noop.save
    monkeypatch.setattr(noop, "save", lambda *a, **k: (seen.append(gc.isenabled()), real(*a, **k)))
    noop.validate_report(proj)
    noop.sync_result(proj, "check")
    assert seen == [False, False]
    assert gc.isenabled()


def test_a_file_read_outside_the_project_is_recorded_by_its_absolute_path(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = tmp_path / "shared-policy.txt"
    outside.write_text("v1\n", encoding="utf-8")
    _validation_also_reads(monkeypatch, outside)
    noop.validate_report(proj)
    record = jsonio.read_sealed(proj / noop.record_path("validate"))
    assert record["files"][str(outside)] is not None  # its real identity, not "absent"
    outside.write_text("v2 longer\n", encoding="utf-8")
    _bump(outside)
    assert "v2 longer" in {f.message for f in noop.validate_report(proj).findings}


def _git(root: Path, *args: str) -> None:
    import subprocess

    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}  # fmt: skip
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


def test_packages_are_recorded_by_the_git_index_and_a_git_add_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ORK048 asks `git ls-files`: the record holds the index's stat, so staging a file that
    a package pattern matches clears the finding."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    _append(proj / "registries" / "orkestra.yaml", 'mining:\n  packages:\n    web: "web/**"\n')
    _git(proj, "init", "-q")
    _git(proj, "add", "-A")
    _git(proj, "commit", "-qm", "init")
    hits = Hits(monkeypatch)
    assert "ORK048" in {f.code for f in noop.validate_report(proj).findings}
    assert "ORK048" in {f.code for f in noop.validate_report(proj).findings}
    assert hits.count == 1  # the second answer came from the record
    record = jsonio.read_sealed(proj / noop.record_path("validate"))
    assert {".git", ".git/index"} <= set(record["singles"])
    (proj / "web").mkdir()
    (proj / "web" / "app.js").write_text("x\n", encoding="utf-8")
    assert "ORK048" in {f.code for f in noop.validate_report(proj).findings}  # not tracked yet
    _git(proj, "add", "web/app.js")
    assert "ORK048" not in {f.code for f in noop.validate_report(proj).findings}


def test_a_git_repository_created_above_the_project_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    _append(proj / "registries" / "orkestra.yaml", 'mining:\n  packages:\n    web: "web/**"\n')
    (proj / "web").mkdir()
    (proj / "web" / "app.js").write_text("x\n", encoding="utf-8")
    assert "ORK048" not in {f.code for f in noop.validate_report(proj).findings}  # not in git
    _git(proj.parent, "init", "-q")  # a repository above: nothing is tracked yet
    assert "ORK048" in {f.code for f in noop.validate_report(proj).findings}


def test_only_git_ls_files_is_allowed_in_a_recorded_run(tmp_path: Path) -> None:
    import subprocess

    from orkestra.core import git

    with noop.tracing(tmp_path) as trace:
        git.run(tmp_path, "ls-files", "-z", check=False)
    assert trace.git_listed and not trace.unfit
    with noop.tracing(tmp_path) as trace:
        git.run(tmp_path, "status", check=False)
    assert trace.unfit
    with noop.tracing(tmp_path) as trace:
        subprocess.run(["git", "ls-files", "-z"], cwd=tmp_path, check=False, capture_output=True)
    assert trace.unfit  # not core.git's safe command line


def test_a_linked_worktree_records_its_own_index(tmp_path: Path) -> None:
    main, linked = tmp_path / "main", tmp_path / "linked"
    main.mkdir()
    _git(main, "init", "-q")
    (main / "a.txt").write_text("a\n", encoding="utf-8")
    _git(main, "add", "-A")
    _git(main, "commit", "-qm", "a")
    _git(main, "worktree", "add", "-q", str(linked))
    paths = noop._git_paths(linked.resolve())
    assert paths is not None and paths[0] == str(linked.resolve() / ".git")
    assert paths[-1].endswith("/worktrees/linked/index") and Path(paths[-1]).is_file()
    (linked / ".git").write_text("not a gitdir line\n", encoding="utf-8")
    assert noop._git_paths(linked.resolve()) is None


def _with_evidence(root: Path, rel: str) -> None:
    path = root / "registries" / "truths" / "project.yaml"
    text = path.read_text(encoding="utf-8")
    old = "- registries/orkestra.yaml\n"
    indent = text.split(old, 1)[0].rsplit("\n", 1)[-1]
    path.write_text(text.replace(old, f"{old}{indent}- {rel}\n", 1), encoding="utf-8")
    _bump(path)


@pytest.mark.parametrize("folder", ["src", "registries", "vendor"])
def test_a_folder_on_the_way_swapped_for_a_symlink_out_of_the_project_is_a_full_run(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str
) -> None:
    """`mv src elsewhere && ln -s elsewhere/src src` keeps every file's stat (a rename keeps
    inodes), yet the full run refuses what now lies outside the project."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    (proj / "src").mkdir()
    (proj / "src" / "a.py").write_text("x = 1\n", encoding="utf-8")
    _bump(proj / "src" / "a.py")
    _with_evidence(proj, "src/a.py")
    assert _fast(proj) == _reference(proj)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (proj / folder).rename(outside / folder)
    (proj / folder).symlink_to(outside / folder)
    assert _fast(proj) == _reference(proj)
    assert _fast(proj) == _reference(proj)


def test_a_temporary_file_of_a_live_writer_gets_no_record(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A killed sync's temporary file is deleted by the next sync, but not while its writer's
    pid is alive (nor before it is a day old): its stat cannot vouch for when that changes."""
    import subprocess

    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    writer = subprocess.Popen(["sleep", "30"])
    try:
        temp = proj / ".claude" / "agents" / f".x.md.orkestra-{writer.pid}-1.tmp"
        temp.write_text("partial", encoding="utf-8")
        recent = time.time_ns() - 10_000_000_000
        os.utime(temp, ns=(recent, recent))
        _bump(temp.parent)
        assert _fast(proj) == _reference(proj)  # not stale: its writer is alive
    finally:
        writer.kill()
        writer.wait()
    assert _fast(proj) == _reference(proj)  # stale now: sync --check has it to delete


def test_another_interpreter_or_project_path_is_a_full_run(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The `orkestra` MCP server entry names the interpreter and the project's path: a run from
    another virtual environment, or after `mv` (which keeps every stat), must see the change."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    _append(proj / "registries" / "orkestra.yaml", "mcp:\n  serve: true\n")
    sync(proj, mode="write")
    for dirpath, _dirs, files in os.walk(proj):
        for name in files:
            _bump(Path(dirpath) / name)
    assert _fast(proj) == _reference(proj)
    import sys

    real = sys.executable
    monkeypatch.setattr(sys, "executable", str(tmp_path / "other-venv" / "bin" / "python"))
    assert _fast(proj) == _reference(proj)
    assert _fast(proj) == _reference(proj)
    monkeypatch.setattr(sys, "executable", real)
    assert _fast(proj) == _reference(proj)
    moved = tmp_path / "moved"
    proj.rename(moved)
    assert _fast(moved) == _reference(moved)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root")
@pytest.mark.parametrize("repository", ["project", "above"])
def test_a_repository_another_user_owns_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch, repository: str
) -> None:
    """git refuses a repository another user owns ('dubious ownership'): ORK048 then has no
    tracked files to check, and `chown` leaves every recorded file's stat alone."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    _append(proj / "registries" / "orkestra.yaml", 'mining:\n  packages:\n    web: "web/**"\n')
    top = proj if repository == "project" else proj.parent
    _git(top, "init", "-q")
    _git(top, "add", "-A")
    _git(top, "commit", "-qm", "init")
    hits = Hits(monkeypatch)
    assert _fast(proj) == _reference(proj)
    assert _fast(proj) == _reference(proj)
    assert hits.count == 1  # validate answered from the record (sync refuses: ORK048)
    os.chown(top, 65534, -1)
    try:
        assert "ORK048" not in {f[2] for f in _reference(proj)[0]}
        assert _fast(proj) == _reference(proj)
    finally:
        os.chown(top, 0, -1)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root")
def test_a_git_setting_of_the_user_is_a_full_run(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`git config --global --add safe.directory '*'` makes git answer for a repository another
    user owns: ORK048 then finds the pattern unmatched, though no project file changed."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    (tmp_path / "home").mkdir()
    _append(proj / "registries" / "orkestra.yaml", 'mining:\n  packages:\n    web: "web/**"\n')
    _git(proj, "init", "-q")
    os.chown(proj, 65534, -1)
    try:
        hits = Hits(monkeypatch)
        assert _fast(proj) == _reference(proj)
        assert _fast(proj) == _reference(proj)
        assert hits.count == 2  # git refused: no ORK048, both answered from the record
        config = tmp_path / "home" / ".gitconfig"
        config.write_text("[safe]\n\tdirectory = *\n", encoding="utf-8")
        _bump(config)
        assert "ORK048" in {f[2] for f in _reference(proj)[0]}
        assert _fast(proj) == _reference(proj)
    finally:
        os.chown(proj, 0, -1)


def test_installing_or_upgrading_a_library_is_a_full_run(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new Jinja or PyYAML may render or parse differently: `pip` adds and removes entries in
    the site-packages folder (a `.dist-info` per version), which keys the record."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    libraries = tmp_path / "lib" / "site-packages"
    libraries.mkdir(parents=True)
    monkeypatch.syspath_prepend(str(libraries))
    hits = Hits(monkeypatch)
    noop.validate_report(proj)
    noop.validate_report(proj)
    assert hits.count == 1
    (libraries / "jinja2-9.0.dist-info").mkdir()
    noop.validate_report(proj)
    assert hits.count == 1


def test_a_lock_entry_with_a_nul_is_reported_not_a_crash(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock's entries are stat'ed for the record; a NUL in one (a hand-damaged lock) is a
    path that cannot exist, which validation reports (ORK046) rather than a ValueError."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    lock = proj / "registries" / ".render-lock.json"
    data = read_json_file(lock)
    data["files"]["bad\0name.md"] = next(iter(data["files"].values()))
    lock.write_text(json.dumps(data, indent=2), encoding="utf-8")
    _bump(lock)
    assert "ORK046" in {f[2] for f in _reference(proj)[0]}
    assert _fast(proj) == _reference(proj)
    assert _fast(proj) == _reference(proj)


def test_a_file_name_that_is_not_utf8_gets_no_record_and_no_crash(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    odd = proj / "registries" / "agents" / os.fsdecode(b"caf\xe9.txt")  # not UTF-8 on disk
    odd.write_bytes(b"x")
    _bump(odd)
    assert _fast(proj) == _reference(proj)
    assert not list((proj / noop.FOLDER).glob("noop-*"))


@pytest.mark.parametrize("target", ["copilot", "cursor", "gemini", "codex", "claude"])
def test_a_client_s_mcp_config_arriving_with_our_entry_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch, target: str
) -> None:
    """With `serve: false`, sync withdraws an `orkestra` entry equal to its own from every
    client's MCP config; an absent file is only checked to exist, so a `git pull` bringing one
    (into a `.vscode/` that was already there) must reach a full run."""
    from orkestra.render.targets import mcp_config

    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    spec = mcp_config.FILES[target]
    path = proj / spec.path
    path.parent.mkdir(exist_ok=True)
    (path.parent / "other.json").write_text("{}", encoding="utf-8")
    _bump(path.parent / "other.json")
    assert _fast(proj) == _reference(proj)
    entry = mcp_config.entry(load(proj), target)
    if spec.toml:
        path.write_text(
            f"[{spec.table}.orkestra]\ncommand = {json.dumps(entry['command'])}\n"
            f"args = {json.dumps(entry['args'])}\n",
            encoding="utf-8",
        )
    else:
        path.write_text(json.dumps({spec.table: {"orkestra": entry}}), encoding="utf-8")
    _bump(path)
    assert spec.path in _reference(proj)[1]["updated"]
    assert _fast(proj) == _reference(proj)


def test_the_real_cli_sees_a_client_config_arrive_after_a_recorded_check(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The installed `orkestra` in subprocesses, with the real racy window: the second check is
    answered from the record, the third must see `.vscode/mcp.json` (ours to withdraw)."""
    import subprocess
    import sys

    from orkestra.render.targets import mcp_config

    exe = Path(sys.executable).parent / "orkestra"
    if not exe.is_file():
        pytest.skip("no installed orkestra script beside the interpreter")
    env = {**os.environ, "ORKESTRA_TODAY": "2026-11-30", "NO_COLOR": "1"}
    (proj / ".vscode").mkdir()
    (proj / ".vscode" / "settings.json").write_text("{}", encoding="utf-8")
    time.sleep(0.25)  # the copied files' change times leave the real racy window (0.1 s)

    def check() -> subprocess.CompletedProcess[str]:
        argv = [str(exe), "sync", "--check", "--format", "text"]
        return subprocess.run(argv, cwd=proj, env=env, capture_output=True, text=True, check=False)

    first, second = check(), check()
    assert (first.returncode, second.returncode) == (0, 0)
    assert (proj / noop.record_path("sync")).is_file()
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    entry = mcp_config.entry(load(proj), "copilot")
    (proj / ".vscode" / "mcp.json").write_text(json.dumps({"servers": {"orkestra": entry}}))
    third = check()
    assert third.returncode == 1 and "updated .vscode/mcp.json" in third.stdout


def test_a_run_across_midnight_is_recorded_under_the_day_it_computed_for(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stale-date gates use the day the run read; a run that ends after midnight must not
    file its result under the new day (where GT-PRJ-001 turns 91 days old: ORK104)."""
    from orkestra.registry import validate as module

    real = module.validate

    def across_midnight(reg: Any) -> Any:
        report = real(reg)
        monkeypatch.setenv("ORKESTRA_TODAY", "2027-01-31")  # the clock ticks over mid-run
        return report

    monkeypatch.setenv("ORKESTRA_TODAY", "2027-01-30")  # GT-PRJ-001: 90 days, not stale yet
    monkeypatch.setattr(module, "validate", across_midnight)
    assert "ORK104" not in {f.code for f in noop.validate_report(proj).findings}
    monkeypatch.setattr(module, "validate", real)
    assert "ORK104" in {f[2] for f in _reference(proj)[0]}
    assert _fast(proj) == _reference(proj)


# --- the record a writing sync leaves -------------------------------------------------------


def _written_output(root: Path) -> Path:
    """The agent output `_reprompt` rewrites."""
    return root / ".claude" / "agents" / f"{_agent_file(root).stem}.md"


def _reprompt(root: Path) -> None:
    """An edit that changes what the agent's output holds."""
    path = _agent_file(root)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("Check every migration", "Check each migration", 1), "utf-8")
    _bump(path)


def _record(root: Path) -> dict[str, Any]:
    data: dict[str, Any] = jsonio.read_sealed(root / noop.record_path("sync"))
    return data


def test_a_write_leaves_a_record_the_next_sync_answers_from(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    monkeypatch.setattr(noop, "SETTLE_AT", 0)  # settled however few files it wrote
    _reprompt(proj)
    wrote = noop.sync_result(proj, "write")
    assert wrote["written"] >= 2  # the agent's file and the lock
    expected = _record(proj)["expected"]
    output = _written_output(proj).relative_to(proj).as_posix()
    assert expected[output][0] == "file"
    assert expected["registries/.render-lock.json"][0] == "file"
    hits = Hits(monkeypatch)
    answer = noop.sync_result(proj, "check")
    assert hits.count == 1
    assert answer == _reference(proj)[1]
    assert answer["unchanged"] and not answer["updated"]
    assert _record(proj)["expected"] == {}  # settled: the next no-op only stats
    assert noop.sync_result(proj, "check") == answer
    assert hits.count == 2


def test_an_output_rewritten_with_the_same_bytes_after_a_write_is_still_answered(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file the write made is checked by its content, not its stat: the same bytes written
    again (a new inode and times) still answer from the record."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    _reprompt(proj)
    noop.sync_result(proj, "write")
    output = _written_output(proj)
    data = output.read_bytes()
    output.unlink()
    output.write_bytes(data)
    hits = Hits(monkeypatch)
    assert noop.sync_result(proj, "check") == _reference(proj)[1]
    assert hits.count == 1


def _after_a_write(
    proj: Path, monkeypatch: pytest.MonkeyPatch, change: Callable[[Path], None]
) -> dict[str, Any]:
    """`change` the agent output a write just made, keeping its mtime; the next check must be
    a full run (not answered from the write's record) and answer what a full run does."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    _reprompt(proj)
    noop.sync_result(proj, "write")
    output = _written_output(proj)
    st = output.stat()
    change(output)
    if output.exists():
        os.utime(output, ns=(st.st_atime_ns, st.st_mtime_ns))
    hits = Hits(monkeypatch)
    answer: dict[str, Any] = noop.sync_result(proj, "check")
    assert hits.count == 0
    assert answer == _reference(proj)[1]
    return answer


def test_an_output_rewritten_within_the_same_tick_after_a_write_is_caught(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same size, same mtime: only the content tells the edit apart."""

    def same_size(output: Path) -> None:
        output.write_text(output.read_text("utf-8").replace("a", "b", 1), encoding="utf-8")

    answer = _after_a_write(proj, monkeypatch, same_size)
    assert answer["conflicts"] == [_written_output(proj).relative_to(proj).as_posix()]


def test_an_output_made_executable_after_a_write_is_caught(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = _after_a_write(proj, monkeypatch, lambda output: output.chmod(0o755))
    assert _written_output(proj).relative_to(proj).as_posix() in answer["updated"]


def test_a_file_added_beside_the_outputs_after_a_write_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def stray(output: Path) -> None:
        left = output.parent / ".stray.orkestra-999999-1.tmp"
        left.write_text("left by a killed run\n", encoding="utf-8")

    answer = _after_a_write(proj, monkeypatch, stray)
    assert answer["deleted"] == [".claude/agents/.stray.orkestra-999999-1.tmp"]


def _hand_made(root: Path) -> Path:
    """The user's own agent beside the rendered ones in `.claude/agents/`."""
    mine = root / ".claude" / "agents" / "hand-made.md"
    mine.write_text("---\nname: hand-made\n---\n", encoding="utf-8")
    _bump(mine)
    return mine


@pytest.mark.parametrize("edit", [_reprompt, _new_agent], ids=["updated", "created"])
def test_a_folder_the_write_shares_with_a_file_of_the_user_is_recorded_by_its_names(
    proj: Path, monkeypatch: pytest.MonkeyPatch, edit: Callable[[Path], None]
) -> None:
    """The user's own agent lies beside the rendered ones: the record keeps that folder's
    names (those it held before the write, plus what the write added), and the next sync and
    validate answer from it until a name is added there."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    _hand_made(proj)
    edit(proj)
    wrote = noop.sync_result(proj, "write")
    assert any(p.startswith(".claude/agents/") for p in wrote["updated" if edit is _reprompt
                                                              else "created"])  # fmt: skip
    agents = proj / ".claude" / "agents"
    assert _record(proj)["expected"][".claude/agents"] == [
        "listing",
        sorted(p.name for p in agents.iterdir()),
    ]
    hits = Hits(monkeypatch)
    assert _fast(proj) == _reference(proj)
    assert hits.count == 2
    (agents / "another.md").write_text("---\nname: another\n---\n", encoding="utf-8")
    assert _fast(proj) == _reference(proj)
    assert hits.count == 2


@pytest.mark.parametrize("what", ["added", "removed", "temporary"])
def test_a_name_of_a_shared_folder_changed_just_before_the_write_leaves_no_record(
    proj: Path, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    """Between the listing and the write, a name comes or goes beside the user's own agent
    (or another writer's temporary file appears there): the names after the write are not
    those listed plus what the write added, and nothing is recorded."""
    from orkestra.render import writer

    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    mine = _hand_made(proj)
    _reprompt(proj)
    agents = proj / ".claude" / "agents"

    def meddle() -> None:
        if what == "added":  # a folder: this process's own file write would be traced (unfit),
            (agents / "notes").mkdir()  # another process's would not
        elif what == "removed":
            mine.unlink()
        else:  # a live writer's (this process's): never stale, so the write leaves it
            (agents / f".x.md.orkestra-{os.getpid()}-1.tmp").mkdir()

    fired = at_call(monkeypatch, writer, "apply", meddle)
    wrote = noop.sync_result(proj, "write")
    assert fired and _written_output(proj).relative_to(proj).as_posix() in wrote["updated"]
    assert not (proj / noop.record_path("sync")).exists()
    monkeypatch.undo()
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    monkeypatch.setattr(noop, "RACY_NS", 0)
    monkeypatch.setattr(noop, "FINE_RACY_NS", 0)
    hits = Hits(monkeypatch)
    assert _fast(proj) == _reference(proj)
    assert hits.count == 0


def test_a_vendor_root_is_walked_by_its_normal_path(proj: Path) -> None:
    """Written `./vendor//linked/`, it is the folder `vendor/linked`, as the outputs' paths
    are written: a write into it is known as one (`_after_write` records nothing then)."""
    config = proj / "registries" / "orkestra.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("path: vendor/linked", "path: ./vendor//linked/"), "utf-8")
    reg = load(proj, use_cache=False)
    assert reg.config.vendor_roots[0].path == "./vendor//linked/"
    assert "vendor/linked" in (noop._folders(reg) or [])


def test_the_folders_a_write_goes_into_are_listed_top_down_before_it(tmp_path: Path) -> None:
    """Only folders there already: one its parent does not list is made by the write (not
    looked for, nor anything below it); the lock's folder is walked as an input; a folder
    holding a write's temporary file vouches for nothing."""
    (tmp_path / ".claude" / "agents").mkdir(parents=True)
    (tmp_path / ".claude" / "agents" / "mine.md").write_text("mine\n", encoding="utf-8")
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / ".c.md.orkestra-1-1.tmp").write_text("left\n", encoding="utf-8")
    (tmp_path / "registries").mkdir()
    looked: list[str] = []
    real = noop._names

    def names(folder: str) -> list[str] | None:
        looked.append(os.path.relpath(folder, tmp_path))
        return real(folder)

    changed = [".claude/agents/a.md", ".claude/skills/s/SKILL.md", ".github/c.md",
               "registries/.render-lock.json", ".cursor/rules/o.mdc"]  # fmt: skip
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(noop, "_names", names)
        found = noop._listed_before_write(tmp_path, changed)
    assert found == {".claude": ["agents"], ".claude/agents": ["mine.md"]}
    assert sorted(looked) == [".claude", ".claude/agents", ".cursor", ".github"]
    assert noop._added_to(found, [*changed, *noop.ways(changed)]) == {
        ".claude": ["agents", "skills"],
        ".claude/agents": ["a.md", "mine.md"],
    }


def test_a_write_that_deletes_leaves_no_record(proj: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Here a killed run's temporary file, removed by the same write (pruned outputs and
    emptied shared files are deletions too): the next run decides in full."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    stale = proj / ".claude" / "agents" / ".old.md.orkestra-999999-1.tmp"
    stale.write_text("left by a killed run\n", encoding="utf-8")
    _bump(stale)
    _reprompt(proj)
    wrote = noop.sync_result(proj, "write")
    assert wrote["deleted"] == [stale.relative_to(proj).as_posix()]
    assert wrote["written"] >= 2
    assert not (proj / noop.record_path("sync")).exists()


def test_a_write_into_the_project_folder_is_recorded_by_its_names(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CLAUDE.md is written beside the user's own files: the record keeps the project folder's
    names (what it held as the run began, plus what the write added), and the next sync and
    validate answer from it."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    (proj / "CLAUDE.md").unlink()
    _reprompt(proj)
    wrote = noop.sync_result(proj, "write")
    assert "CLAUDE.md" in wrote["created"]
    assert _record(proj)["expected"][str(proj)] == [
        "listing",
        sorted(p.name for p in proj.iterdir()),
    ]
    hits = Hits(monkeypatch)
    assert _fast(proj) == _reference(proj)
    assert hits.count == 2


def test_a_cold_sync_answers_the_next_sync_and_validate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first sync of a project creates `.claude/`, CLAUDE.md and the lock; before, only
    the run after it could record, so that run read everything again."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    root = build_rich(tmp_path / "fresh")
    (root / "NOTES.md").write_text("the user's own file\n", encoding="utf-8")
    wrote = noop.sync_result(root, "write")
    assert {"GROUND_TRUTHS.md", "registries/.render-lock.json"} <= set(wrote["created"])
    assert "CLAUDE.md" in wrote["updated"]  # the user's, with the managed block added
    hits = Hits(monkeypatch)
    assert _fast(root) == _reference(root)
    assert hits.count == 2


@pytest.mark.parametrize("folder", [".claude/agents", ".claude/skills/schema-migration"])
def test_a_killed_run_s_file_in_a_folder_the_write_made_is_a_full_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str
) -> None:
    """A folder the first sync made held nothing its plan could look at: the record checks
    its names all the same, so a killed run's temporary file left there later (which the next
    full sync deletes) is not answered from the record."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    root = build_rich(tmp_path / "fresh")
    noop.sync_result(root, "write")
    assert folder in _record(root)["expected"]
    stale = root / folder / ".x.md.orkestra-999999-1.tmp"
    stale.write_text("left by a killed run\n", encoding="utf-8")
    hits = Hits(monkeypatch)
    answer = _fast(root)
    assert answer == _reference(root)
    assert answer[1]["deleted"] == [stale.relative_to(root).as_posix()]
    assert hits.count == 0


@pytest.mark.parametrize(
    "change",
    [
        lambda root: (root / "NOTES.md").write_text("added by the user\n", encoding="utf-8"),
        lambda root: (root / ".CLAUDE.md.orkestra-999999-1.tmp").write_text("left\n", "utf-8"),
        lambda root: (root / "README.md").unlink(),
        lambda root: (root / "CLAUDE.md").rename(root / "claude.md"),
    ],
    ids=["a file added", "a killed run's temporary file", "a file removed", "an output renamed"],
)
def test_a_change_of_the_project_folder_s_names_after_a_write_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch, change: Callable[[Path], Any]
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    (proj / "README.md").write_text("the user's\n", encoding="utf-8")
    (proj / "CLAUDE.md").unlink()
    _reprompt(proj)
    noop.sync_result(proj, "write")
    assert str(proj) in _record(proj)["expected"]
    change(proj)
    hits = Hits(monkeypatch)
    assert _fast(proj) == _reference(proj)
    assert hits.count == 0


@pytest.mark.parametrize("during", ["render", "validation after the write"])
@pytest.mark.parametrize("what", ["added", "removed"])
def test_a_name_of_the_project_folder_changed_during_the_run_leaves_no_record(
    proj: Path, monkeypatch: pytest.MonkeyPatch, during: str, what: str
) -> None:
    """Something else changed the project folder while the run had it open: its names now
    are not what it held as the run began plus what the write added."""
    from orkestra.render import sync as sync_module

    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    (proj / "README.md").write_text("the user's\n", encoding="utf-8")
    (proj / "CLAUDE.md").unlink()
    _reprompt(proj)

    def meddle() -> None:
        if what == "added":  # a folder: this process's own file write would be traced (unfit),
            (proj / "notes").mkdir()  # another process's would not
        else:
            (proj / "README.md").unlink()

    if during == "render":
        fired = at_call(monkeypatch, sync_module, "_render_reusing", meddle)
    else:
        fired = at_call(monkeypatch, sync_module, "checked", meddle, call=2)
    wrote = noop.sync_result(proj, "write")
    assert fired and "CLAUDE.md" in wrote["created"]
    assert not (proj / noop.record_path("sync")).exists()
    assert not (proj / noop.record_path("validate")).exists()
    monkeypatch.undo()
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    monkeypatch.setattr(noop, "RACY_NS", 0)
    monkeypatch.setattr(noop, "FINE_RACY_NS", 0)
    hits = Hits(monkeypatch)
    assert _fast(proj) == _reference(proj)
    assert hits.count == 0


@pytest.mark.parametrize("write", [False, True], ids=["no-op sync", "writing sync"])
def test_a_sync_records_what_validate_answers(
    proj: Path, monkeypatch: pytest.MonkeyPatch, write: bool
) -> None:
    """Sync validates the same load `validate` would: its record answers `validate` too, with
    every finding (warnings included), until an input changes."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    if write:
        _reprompt(proj)
    wrote = noop.sync_result(proj, "write")
    assert bool(wrote["written"]) is write
    full = _reference(proj)[0]
    assert any(f[3] == "warning" for f in full)
    hits = Hits(monkeypatch)
    assert _findings(noop.validate_report(proj)) == full
    assert hits.count == 1
    _describe_agent(proj)
    assert _findings(noop.validate_report(proj)) == _reference(proj)[0]
    assert hits.count == 1  # an input changed: validated in full


def test_the_validation_after_a_write_runs_the_registry_s_own_rules_no_more(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """They read the load alone, which the write did not change: their findings are those
    taken before the render. The rules reading beside the registry run again, and the
    recorded answer is still a full validation's."""
    from orkestra.registry import validate as rules

    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    runs = {"registry": 0, "disk": 0}

    def counted(rule: Any, group: str) -> Any:
        def run(reg: Any) -> Any:
            runs[group] += 1
            return rule(reg)

        return run

    monkeypatch.setattr(rules, "REGISTRY_RULES", (counted(rules.agent_references, "registry"),
                                                  *rules.REGISTRY_RULES[1:]))  # fmt: skip
    monkeypatch.setattr(rules, "DISK_RULES", (counted(rules.lock_entries, "disk"),
                                              *rules.DISK_RULES[1:]))  # fmt: skip
    _reprompt(proj)
    assert noop.sync_result(proj, "write")["written"] >= 2
    assert runs == {"registry": 1, "disk": 2}
    monkeypatch.undo()
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    hits = Hits(monkeypatch)
    assert _findings(noop.validate_report(proj)) == _reference(proj)[0]
    assert hits.count == 1


# --- the plan reads no output a record proves unchanged -----------------------------------------


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The outputs the plan compares by content from now on."""
    from orkestra.render import writer

    read: list[str] = []
    real = writer._same

    def spy(full: str, st: os.stat_result, out: Any) -> bool:
        read.append(out.path)
        return bool(real(full, st, out))

    monkeypatch.setattr(writer, "_same", spy)
    return read


def test_a_full_run_after_a_record_reads_only_the_outputs_it_cannot_prove(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    noop.sync_result(proj, "check")
    _append(_agent_file(proj), "# a comment: a full run, the same outputs\n")
    read = _reads(monkeypatch)
    answer = noop.sync_result(proj, "check")
    compared = list(read)
    assert answer == _reference(proj)[1] and not answer["updated"]
    files = [p for p in answer["unchanged"] if p.startswith(".claude/") and "acme-pdf" not in p]
    assert len(files) >= 10 and not set(files) & set(compared)
    assert {"CLAUDE.md", ".claude/skills/acme-pdf"} <= set(compared)  # a shared file, a link


def test_an_output_edited_in_place_since_the_record_is_read_and_is_a_conflict(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same size, same mtime: its change time tells it from the proven one."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    noop.sync_result(proj, "check")
    output = _written_output(proj)
    st = output.stat()
    output.write_text(output.read_text("utf-8").replace("a", "b", 1), encoding="utf-8")
    os.utime(output, ns=(st.st_atime_ns, st.st_mtime_ns))
    read = _reads(monkeypatch)
    answer = noop.sync_result(proj, "check")
    assert answer["conflicts"] == [output.relative_to(proj).as_posix()]
    assert output.relative_to(proj).as_posix() in read
    assert answer == _reference(proj)[1]


@pytest.mark.parametrize("recorded_by", ["check", "write"])
def test_a_lock_changed_since_the_record_proves_nothing(
    proj: Path, monkeypatch: pytest.MonkeyPatch, recorded_by: str
) -> None:
    """A checkout brings a lock recording the new render of an output the disk still holds
    the old bytes of: that output is read (an edit since, not an unchanged file). After a
    write, the record checks the lock by the bytes written, which differ now."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    if recorded_by == "write":  # another agent's change: the write rewrites the lock
        other = proj / "registries" / "agents" / "plain-helper.yaml"
        other.write_text(other.read_text("utf-8").replace("Be plain.", "Be plainer."), "utf-8")
        _bump(other)
    noop.sync_result(proj, recorded_by)
    assert ("registries/.render-lock.json" in _record(proj)["expected"]) == (recorded_by == "write")
    rel = _written_output(proj).relative_to(proj).as_posix()
    _reprompt(proj)
    rendered = sync(proj, mode="dry-run", registry=load(proj)).plan.outputs[rel].data
    lock = proj / "registries" / ".render-lock.json"
    data = read_json_file(lock)
    data["files"][rel]["sha256"] = hashlib.sha256(rendered or b"").hexdigest()
    lock.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    _bump(lock)
    answer = noop.sync_result(proj, "check")
    assert answer == _reference(proj)[1]
    assert rel in answer["conflicts"]


def test_an_output_whose_source_changed_since_the_record_is_updated(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its identity is still the proven one, but it renders to other bytes than the lock's."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    noop.sync_result(proj, "check")
    _reprompt(proj)
    answer = noop.sync_result(proj, "check")
    assert _written_output(proj).relative_to(proj).as_posix() in answer["updated"]
    assert answer == _reference(proj)[1]


def test_a_lock_the_last_write_left_proves_what_that_write_did_not_touch(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Right after a write the lock is checked by its bytes: the outputs the write left alone
    are still proven (the one it wrote is read)."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    _reprompt(proj)
    noop.sync_result(proj, "write")
    assert "registries/.render-lock.json" in _record(proj)["expected"]
    _append(_agent_file(proj), "# a comment: a full run, the same outputs\n")
    read = _reads(monkeypatch)
    answer = noop.sync_result(proj, "check")
    compared = list(read)
    assert answer == _reference(proj)[1] and not answer["updated"]
    written = _written_output(proj).relative_to(proj).as_posix()
    assert written in compared
    assert ".claude/skills/example-skill/SKILL.md" not in compared
    lock = proj / "registries" / ".render-lock.json"
    lock.write_text(lock.read_text(encoding="utf-8") + " ", encoding="utf-8")  # other bytes
    read.clear()
    noop.sync_result(proj, "check")
    assert ".claude/skills/example-skill/SKILL.md" in read


@pytest.mark.parametrize("blocks", [1, 2])
def test_a_block_taken_out_of_an_unconfigured_targets_file_is_not_recorded_as_an_output(
    proj: Path, blocks: int
) -> None:
    """A target left out of `targets` has its block taken out of the user's file: the next
    render has no such output at all (or, with a second block left in, another one), so the
    write's result is no answer for the next run."""
    config = proj / "registries" / "orkestra.yaml"
    text = config.read_text(encoding="utf-8")
    line = next(line for line in text.splitlines(keepends=True) if line.strip() == "- claude")
    with_agents_md = text.replace(line, line + line.replace("claude", "agents-md"), 1)
    config.write_text(with_agents_md, encoding="utf-8")
    (proj / "AGENTS.md").write_text("# Notes\n\nHand-written text.\n", encoding="utf-8")
    noop.sync_result(proj, "write")
    agents = (proj / "AGENTS.md").read_text(encoding="utf-8")
    block = agents[agents.index("<!-- orkestra:begin") :]
    (proj / "AGENTS.md").write_text(agents + "\n" + block * (blocks - 1), encoding="utf-8")
    config.write_text(text, encoding="utf-8")  # agents-md is no longer configured
    noop.sync_result(proj, "write")  # takes the (first) block out
    assert _fast(proj) == _reference(proj)
    noop.sync_result(proj, "write")
    assert _fast(proj) == _reference(proj)
    assert "orkestra:begin" not in (proj / "AGENTS.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("setting", ["claude_md: false", "claude_md_path: docs/AI.md"])
def test_claude_md_s_block_turned_off_is_taken_out_as_a_cold_sync_takes_it_out(
    proj: Path, tmp_path: Path, setting: str
) -> None:
    """`render.claude_md` turned off (or its path moved): the block is taken out of CLAUDE.md,
    the user's text kept; the warm runs (the record, the write's result) answer and leave what
    a cold sync of a copy without `.orkestra/` does, and the next runs as full runs do."""
    claude_md = proj / "CLAUDE.md"
    claude_md.write_text(claude_md.read_text(encoding="utf-8") + "\nMine.\n", encoding="utf-8")
    noop.sync_result(proj, "write")
    assert _fast(proj) == _reference(proj)
    config = proj / "registries" / "orkestra.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("claude_md: true", setting), encoding="utf-8")
    _bump(config)
    cold = tmp_path / "cold"
    shutil.copytree(proj, cold, symlinks=True, ignore=shutil.ignore_patterns(".orkestra"))
    assert noop.sync_result(proj, "write") == noop.sync_result(cold, "write")
    for root in (proj, cold):
        assert "orkestra:begin" not in claude_md.read_text(encoding="utf-8")
        assert (root / "CLAUDE.md").read_bytes() == claude_md.read_bytes()
        assert (root / "registries/.render-lock.json").read_bytes() == (
            proj / "registries/.render-lock.json"
        ).read_bytes()
    assert claude_md.read_text(encoding="utf-8").endswith("\n\nMine.\n")
    for _ in range(2):
        assert _fast(proj) == _reference(proj) == _reference(cold)
        assert noop.sync_result(proj, "write") == noop.sync_result(cold, "write")
        assert not noop.sync_result(proj, "write")["updated"]
    claude_md.write_text(claude_md.read_text(encoding="utf-8") + "<!-- orkestra:begin -->\nx\n"
                         "<!-- orkestra:end -->\n", encoding="utf-8")  # fmt: skip
    _bump(claude_md)
    assert _fast(proj) == _reference(proj)  # the block put back by hand: taken out again
    assert noop.sync_result(proj, "write")["updated"] == ["CLAUDE.md"]


def test_an_unreadable_lock_is_reported_with_every_other_finding(proj: Path) -> None:
    """`validate` lists what it found, the damaged lock among the rest, not just an error; and
    the lock mended since is read again."""
    lock = proj / "registries" / ".render-lock.json"
    good = lock.read_bytes()
    lock.write_text("{bad", encoding="utf-8")
    found = noop.validate_report(proj)
    assert any(
        f.code == "ORK001" and f.file == "registries/.render-lock.json" for f in found.findings
    )
    assert _fast(proj) == _reference(proj)
    lock.write_bytes(good)
    assert _fast(proj) == _reference(proj)
    assert not any(
        f.file == "registries/.render-lock.json" for f in noop.validate_report(proj).findings
    )


def test_a_git_configuration_that_includes_another_file_is_never_recorded(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git reads an included file too (`safe.directory` may come from there): no stat recorded
    here covers it, so a run that asked git is not recorded then."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    home = proj.parent / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    _append(proj / "registries" / "orkestra.yaml", 'mining:\n  packages:\n    web: "web/**"\n')
    _git(proj, "init", "-q")
    hits = Hits(monkeypatch)
    (home / ".gitconfig").write_text("[user]\n\tname = x\n", encoding="utf-8")
    noop.validate_report(proj)
    noop.validate_report(proj)
    assert hits.count == 1  # recorded, then answered from the record
    for text in ("[include]\n\tpath = extra\n", '  [IncludeIf "gitdir:~/"]\n\tpath = x\n',
                 "\ufeff[include]\n\tpath = x\n", "[core][include]\n\tpath = x\n",
                 "[core]\r[include]\n\tpath = x\n"):  # fmt: skip
        (home / ".gitconfig").write_text(text, encoding="utf-8")
        noop.validate_report(proj)
        noop.validate_report(proj)
        assert hits.count == 1  # a full run each time: nothing was recorded


def test_the_user_git_trusts_as_the_owner_is_in_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run as root, git takes `SUDO_UID` as the user whose repositories are safe; which git
    runs (`PATH`) and where its helpers are (`GIT_EXEC_PATH`) change what it answers too."""
    monkeypatch.delenv("SUDO_UID", raising=False)
    before = noop.key(tmp_path)
    monkeypatch.setenv("SUDO_UID", "1000")
    assert noop.key(tmp_path) != before
    monkeypatch.delenv("SUDO_UID")
    monkeypatch.setenv("GIT_EXEC_PATH", "/opt/git/libexec")
    assert noop.key(tmp_path) != before
    monkeypatch.delenv("GIT_EXEC_PATH")
    monkeypatch.setenv("PATH", str(tmp_path))  # no git here
    assert noop.key(tmp_path) != before


def test_the_racy_window_follows_the_granularity_of_the_latest_time() -> None:
    """A FAT mtime moves in 2 s steps beside a fine creation time: two seconds. An mtime set
    back to a whole second (`touch -d`) is followed by a fine ctime: a tick."""
    fat = [10, 4_000_000_000, 1_700_000_003, 1, 1]
    set_back = [10, 1_000_000_000, 4_000_000_003, 1, 1]
    assert noop._racy(fat, 5_000_000_000) and not noop._racy(fat, 6_000_000_001)
    assert not noop._racy(set_back, 4_500_000_000)
    assert noop._racy(set_back, 4_050_000_000)


def test_a_record_checking_few_written_files_keeps_checking_them_by_content(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hashing an agent's file and the lock on each run costs less than rewriting the record;
    each run still sees an edit to them, and answers as a full run does."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    _reprompt(proj)
    noop.sync_result(proj, "write")
    expected = _record(proj)["expected"]
    assert 0 < len(expected) <= noop.SETTLE_AT
    hits = Hits(monkeypatch)
    before = (proj / noop.record_path("sync")).read_bytes()
    for _ in range(2):
        assert noop.sync_result(proj, "check") == _reference(proj)[1]
    assert hits.count == 2
    assert (proj / noop.record_path("sync")).read_bytes() == before  # not rewritten
    output = _written_output(proj)
    output.write_text(output.read_text(encoding="utf-8") + "hand edit\n", encoding="utf-8")
    assert noop.sync_result(proj, "check") == _reference(proj)[1]
    assert hits.count == 2  # the edit is seen: a full run


def test_a_read_file_inside_a_walked_folder_is_stat_ed_once(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run reads files the walk of `registries/` stats anyway: the snapshot keeps the walk's
    identity instead of taking a second one (thousands of stats on a big registry)."""
    noop.sync_result(proj, "write")
    record = jsonio.read_sealed(proj / noop.record_path("sync"))
    inside = [s for s in record["singles"] if s.startswith("registries/") and s.endswith(".yaml")]
    assert inside  # what the run read, in the walked folder
    seen: list[str] = []
    real = os.lstat
    monkeypatch.setattr(os, "lstat", lambda p, *a, **k: seen.append(str(p)) or real(p, *a, **k))
    now = noop.snapshot(proj, record["folders"], record["singles"])
    assert all(seen.count(f"{proj}/{rel}") == 1 for rel in inside)
    assert now == record["files"] or noop._compare(record, now) == []


# --- folders a record vouches for: not listed again by a full sync -------------------------------


def _stale_in(root: Path, folder: str, pid: int = 999_999_999) -> Path:
    """A killed sync's temporary file in `folder`, a day old."""
    temp = root / folder / f".x.md.orkestra-{pid}-1.tmp"
    temp.write_text("partial", encoding="utf-8")
    old = time.time() - 2 * 86400
    os.utime(temp, (old, old))
    return temp


def test_a_full_sync_lists_only_output_folders_changed_since_the_record_and_records_all(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a recorded sync, a full one (a field edit the shortcut does not serve) lists for
    stale temporary files only the folders whose identity moved; its record still lists every
    output folder, so a temporary file left in one later is seen and deleted, as a cold run
    deletes it."""
    from orkestra.core import safewrite

    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    _write_sync(proj)
    _write_sync(proj)
    record = noop._record(proj, "sync")
    assert record is not None
    outputs = {p.rpartition("/")[0] for p in record["result"]["unchanged"] if p[:8] == ".claude/"}
    vouched = noop.vouched(record)
    assert ".claude/commands" in outputs and outputs <= set(vouched)
    listed: list[set[str]] = []
    real = safewrite.stale_temps

    def spy(root: Path, folders: Any, **kw: Any) -> list[str]:
        listed.append(set(folders))
        return real(root, folders, **kw)

    looked: list[str] = []
    holds = safewrite.holds_temporary
    monkeypatch.setattr(safewrite, "stale_temps", spy)
    monkeypatch.setattr(safewrite, "holds_temporary", lambda f: looked.append(f) or holds(f))
    _describe_agent(proj)
    _write_sync(proj)
    assert listed and not listed[-1] & outputs  # none changed before the plan looked
    assert not {f[len(str(proj)) + 1 :] for f in looked} & outputs  # nor when recording
    record = noop._record(proj, "sync")
    assert record is not None and outputs <= set(record["listed"])
    temp = _stale_in(proj, ".claude/commands")
    assert _fast(proj) == _reference(proj)  # `--check` has it to delete, as a cold run
    listed.clear()
    _describe_agent(proj)
    _write_sync(proj)
    assert listed[-1] & outputs == {".claude/commands"} and not temp.exists()
    assert _fast(proj) == _reference(proj)


def test_a_live_writers_temporary_file_in_a_vouched_folder_is_never_vouched_for(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A temporary file of a live writer appears in a folder the record vouches for: the full
    sync lists that folder (its identity moved), keeps the file (not stale), and no record
    vouches for the folder while it is there; once its writer is gone, the next sync deletes
    it."""
    import subprocess

    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    _write_sync(proj)
    _write_sync(proj)
    assert ".claude/commands" in noop.vouched(noop._record(proj, "sync"))
    writer = subprocess.Popen(["sleep", "30"])
    try:
        temp = _stale_in(proj, ".claude/commands", writer.pid)
        recent = time.time() - 10
        os.utime(temp, (recent, recent))
        _describe_agent(proj)
        _write_sync(proj)
        assert temp.exists()
        now = parse_cache.identity(os.lstat(temp.parent))  # no record vouches for it as it is
        assert noop.vouched(noop._record(proj, "sync")).get(".claude/commands") != now
        assert _fast(proj) == _reference(proj)
    finally:
        writer.kill()
        writer.wait()
    assert _fast(proj) == _reference(proj)  # stale now: sync --check has it to delete
    _write_sync(proj)
    assert not temp.exists() and _fast(proj) == _reference(proj)


@pytest.mark.parametrize(
    ("listed", "files", "expected", "want"),
    [
        (None, {"a": [1, 2, 3, 4, 5]}, {}, {}),  # a record made before `listed`
        ("a", {"a": [1, 2, 3, 4, 5]}, {}, {}),
        ([1, "a"], {"a": [1, 2, 3, 4, 5]}, {}, {"a": [1, 2, 3, 4, 5]}),
        (["a", "b"], {"a": [1, 2, 3, 4, 5]}, {}, {"a": [1, 2, 3, 4, 5]}),  # b not stat'ed
        (["a"], {"a": [1, 2, 3, 4, 5]}, {"a": ["listing", []]}, {}),  # checked by content
        (["a"], {"a": [1, 2, 3, 4]}, {}, {}),  # a walked folder's: no times
        (["a"], {"a": [1, 2, 3, 4, 5, -1]}, {}, {}),  # a link
        (["a"], {"a": [1, 2, True, 4, 5]}, {}, {}),
        (["a"], {"a": None}, {}, {}),
        ([["a"]], {"a": [1, 2, 3, 4, 5]}, {}, {}),
    ],
)
def test_only_well_formed_listed_folders_are_vouched_for(
    listed: Any, files: dict[str, Any], expected: dict[str, Any], want: dict[str, Any]
) -> None:
    data: dict[str, Any] = {"files": files, "expected": expected}
    if listed is not None:
        data["listed"] = listed
    assert noop.vouched(data) == want
    assert noop.vouched(None) == {}


def test_a_record_of_pending_writes_is_never_answered_from_the_record(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`.orkestra/pending-writes.json` names folders a full sync looks in for stale temporary
    files; written by hand after a recorded sync, naming a folder no record lists, the sync
    answers what the full run answers (the stale file deleted), not the record."""
    from orkestra.core import safewrite
    from orkestra.render import pending

    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    hits = Hits(monkeypatch)
    (proj / "scratch").mkdir()  # the user's, before the sync: not an input, no record stats it
    first = noop.sync_result(proj, "write")
    assert noop.sync_result(proj, "write") == first and hits.count == 1
    folder = proj / "scratch" / "by-hand"
    folder.mkdir()
    stale = folder / ".x.md.orkestra-4194301-1.tmp"
    stale.write_text("half")
    old = time.time() - safewrite.STALE_SECONDS - 3600
    os.utime(stale, (old, old))
    body = {"version": pending.VERSION, "lock": "", "files": {"scratch/by-hand/x.md": None},
            "waiting": []}  # fmt: skip
    assert noop.recorded(proj, "sync") == first  # nothing the sync reads changed
    (proj / pending.PATH).write_text(json.dumps(body), encoding="utf-8")
    assert noop.recorded(proj, "sync") is None
    assert _fast(proj) == _reference(proj)
    checked = noop.sync_result(proj, "check")
    assert checked["deleted"] == ["scratch/by-hand/" + stale.name] and stale.exists()
    assert noop.sync_result(proj, "write")["deleted"] == checked["deleted"]
    assert not stale.exists() and not (proj / pending.PATH).exists()
    assert noop.sync_result(proj, "write") == first  # a full run (a deletion is not recorded)
    before = hits.count
    assert noop.sync_result(proj, "write") == first
    assert hits.count == before + 1  # the record answers again once the pending record is gone


def _clock_ahead(monkeypatch: pytest.MonkeyPatch, ns: int) -> Callable[[], int]:
    """This process's clock `ns` ahead of the one that stamps the files (a network file
    system whose server lags); returns the real clock."""
    real = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real() + ns)
    return real


@pytest.mark.parametrize("run", ["validate", "sync"])
def test_a_record_s_start_is_taken_by_the_clock_that_stamps_the_files(
    proj: Path, monkeypatch: pytest.MonkeyPatch, run: str
) -> None:
    """The server 10 s behind ours: a file changed just before the run would look 10 s old by
    our clock, and settled; the start recorded is our clock less the lag read from a file
    written under `.orkestra/` (`core.clock.files_behind`)."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    for name in ("sync", "validate"):
        (proj / noop.record_path(name)).unlink(missing_ok=True)
    time.sleep(0.05)  # the copy's changes a tick before the start (no racy window here)
    real = _clock_ahead(monkeypatch, 10_000_000_000)
    noop.validate_report(proj) if run == "validate" else noop.sync_result(proj, "write")
    recorded = jsonio.read_sealed(proj / noop.record_path(run))["start"]
    assert recorded <= real()


def test_a_record_is_not_settled_while_its_files_are_racy_by_the_file_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file written just now by the server's clock, 10 s behind ours: by our clock alone its
    change would look settled, and the record rewritten as plain stats."""
    path = tmp_path / "written"
    path.write_text("x", encoding="utf-8")
    real = _clock_ahead(monkeypatch, 10_000_000_000)
    soon = real() + 1_000_000_000  # changed (by the file system's clock) within the window
    os.utime(path, ns=(soon, soon))
    ident = parse_cache.identity(path.stat())
    assert noop._settled_by(tmp_path, [ident], time.time_ns() + 20_000_000_000)
    assert not noop._settled_by(tmp_path, [ident], time.time_ns())


def test_registry_files_dated_in_the_future_settle_by_their_ctime_racy(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files dated tomorrow (an archive from a clock ahead): counted from their mtime they would
    never settle before that date, and every run would be a full one; counted from their ctime
    (`core.stamp.settles_from`), the runs after a recorded one are answered from the record."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    tomorrow = time.time_ns() + 86_400 * 10**9
    for path in (proj / "registries").rglob("*"):
        if path.is_file() and not path.is_symlink():
            os.utime(path, ns=(tomorrow, tomorrow))
    time.sleep(0.3)  # the utimes' ctimes settle (sub-second times here: a 0.1 s window)
    noop.sync_result(proj, "write")
    noop.validate_report(proj)
    hits = Hits(monkeypatch)
    answers = _fast(proj)
    assert hits.count == 2
    assert answers == _reference(proj)
