"""Attacks on the record of a write into the project folder (checked by its names) and on the
`validate` answer every recording sync leaves: after each, what `noop.sync_result` and
`noop.validate_report` answer is what a full run answers."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import yamlio
from orkestra.registry import loader
from orkestra.render import noop, writer
from orkestra.render import sync as sync_module
from orkestra.render.sync import sync
from tests.render.conftest import at_call, synced_rich
from tests.render.test_noop_fast import (
    Hits,
    _fast,
    _findings,
    _outcome,
    _record,
    _reference,
    _reprompt,
    _with_evidence,
)
from tests.render.test_noop_fast import _no_racy_window as _no_racy_window  # autouse

TODAY = "2026-11-30"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synced_rich(tmp_path_factory.mktemp("rootred") / "proj")


@pytest.fixture
def proj(template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(template, root, symlinks=True)
    monkeypatch.setenv("ORKESTRA_TODAY", TODAY)
    return root.resolve()


def _root_write(root: Path) -> dict[str, Any]:
    """A write that creates CLAUDE.md in the project folder, recorded by the folder's names."""
    (root / "CLAUDE.md").unlink()
    _reprompt(root)
    wrote = noop.sync_result(root, "write")
    assert "CLAUDE.md" in wrote["created"]
    assert str(root) in _record(root)["expected"]
    assert (root / noop.record_path("validate")).is_file()
    return wrote


def _redescribe(root: Path) -> None:
    """An edit that changes CLAUDE.md's block (the roster): the write rewrites it beside the
    user's text, in the project folder."""
    path = root / "registries" / "agents" / "db-guardian.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("Guards the database", "Guards the data store", 1), "utf-8")


def _user_files(root: Path) -> None:
    """A file of the user's in the project folder, and truth evidence that is missing there
    (ORK105) until something creates it."""
    (root / "README.md").write_text("the user's\n", encoding="utf-8")
    _with_evidence(root, "EVIDENCE.md")
    sync(root, mode="write")


def _same_tick_edit(path: Path, old: bytes, new: bytes) -> None:
    st = path.lstat()
    data = path.read_bytes()
    assert old in data and len(old) == len(new)
    path.write_bytes(data.replace(old, new, 1))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _agrees(root: Path) -> None:
    """What the fast path answers (twice: the second may answer from the first's record) is
    what full runs answer."""
    expected = _reference(root)
    for _ in range(2):
        assert _fast(root) == expected


def test_a_write_beside_the_user_s_files_is_recorded_by_the_folder_s_names(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The base of the attacks below: the write rewrites CLAUDE.md, and its record (sync and
    validate) is checked by the project folder's names."""
    _user_files(proj)
    _redescribe(proj)
    wrote = noop.sync_result(proj, "write")
    assert "CLAUDE.md" in wrote["updated"]
    assert _record(proj)["expected"][str(proj)][0] == "listing"
    hits = Hits(monkeypatch)
    _agrees(proj)
    assert hits.count == 4
    assert "ORK105" in {f[2] for f in _reference(proj)[0]}


def _mutations(root: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Callable[[], Any]]:
    return {
        "a name added": lambda: (root / "NOTES.md").write_text("meanwhile\n", encoding="utf-8"),
        "a name removed": lambda: (root / "README.md").unlink(),
        "a name renamed": lambda: (root / "README.md").rename(root / "README.txt"),
        "a file swapped for a folder": lambda: _file_to_folder(root / "README.md"),
        "a killed run's temporary file": lambda: (
            root / ".CLAUDE.md.orkestra-999999-1.tmp"
        ).write_text("half\n", encoding="utf-8"),
        "the evidence created": lambda: (root / "EVIDENCE.md").write_text("x\n", "utf-8"),
        "the user's text in CLAUDE.md": lambda: (root / "CLAUDE.md").write_text(
            (root / "CLAUDE.md").read_text(encoding="utf-8").replace("intro.", "intro!", 1),
            encoding="utf-8",
        ),
        "midnight": lambda: monkeypatch.setenv("ORKESTRA_TODAY", "2026-12-01"),
        "the state folder removed": lambda: shutil.rmtree(root / noop.FOLDER),
    }


def _hook(monkeypatch: pytest.MonkeyPatch, where: str, meddle: Callable[[], Any]) -> None:
    """Run `meddle` once, at `where` inside `noop.sync_result`."""
    owner, name, before, call = {
        "load": (loader, "load", True, 1),
        "render": (sync_module, "_render_reusing", True, 1),
        "apply, before": (writer, "apply", True, 1),
        "apply, after": (writer, "apply", False, 1),
        "validation after the write": (sync_module, "checked", True, 2),
        "before the save": (sync_module, "checked", False, 2),  # before the record is saved
    }[where]
    at_call(monkeypatch, owner, name, meddle, before=before, call=call)


WHERE = ["load", "render", "apply, before", "apply, after", "validation after the write",
         "before the save"]  # fmt: skip
WHAT = sorted(_mutations(Path(), pytest.MonkeyPatch()))


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("what", WHAT)
def test_the_project_folder_changed_during_a_write_into_it(
    proj: Path, monkeypatch: pytest.MonkeyPatch, where: str, what: str
) -> None:
    _user_files(proj)
    _redescribe(proj)
    with monkeypatch.context() as inner:
        _hook(inner, where, _mutations(proj, monkeypatch)[what])
        _outcome(lambda: noop.sync_result(proj, "write"))
    _agrees(proj)


def _file_to_folder(path: Path) -> None:
    path.unlink()
    path.mkdir()


def _state_as_symlink(root: Path) -> None:
    aside = root.parent / "state-elsewhere"
    shutil.copytree(root / noop.FOLDER, aside)
    shutil.rmtree(root / noop.FOLDER)
    (root / noop.FOLDER).symlink_to(aside)


def _state_as_file(root: Path) -> None:
    shutil.rmtree(root / noop.FOLDER)
    (root / noop.FOLDER).write_text("{}", encoding="utf-8")


def _project_replaced_by_its_copy(root: Path) -> None:
    """Every file keeps its times (copy2), the project folder is another one."""
    aside = root.with_name("aside")
    root.rename(aside)
    shutil.copytree(aside, root, symlinks=True)


def _unknown_related_decision(root: Path) -> None:
    path = root / "registries" / "decisions" / "records" / "DEC-AR-001.yaml"
    data = yamlio.loads(path.read_text(encoding="utf-8"))
    data["related"] = ["DEC-AR-999"]
    path.write_text(yamlio.dumps(data), encoding="utf-8")


def _torn_ledger(root: Path) -> None:
    path = root / "registries" / "changelog" / "release_notes.jsonl"
    path.write_text(path.read_text(encoding="utf-8") + '{"torn": \n', encoding="utf-8")


def _invalid_agent(root: Path) -> None:
    path = root / "registries" / "agents" / "db-guardian.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  - guardian\n", "  - no-such-identity\n", 1), "utf-8")


