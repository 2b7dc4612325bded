"""Attacks on the record a writing `sync` leaves (`noop._after_write`): after each, what
`sync_result` answers is what a full run answers, and no user file is lost."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from orkestra.core import yamlio
from orkestra.render import noop, writer
from orkestra.render import sync as sync_module
from orkestra.render.sync import sync
from tests.conftest import read_json_file, write_json_file
from tests.render.conftest import at_call, synced_rich
from tests.render.test_noop_fast import (
    Hits,
    _agent_file,
    _outcome,
    _record,
    _reference,
    _reprompt,
    _with_evidence,
    _written_output,
)
from tests.render.test_noop_fast import _no_racy_window as _no_racy_window  # autouse

TODAY = "2026-11-30"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synced_rich(tmp_path_factory.mktemp("redteam") / "proj")


@pytest.fixture
def proj(template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(template, root, symlinks=True)
    monkeypatch.setenv("ORKESTRA_TODAY", TODAY)
    return root


def _check(root: Path) -> dict[str, Any]:
    return noop.sync_result(root, "check")


def _in_full(root: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The next `sync --check`: a full run (no record answers it), equal to a reference run."""
    hits = Hits(monkeypatch)
    answer = _check(root)
    assert answer == _reference(root)[1]
    assert hits.count == 0
    return answer


def _recorded_write(root: Path) -> dict[str, Any]:
    """A writing sync that leaves a record checked by content."""
    _reprompt(root)
    wrote = noop.sync_result(root, "write")
    assert wrote["written"] >= 2
    assert _record(root)["expected"]
    return wrote


def _age(root: Path) -> None:
    """Every file and folder of the project changed long ago (none is racy)."""
    old = time.time_ns() - 10 * noop.RACY_NS - 10**10
    for dirpath, dirs, files in os.walk(root):
        for name in [*files, *dirs]:
            os.utime(Path(dirpath) / name, ns=(old, old), follow_symlinks=False)
    os.utime(root, ns=(old, old))


def _same_stat_rewrite(path: Path, data: bytes) -> None:
    """Rewrite `path` in place keeping its size and mtime (an edit within the same tick)."""
    st = path.lstat()
    assert len(data) == st.st_size
    path.write_bytes(data)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_the_lock_rewritten_within_the_tick_after_a_write_is_caught(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _recorded_write(proj)
    lock = proj / "registries" / ".render-lock.json"
    text = lock.read_bytes()
    i = text.index(b'"sha256": "') + len(b'"sha256": "')
    flipped = text[:i] + (b"0" if text[i : i + 1] != b"0" else b"1") + text[i + 1 :]
    _same_stat_rewrite(lock, flipped)
    _in_full(proj, monkeypatch)


def test_an_output_swapped_for_a_symlink_to_the_same_bytes_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _recorded_write(proj)
    output = _written_output(proj)
    copy = proj / "elsewhere.md"
    copy.write_bytes(output.read_bytes())
    output.unlink()
    output.symlink_to(copy)
    assert not _in_full(proj, monkeypatch)["ok"]


def test_an_output_swapped_for_a_folder_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _recorded_write(proj)
    output = _written_output(proj)
    output.unlink()
    output.mkdir()
    _in_full(proj, monkeypatch)


def test_an_output_made_unreadable_after_a_write_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads anything")
    _recorded_write(proj)
    output = _written_output(proj)
    output.chmod(0)
    try:
        _in_full(proj, monkeypatch)
    finally:
        output.chmod(0o644)


def test_a_user_file_dropped_beside_a_written_skill_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _recorded_write(proj)
    folders = [p.parent for p in (proj / ".claude" / "skills").rglob("SKILL.md")]
    mine = sorted(folders)[0] / "NOTES.md"
    mine.write_text("mine\n", encoding="utf-8")
    _in_full(proj, monkeypatch)
    assert mine.read_text(encoding="utf-8") == "mine\n"


def _recheck(root: Path) -> None:
    """The registry changed again: the agent's prompt edited a second time."""
    path = _agent_file(root)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("Check each migration", "Check all migrations"), "utf-8")