AFTER: dict[str, Callable[[Path], Any]] = {
    "CLAUDE.md's user text, same tick": lambda r: _same_tick_edit(
        r / "CLAUDE.md", b"Hand-written intro.", b"Hand-written INTRO."
    ),
    "CLAUDE.md's block, same tick": lambda r: _same_tick_edit(
        r / "CLAUDE.md", b"Guards the data store", b"GUARDS the data store"
    ),
    "a file of the user's swapped for a folder": lambda r: _file_to_folder(r / "README.md"),
    "the state folder a symlink to a copy": _state_as_symlink,
    "the state folder a file": _state_as_file,
    "the project folder replaced by a copy": _project_replaced_by_its_copy,
    "the project folder's mode": lambda r: r.chmod(0o700),
    "the evidence created": lambda r: (r / "EVIDENCE.md").write_text("x\n", encoding="utf-8"),
    "a decision refers to an unknown one": _unknown_related_decision,
    "a torn ledger line": _torn_ledger,
    "the next day, a truth gone stale": lambda r: os.environ.update(ORKESTRA_TODAY="2027-01-31"),
    "an error: the sync refuses": _invalid_agent,
    "a name that is not UTF-8": lambda r: (r / os.fsdecode(b"caf\xe9.txt")).write_bytes(b"x"),
}


@pytest.mark.parametrize("change", sorted(AFTER))
@pytest.mark.parametrize("first", ["sync", "validate"])
def test_after_a_write_into_the_project_folder(
    proj: Path, monkeypatch: pytest.MonkeyPatch, change: str, first: str
) -> None:
    """The write's record (sync's and validate's) meets a change; each command, whichever runs
    first (the first one may settle its record), answers what a full run does."""
    _user_files(proj)
    _redescribe(proj)
    noop.sync_result(proj, "write")
    assert str(proj) in _record(proj)["expected"]
    AFTER[change](proj)
    expected = _reference(proj)
    for _ in range(2):
        if first == "validate":
            assert _fast(proj) == expected
        else:
            sync_answer = _outcome(lambda: noop.sync_result(proj, "check"))
            assert (_fast(proj)[0], sync_answer) == expected


def test_racy_window_kept_the_user_s_text_edited_right_after_the_write(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real windows: CLAUDE.md's user text edited (same size) right after the write that
    rewrote CLAUDE.md, most likely within the same timestamp tick."""
    _user_files(proj)
    coarse = proj.joinpath("registries").stat().st_ctime_ns % 1_000_000_000 == 0
    time.sleep(2.1 if coarse else 0.2)  # the copy's and the setup's ctimes out of the window
    _redescribe(proj)
    noop.sync_result(proj, "write")
    claude = proj / "CLAUDE.md"
    claude.write_bytes(claude.read_bytes().replace(b"intro.", b"intro!", 1))
    _agrees(proj)
    noop.sync_result(proj, "write")
    assert b"intro!" in claude.read_bytes()  # the user's edit is kept


def test_the_project_folder_reached_through_a_symlink(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recorded through a symlinked path, answered through the real one and back."""
    _user_files(proj)
    link = tmp_path / "link"
    link.symlink_to(proj)
    _redescribe(proj)
    noop.sync_result(link, "write")
    assert str(proj) in _record(proj)["expected"]
    hits = Hits(monkeypatch)
    assert _fast(link) == _reference(proj)
    (proj / "NOTES.md").write_text("new\n", encoding="utf-8")
    assert _fast(link) == _reference(link) == _reference(proj)
    assert _fast(proj) == _reference(proj)
    assert hits.count >= 2


def test_the_cli_run_from_a_subfolder_answers_what_a_full_run_does(
    proj: Path, monkeypatch: pytest.MonkeyPatch, cli: Any
) -> None:
    _user_files(proj)
    _redescribe(proj)
    below = proj / "registries" / "agents"
    assert cli("sync", "--format", "json", cwd=below).exit_code == 0
    assert str(proj) in _record(proj)["expected"]
    fast = [cli(cmd, *rest, cwd=below) for cmd, *rest in (["validate"], ["sync", "--check"])]
    _file_to_folder(proj / "README.md")
    shutil.rmtree(proj / noop.FOLDER)
    full = [cli(cmd, *rest, cwd=proj) for cmd, *rest in (["validate"], ["sync", "--check"])]
    assert [(r.exit_code, r.stdout) for r in fast] == [(r.exit_code, r.stdout) for r in full]


def test_a_git_rm_after_a_write_into_the_project_folder_is_seen_by_validate(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ORK048 asks git which files it tracks; the write's record answers `validate` too."""
    from tests.render.test_noop_fast import _append, _git

    _append(proj / "registries" / "orkestra.yaml", 'mining:\n  packages:\n    web: "web/**"\n')
    (proj / "web").mkdir()
    (proj / "web" / "app.js").write_text("x\n", encoding="utf-8")
    _git(proj, "init", "-q")
    _git(proj, "add", "web/app.js")
    _user_files(proj)
    _redescribe(proj)
    noop.sync_result(proj, "write")
    assert str(proj) in _record(proj)["expected"]
    assert "ORK048" not in {f.code for f in noop.validate_report(proj).findings}
    _git(proj, "rm", "-q", "--cached", "web/app.js")
    _agrees(proj)
    assert "ORK048" in {f[2] for f in _reference(proj)[0]}


@pytest.mark.parametrize(
    "change", [_unknown_related_decision, _torn_ledger], ids=["decision", "ledger"]
)
@pytest.mark.parametrize("mode", ["check", "write"])
def test_validate_after_a_no_op_sync_sees_what_only_validation_reads(
    proj: Path, monkeypatch: pytest.MonkeyPatch, mode: Any, change: Callable[[Path], Any]
) -> None:
    """A no-op sync (`--check` or plain) records validate's answer from the findings it
    computed before its render; a change only validation notices reaches a full run."""
    _user_files(proj)
    hits = Hits(monkeypatch)
    assert noop.sync_result(proj, mode)["written"] == 0
    assert _findings(noop.validate_report(proj)) == _reference(proj)[0]
    assert hits.count == 1
    change(proj)
    assert _findings(noop.validate_report(proj)) == _reference(proj)[0]
    assert hits.count == 1


def test_a_write_into_a_folder_the_load_reads_leaves_no_record(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A vendor root at `.agents/skills/` (where another tool installs skills), with a target
    that writes the shared skills there: the write adds what the next load reads (here each
    skill twice: ORK010), so neither the render nor the validation of this run vouches for it."""
    config = proj / "registries" / "orkestra.yaml"
    data = yamlio.loads(config.read_text(encoding="utf-8"))
    data["vendor_roots"] = [r for r in data["vendor_roots"] if r["path"] != "vendor/linked"]
    config.write_text(yamlio.dumps(data), encoding="utf-8")  # no links in the vendor roots
    sync(proj, mode="write")
    data["targets"] = ["claude", "codex"]
    data["vendor_roots"].append({"path": ".agents/skills", "provider": "mirror"})
    config.write_text(yamlio.dumps(data), encoding="utf-8")
    (proj / ".agents" / "skills").mkdir(parents=True)
    assert noop.sync_result(proj, "write")["ok"]
    _agrees(proj)
    assert "ORK010" in {f[2] for f in _reference(proj)[0]}