def test_a_registry_file_edited_while_the_write_runs_leaves_no_record(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fired = at_call(monkeypatch, writer, "apply", lambda: _recheck(proj), before=False)
    _reprompt(proj)
    noop.sync_result(proj, "write")
    assert fired
    assert not (proj / noop.record_path("sync")).exists()
    assert not _in_full(proj, monkeypatch)["ok"]


def test_another_sync_writing_meanwhile_leaves_a_record_only_for_what_is_on_disk(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second sync (with the registry changed again) writes between our write and record."""

    def other() -> None:
        _recheck(proj)
        sync(proj, mode="write")  # its own apply is the second call: passed through

    fired = at_call(monkeypatch, writer, "apply", other, before=False)
    _reprompt(proj)
    noop.sync_result(proj, "write")
    assert fired
    _in_full(proj, monkeypatch)


def test_a_killed_write_s_temporary_file_then_a_sync(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _recorded_write(proj)
    stale = _written_output(proj).with_name(".x.md.orkestra-999999-1.tmp")
    stale.write_text("half\n", encoding="utf-8")
    hits = Hits(monkeypatch)
    assert noop.sync_result(proj, "write") == {
        **_reference_after_write(proj, stale),
    }
    assert hits.count == 0
    assert not stale.exists()
    assert _check(proj) == _reference(proj)[1]


def _reference_after_write(root: Path, stale: Path) -> dict[str, Any]:
    rel = stale.relative_to(root).as_posix()
    ref = _reference(root)[1]
    return {**ref, "ok": True, "mode": "write", "deleted": [rel]}


def test_a_file_validation_reads_moved_away_and_back_during_it_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Truth evidence names an output; while the post-write validation runs, a tool moves it
    away and back (same bytes, same inode, same mtime): the warnings that validation counted
    (ORK105, evidence missing) are not what the files now give."""
    output = _written_output(proj)
    _with_evidence(proj, output.relative_to(proj).as_posix())
    sync(proj, mode="write")  # GROUND_TRUTHS.md, at the root: written once, then settled
    _age(proj)
    _reprompt(proj)
    real = sync_module.checked
    calls = [0]

    def racing(reg: Any, *rest: Any) -> Any:
        calls[0] += 1
        if calls[0] == 1:
            return real(reg, *rest)
        aside = output.with_name("aside")
        output.rename(aside)
        try:
            return real(reg, *rest)
        finally:
            aside.rename(output)

    monkeypatch.setattr(sync_module, "checked", racing)
    assert noop.sync_result(proj, "write")["warnings"] == 1
    monkeypatch.setattr(sync_module, "checked", real)
    assert calls[0] == 2
    _in_full(proj, monkeypatch)


def _relink(root: Path) -> Path:
    """The vendor skill's link, removed so the next write makes it again."""
    link = root / ".claude" / "skills" / "acme-pdf"
    assert link.is_symlink()
    link.unlink()
    return link


def test_a_link_swapped_for_a_file_holding_its_digest_text_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A written link and a regular file holding `symlink:<target>` share a digest; only the
    kind of file tells them apart (a full run plans the file's replacement)."""
    link = _relink(proj)
    _reprompt(proj)
    noop.sync_result(proj, "write")
    assert _record(proj)["expected"][link.relative_to(proj).as_posix()]
    target = str(link.readlink())
    link.unlink()
    link.write_bytes(b"symlink:" + os.fsencode(target))
    assert not _in_full(proj, monkeypatch)["ok"]


def test_a_file_swapped_for_a_link_whose_text_is_its_bytes_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other way round: a written file whose bytes read `symlink:<text>` (a hand-made
    reference in a skill) replaced by a link to `<text>`."""
    guide = proj / "registries" / "skills" / "domains" / "schema-migration" / "references"
    (guide / "guide.md").write_text("symlink:elsewhere", encoding="utf-8")
    _reprompt(proj)
    noop.sync_result(proj, "write")
    output = proj / ".claude" / "skills" / "schema-migration" / "references" / "guide.md"
    assert output.read_text(encoding="utf-8") == "symlink:elsewhere"
    assert _record(proj)["expected"][output.relative_to(proj).as_posix()]
    output.unlink()
    output.symlink_to("elsewhere")
    assert not _in_full(proj, monkeypatch)["ok"]


def test_a_write_that_crosses_midnight_before_its_validation_leaves_no_record(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def midnight() -> None:
        monkeypatch.setenv("ORKESTRA_TODAY", "2026-12-01")

    fired = at_call(monkeypatch, writer, "apply", midnight, before=False)
    _reprompt(proj)
    noop.sync_result(proj, "write")
    assert fired
    assert not (proj / noop.record_path("sync")).exists()


@pytest.mark.parametrize(
    "forge",
    [
        lambda rel, want: {rel: ["file", want[1]]},
        lambda rel, want: {rel: ["file", want[1], want[2], "x"]},
        lambda rel, want: {rel: ["listing", [1, None]]},
        lambda rel, want: {rel: ["listing", "abc"]},
        lambda rel, want: {rel: [["file"], want[1], want[2]]},
        lambda rel, want: {rel: {"file": want[1]}},
        lambda rel, want: {rel: []},
        lambda rel, want: {"../" + rel: want},
        lambda rel, want: {rel + "\0": want},
        lambda rel, want: {rel: ["listing", []]},
    ],
)
def test_a_forged_or_damaged_expected_entry_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch, forge: Any
) -> None:
    _recorded_write(proj)
    path = proj / noop.record_path("sync")
    data = _record(proj)
    rel = _written_output(proj).relative_to(proj).as_posix()
    forged = forge(rel, data["expected"][rel])
    for key in forged:
        data["files"].setdefault(key, data["files"][rel])
    data["expected"] = {**{k: v for k, v in data["expected"].items() if k != rel}, **forged}
    data["result"] = {**data["result"], "warnings": 99}
    write_json_file(path, data)
    assert _check(proj) == _reference(proj)[1]


@pytest.mark.parametrize("mine", [False, True], ids=["alone", "beside the user's files"])
def test_every_client_target_converges_in_one_write(
    proj: Path, monkeypatch: pytest.MonkeyPatch, mine: bool
) -> None:
    """Shared files in client folders (MCP configs, copilot instructions): what the record says
    the next run answers is what it answers. So too where the user's own files lie beside the
    rendered ones (workflows beside Copilot's instructions, the team's Cursor rules, a
    hand-written agent): those folders are recorded by their names."""
    config = proj / "registries" / "orkestra.yaml"
    data = yamlio.loads(config.read_text(encoding="utf-8"))
    data["targets"] = ["claude", "agents-md", "codex", "cursor", "gemini", "copilot"]
    config.write_text(yamlio.dumps(data), encoding="utf-8")
    sync(proj, mode="write")
    # by the folder the write goes into
    theirs = {
        ".github": "workflows/ci.yml",
        ".cursor/rules": "team.mdc",
        ".claude/agents": "hand.md",
    }
    for folder, rel in theirs.items() if mine else ():
        (proj / folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (proj / folder / rel).write_text("the user's\n", encoding="utf-8")
    _age(proj)
    _reprompt(proj)
    if mine:  # and a description, listed in Copilot's instructions and Cursor's rule
        path = _agent_file(proj)
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("Guards the database", "Keeps the database"), "utf-8")
    noop.sync_result(proj, "write")
    expected = _record(proj)["expected"]
    assert len({rel.split("/")[0] for rel in expected}) > 2
    for folder, rel in theirs.items() if mine else ():
        names = sorted(p.name for p in (proj / folder).iterdir())
        assert expected[folder] == ["listing", names] and rel.split("/")[0] in names
    hits = Hits(monkeypatch)
    assert _check(proj) == _reference(proj)[1]
    assert noop.sync_result(proj, "write") == {**_reference(proj)[1], "mode": "write"}
    assert _check(proj) == _reference(proj)[1]
    assert hits.count == 3


def test_a_settle_racing_another_write_never_vouches_for_the_new_state(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One run settles the old record while another (the registry edited again) writes and
    records: the settled record holds the stats the first run saw, so it answers nothing."""
    monkeypatch.setattr(noop, "SETTLE_AT", 0)
    _recorded_write(proj)
    real = noop._settle
    others: list[dict[str, Any]] = []

    def settle_late(*args: Any) -> None:
        if not others:
            path = _agent_file(proj)
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace("Check each", "Check all"), encoding="utf-8")
            others.append(noop.sync_result(proj, "write"))
        real(*args)

    monkeypatch.setattr(noop, "_settle", settle_late)
    stale = _check(proj)
    monkeypatch.setattr(noop, "_settle", real)
    assert others and others[0]["written"] >= 2
    assert stale["ok"] and not stale["updated"]
    assert _record(proj)["expected"] == {}  # the old result, settled over the new record
    _in_full(proj, monkeypatch)


def test_a_registry_file_edited_during_the_validation_after_the_write_leaves_no_record(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def edit() -> None:
        path = _agent_file(proj)
        path.write_text(path.read_text(encoding="utf-8") + "# later\n", encoding="utf-8")

    fired = at_call(monkeypatch, sync_module, "checked", edit, call=2)
    _reprompt(proj)
    noop.sync_result(proj, "write")
    assert fired
    assert not (proj / noop.record_path("sync")).exists()


@pytest.mark.parametrize("inside", [True, False])
def test_a_shared_instructions_file_edited_within_the_tick_after_a_write(
    proj: Path, monkeypatch: pytest.MonkeyPatch, inside: bool
) -> None:
    """`.github/copilot-instructions.md` holds the user's text around Orkestra's block: an edit
    in the block (a full run updates it) or around it (a full run keeps it), same size, same
    mtime, right after the write that rewrote it."""
    config = proj / "registries" / "orkestra.yaml"
    data = yamlio.loads(config.read_text(encoding="utf-8"))
    data["targets"] = ["claude", "copilot"]
    data["render"] = {"claude_md": False}
    config.write_text(yamlio.dumps(data), encoding="utf-8")
    shared = proj / ".github" / "copilot-instructions.md"
    sync(proj, mode="write")
    shared.write_text(shared.read_text(encoding="utf-8") + "\nMine: keep it.\n", "utf-8")
    _age(proj)
    path = _agent_file(proj)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("reviews migrations", "reviews each migration"), "utf-8")
    noop.sync_result(proj, "write")
    rel = shared.relative_to(proj).as_posix()
    assert _record(proj)["expected"][rel][0] == "file"
    now = shared.read_text(encoding="utf-8")
    old, new = ("reviews each", "REVIEWS EACH") if inside else ("Mine: keep", "MINE: KEEP")
    _same_stat_rewrite(shared, now.replace(old, new, 1).encode())
    hits = Hits(monkeypatch)
    answer = _check(proj)
    assert answer == _reference(proj)[1]
    assert hits.count == 0
    assert (rel in answer["updated"]) is inside
    noop.sync_result(proj, "write")  # the user's text around the block survives
    assert ("MINE: KEEP" in shared.read_text(encoding="utf-8")) is not inside
    assert _check(proj) == _reference(proj)[1]


def test_racy_window_kept_a_check_right_after_a_write_then_a_same_tick_edit(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real racy windows: the check right after the write is answered by content (settled
    or not), and an edit keeping size and mtime after it is still seen."""
    _age(proj)
    _reprompt(proj)
    coarse = proj.joinpath("registries").stat().st_ctime_ns % 1_000_000_000 == 0
    time.sleep(2.1 if coarse else 0.2)  # the copy's and the edit's ctimes out of the window
    noop.sync_result(proj, "write")
    hits = Hits(monkeypatch)
    assert _check(proj) == _reference(proj)[1]
    assert hits.count == 1
    output = _written_output(proj)
    _same_stat_rewrite(output, output.read_bytes().replace(b"each", b"EACH", 1))
    answer = _check(proj)
    assert answer == _reference(proj)[1]
    assert hits.count == 1 and not answer["ok"]


def test_evidence_the_write_brings_back_is_counted_as_the_next_run_counts_it(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Truth evidence names an output that is missing (ORK105) until the write recreates it:
    the record holds the warnings of the files as written, not the ones the write began with."""
    output = _written_output(proj)
    _with_evidence(proj, output.relative_to(proj).as_posix())
    sync(proj, mode="write")
    _age(proj)
    output.unlink()
    wrote = noop.sync_result(proj, "write")
    assert output.relative_to(proj).as_posix() in wrote["created"]
    hits = Hits(monkeypatch)
    answer = _check(proj)
    assert answer == _reference(proj)[1]
    assert hits.count == 1
    assert answer["warnings"] == wrote["warnings"] - 1


def test_client_mcp_configs_rewritten_by_a_server_rename_converge_in_one_write(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The MCP config a sync writes depends on the lock's record of the servers it wrote last
    time (which the same write replaces): the next full run must still find it unchanged."""
    config = proj / "registries" / "orkestra.yaml"
    data = yamlio.loads(config.read_text(encoding="utf-8"))
    data["targets"] = ["cursor", "gemini"]
    data["render"] = {"claude_md": False}
    config.write_text(yamlio.dumps(data), encoding="utf-8")
    servers = proj / "registries" / "mcp.yaml"
    lake = {"url": "https://mcp.example.com/lake", "headers": {"Authorization": "Bearer x"}}
    servers.write_text(yamlio.dumps({"github": {"command": "npx"}, "lake": lake}), "utf-8")
    sync(proj, mode="write")
    mine = proj / ".cursor" / "mcp.json"
    held = read_json_file(mine)
    held["mcpServers"]["mine"] = {"command": "my-server"}
    mine.write_text(json.dumps(held, indent=2) + "\n", encoding="utf-8")
    sync(proj, mode="write")
    _age(proj)
    servers.write_text(yamlio.dumps({"github": {"command": "gh"}, "lake2": lake}), "utf-8")
    wrote = noop.sync_result(proj, "write")
    assert ".cursor/mcp.json" in wrote["updated"]
    assert ".cursor/mcp.json" in _record(proj)["expected"]
    hits = Hits(monkeypatch)
    assert _check(proj) == _reference(proj)[1]
    assert hits.count == 1
    after = read_json_file(mine)["mcpServers"]
    assert {"github", "lake2", "mine"} <= set(after) and "lake" not in after  # the user's kept


def _flip_in_place(root: Path, rel: str) -> None:
    path = root / rel
    if path.is_file() and not path.is_symlink():
        data = path.read_bytes()
        _same_stat_rewrite(path, data.replace(b"a", b"b", 1) if b"a" in data else data)


def _unlink_skill(root: Path) -> None:
    link = root / ".claude" / "skills" / "acme-pdf"
    if link.is_symlink():
        link.unlink()


def _relink_as_text(root: Path) -> None:
    link = root / ".claude" / "skills" / "acme-pdf"
    if link.is_symlink():
        target = str(link.readlink())
        link.unlink()
        link.write_bytes(b"symlink:" + os.fsencode(target))


def _write(root: Path) -> None:
    _outcome(lambda: noop.sync_result(root, "write"))  # a conflict or a damaged lock: refused


ATTACKS: dict[str, Any] = {
    "reprompt": _reprompt,
    "write": _write,
    "agent output, same tick": lambda r: _flip_in_place(r, _written_output(r).relative_to(r)),
    "lock, same tick": lambda r: _flip_in_place(r, "registries/.render-lock.json"),
    "link dropped": _unlink_skill,
    "link as its digest text": _relink_as_text,
    "user file in a skill": lambda r: (r / ".claude/skills/example-skill/x.md").write_text("x"),
    "output made executable": lambda r: _written_output(r).chmod(0o755),
    "nothing": lambda _r: None,
}


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(attacks=st.lists(st.sampled_from(sorted(ATTACKS)), min_size=1, max_size=6))
@example(attacks=["link dropped", "write", "link as its digest text"])
def test_after_any_attack_sequence_the_answer_is_the_full_run_s(
    attacks: list[str], template: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = tmp_path_factory.mktemp("attacks") / "proj"
    shutil.copytree(template, root, symlinks=True)
    os.environ["ORKESTRA_TODAY"] = TODAY
    try:
        for name in ["reprompt", "write", *attacks, "nothing"]:
            ATTACKS[name](root)
            if name == "write":
                continue  # the next attack meets the record before a check settles it
            expected = _reference(root)[1]
            for _ in range(2):
                assert _outcome(lambda: _check(root)) == expected, name
    finally:
        del os.environ["ORKESTRA_TODAY"]
