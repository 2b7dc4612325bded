"""`render.delta`: a sync after an edit to agents' own text writes their files and the lock
without a full load, and always leaves what a full sync leaves, with the same answer."""

from __future__ import annotations

import json
import marshal
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orkestra.core import jsonio
from orkestra.core.errors import OrkestraError
from orkestra.registry import cache as parse_cache
from orkestra.registry.loader import entry_file, load
from orkestra.registry.validate import validate
from orkestra.render import delta, noop, pending
from orkestra.render.sync import sync
from tests.conftest import read_json_file, write_json_file
from tests.render.conftest import synced_rich

AGENT = "registries/agents/plain-helper.yaml"
OUTPUT = ".claude/agents/plain-helper.md"
#: an agent with a warning (ORK108: its description spans two lines)
WARNED = "registries/agents/db-guardian.yaml"
OTHER = "registries/agents/example-agent.yaml"
#: a core skill with resources, rendered (an agent's scope reaches it)
SKILL = "registries/skills/domains/schema-migration.yaml"
SKILL_MD = ".claude/skills/schema-migration/SKILL.md"
_TICK = [1_000_000_000_000_000_000]  # 2001: never racy


def _bump(path: Path) -> None:
    _TICK[0] += 10_000_000_000
    os.utime(path, ns=(_TICK[0], _TICK[0]))


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    """The date the template was synced on; edits set unique old mtimes, so no racy window is
    needed (a copied project's files all changed just now), except where it is the subject."""
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    for module in (noop, parse_cache):
        monkeypatch.setattr(module, "RACY_NS", 0)
        monkeypatch.setattr(module, "FINE_RACY_NS", 0)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synced_rich(tmp_path_factory.mktemp("delta") / "proj")


def _recorded(root: Path) -> Path:
    """`root` after a recorded full sync: the record and the kept contexts are there."""
    noop.sync_result(root, "write")
    assert (root / delta.CONTEXTS).is_file()
    assert "delta" in jsonio.read_sealed(root / noop.record_path("sync"))
    return root


@pytest.fixture
def proj(template: Path, tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(template, root, symlinks=True)
    return _recorded(root)


@pytest.fixture
def roster_off(template: Path, tmp_path: Path) -> Path:
    """The project without the CLAUDE.md roster: an agent's description is its own too."""
    root = tmp_path / "off"
    shutil.copytree(template, root, symlinks=True)
    _set(root, "registries/orkestra.yaml", lambda d: d["render"].update(claude_md=False))
    noop.sync_result(root, "write")  # a config change: the full sync
    return _recorded(root)


class Taken:
    """Records whether each sync went the delta's way."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.runs: list[bool] = []
        real = delta.sync

        def spied(root: Path, record: dict[str, Any], first: str) -> Any:
            out = real(root, record, first)
            self.runs.append(out is not None)
            return out

        monkeypatch.setattr(delta, "sync", spied)


def _set(root: Path, rel: str, change: Any) -> None:
    path = root / rel
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    _bump(path)


def _replace(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    _bump(path)


def _tree(root: Path) -> dict[str, bytes | str]:
    """Every file and link of the project but the derived `.orkestra/`."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".orkestra"]
        for name in [*files, *(d for d in dirs if (Path(dirpath) / d).is_symlink())]:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            out[rel] = f"-> {path.readlink()}" if path.is_symlink() else path.read_bytes()
    return out


def _outcome(run: Any) -> Any:
    try:
        return run()
    except OrkestraError as exc:
        return (type(exc).__name__, str(exc))


def _cold(root: Path, where: Path) -> tuple[Any, dict[str, bytes | str]]:
    """What a full sync answers and leaves for `root`'s sources and outputs, in a copy with no
    `.orkestra/` (no record, no caches)."""
    copy = where / "cold"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns(".orkestra"))
    # a copy's folders are new: on a busy machine the sync may begin within the racy window of
    # them, and then (rightly) records nothing, which `_same_as_cold` compares the delta with
    aged = time.time() - 10
    for path in [copy, *copy.rglob("*")]:
        if not path.is_symlink():
            os.utime(path, (aged, aged))
    answer = _outcome(lambda: noop.sync_result(copy, "write"))
    return answer, _tree(copy)


def _same_as_cold(root: Path, where: Path) -> Any:
    """Sync `root` (the delta's way or not) and a cold copy made first: same answer, same files;
    then the next runs answer as full runs do."""
    expected, files = _cold(root, where)
    begun = time.time_ns()
    got = _outcome(lambda: noop.sync_result(root, "write"))
    assert got == expected
    assert _tree(root) == files
    mine = _kept(root, begun)
    if mine is not None:
        cold = _kept(where / "cold", 0)
        assert cold is not None and _own_dropped(mine[0], mine[1]) == _own_dropped(cold[0], mine[1])
    check = _outcome(lambda: noop.sync_result(root, "check"))
    assert check == _outcome(lambda: sync(root, mode="check", registry=load(root)).to_dict())
    found = [(f.file, f.line, f.code, f.message) for f in noop.validate_report(root).findings]
    assert found == [(f.file, f.line, f.code, f.message) for f in validate(load(root)).findings]
    return got


def _kept(root: Path, begun: int) -> tuple[dict[str, Any], set[str]] | None:
    """The agent contexts named by the sync record of a run begun at `begun` or later, and the
    agents it lists as edited since they were kept; None when there are none (no such record,
    none named, or not the ones named)."""
    path = root / noop.record_path("sync")
    record = read_json_file(path) if path.is_file() else {}
    if "delta" not in record or record["start"] < begun:
        return None
    kept = delta._contexts(root, record["delta"]["sha256"])
    return None if kept is None else (kept, set(record["delta"].get("edited", [])))


def _own_dropped(kept: dict[str, Any], drop: set[str]) -> dict[str, Any]:
    """`kept` without the own fields of the agents in `drop` (read from the file each time),
    nor what their other targets' files hold of them (their description and composed prompt)."""
    own, put = set(kept["own"]), {"description", "prompt", "developer_instructions"}

    def mine(rel: str, values: dict[str, Any], keys: set[str]) -> dict[str, Any]:
        return {k: v for k, v in values.items() if rel not in drop or k not in keys}

    agents = {rel: [path, mine(rel, context, own), [[*r[:3], mine(rel, r[3], put)] for r in made]]
              for rel, (path, context, made) in kept["agents"].items()}  # fmt: skip
    return {**kept, "agents": agents}


# --- the path taken -----------------------------------------------------------------------------


def test_a_prompt_edit_writes_the_agent_and_the_lock_as_a_full_sync_does(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = Taken(monkeypatch)
    _replace(proj, AGENT, "Be plain.", "Be plain, three times.")
    got = _same_as_cold(proj, tmp_path)
    assert taken.runs == [True]
    assert got["updated"] == [OUTPUT, "registries/.render-lock.json"]
    assert got["written"] == 2
    assert "three times" in (proj / OUTPUT).read_text(encoding="utf-8")


def test_a_delta_that_fails_mid_apply_keeps_the_lock_s_list_of_targets_waiting(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock written after a failure keeps `unmarked_targets` as it was: without it, the
    lock would read as one from before the mark, whose unmarked files are anyone's."""
    import errno

    from orkestra.render import manifest
    from tests.render.test_sync_failures import failing

    entered, real = [], delta.sync
    monkeypatch.setattr(delta, "sync", lambda *a: entered.append(1) or real(*a))
    _replace(proj, AGENT, "Be plain.", "Be plain, three times.")
    full = str(proj / OUTPUT)
    with failing("replace", lambda args: str(args[1]) == full, errno.ENOSPC):
        got = _outcome(lambda: noop.sync_result(proj, "write"))
    assert entered and got[0] == "WriteFailed" and "No space left" in got[1]
    assert manifest.load_unmarked(proj) == frozenset()


def test_the_run_after_a_delta_is_answered_from_its_record(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _replace(proj, AGENT, "Be plain.", "Be plain, then once more.")
    first = noop.sync_result(proj, "write")
    answers: list[Any] = []
    real = noop._answer
    monkeypatch.setattr(noop, "_answer", lambda *a: answers.append(real(*a)) or answers[-1])
    again = noop.sync_result(proj, "write")
    assert answers and answers[0] is not None  # recorded: nothing loaded
    assert again["written"] == 0 and again["unchanged"] == sorted([*first["unchanged"],
                                                                   *first["updated"]])  # fmt: skip
    assert noop.validate_report(proj).findings == validate(load(proj)).findings


@pytest.mark.parametrize("edit", ["skill-body", "skill-description"])
def test_the_run_after_a_skill_delta_is_answered_from_its_record(
    proj: Path, monkeypatch: pytest.MonkeyPatch, edit: str
) -> None:
    """schema-migration's folder holds its resources' folders beside the SKILL.md the delta
    rewrote: known names (the way to outputs), so the write is recorded (a name of the user's
    there is not: `test_a_folder_the_write_shares_with_a_file_of_the_user_gets_no_record`)."""
    taken = Taken(monkeypatch)
    if edit == "skill-body":
        _set(proj, SKILL, _section(1, "1. Back up.\n2. Migrate.\n"))
    else:
        _set(
            proj, SKILL, _describe("Safe schema migrations, step by step. Use when one is planned.")
        )
    first = noop.sync_result(proj, "write")
    assert taken.runs == [True] and SKILL_MD in first["updated"]
    answers: list[Any] = []
    real = noop._answer
    monkeypatch.setattr(noop, "_answer", lambda *a: answers.append(real(*a)) or answers[-1])
    again = noop.sync_result(proj, "write")
    assert answers and answers[0] is not None  # recorded: nothing loaded
    assert again["written"] == 0 and taken.runs == [True]


@pytest.mark.parametrize("edit", ["prompt", "skill-body", "skill-description"])
@pytest.mark.parametrize("between", ["validate", "load", "sync-check"])
def test_another_command_s_load_between_the_edit_and_the_sync_leaves_it_the_delta(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: str, between: str
) -> None:
    """`validate`, `sync --check`, or any command's load (a list, the MCP server), parses the
    edited file and moves its cache entry on: the entry for the recorded identity is kept as the
    replaced one, so the sync still compares the edit with what it recorded."""
    if edit == "prompt":
        _set(proj, OTHER, lambda d: d.update(prompt="Edited, then validated.\n"))
    elif edit == "skill-body":
        _set(proj, SKILL, _section(1, "1. Validate.\n2. Sync.\n"))
    else:
        _set(proj, EXAMPLE_SKILL, _describe(DESCRIBED))
    if between == "validate":
        noop.validate_report(proj)
    elif between == "load":
        load(proj)
    else:  # a full run that records nothing: something would change
        assert noop.sync_result(proj, "check")["ok"] is False
    taken = Taken(monkeypatch)
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [True]


def test_the_shortcut_s_load_keeps_the_replaced_entries_of_the_files_it_loads_later(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent and a skill whose entries share a shard, both edited and validated: loading the
    skill first keeps the agent's replaced entry (the record names it) for the second load."""
    assert parse_cache.shard_of(OTHER) == parse_cache.shard_of(SKILL)
    _set(proj, OTHER, lambda d: d.update(prompt="Beside a skill.\n"))
    _set(proj, SKILL, _section(1, "1. Beside an agent.\n"))
    noop.validate_report(proj)
    taken = Taken(monkeypatch)
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [True]


def test_edits_each_validated_before_the_sync_leave_it_the_delta(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`validate` keeps the entry sync's record names, not the one of an edit since: after two
    edits, each validated, the sync still compares with what it recorded."""
    for n in range(2):
        _set(proj, OTHER, lambda d, n=n: d.update(prompt=f"Edit {n}, validated.\n"))
        noop.validate_report(proj)
    taken = Taken(monkeypatch)
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [True]


def test_the_findings_of_a_validate_run_since_are_taken_only_while_it_holds(proj: Path) -> None:
    _set(proj, OTHER, lambda d: d.update(prompt="Edited, then validated.\n"))
    noop.validate_report(proj)
    record = jsonio.read_sealed(proj / noop.record_path("sync"))
    found = noop.changes(proj, record)
    assert found is not None
    now = found[1]
    assert noop.recorded_findings(proj, record) is None  # not written with the sync record
    expected = [f.to_dict() for f in validate(load(proj)).findings]
    assert noop.recorded_findings(proj, record, now) == expected
    moved = {**now, OTHER: [*now[OTHER][:1], 0, 0, *now[OTHER][3:]]}
    assert noop.recorded_findings(proj, record, moved) is None  # changed since it ran
    folder = ".claude/agents"
    (proj / folder).rename(proj / "moved")
    (proj / folder).symlink_to(proj / "moved")  # a folder only its record names, now a link
    assert noop.recorded_findings(proj, record, now) is None


def test_a_full_sync_keeps_only_the_replaced_entries_its_record_names(proj: Path) -> None:
    """Those stay of use while that record does (a sync that records nothing leaves it); any
    other is dropped, those too once a later sync's record no longer names them: at most one
    per file changed since the last record."""

    def replaced() -> list[str]:
        shards = (proj / parse_cache.CACHE).glob("*.json")
        return sorted(r for p in shards for r in read_json_file(p).get("replaced", {}))

    _set(proj, OTHER, lambda d: d.update(prompt="Edited, then loaded.\n"))
    load(proj)
    _set(proj, AGENT, lambda d: d.update(prompt="Once.\n"))
    load(proj)
    _set(proj, AGENT, lambda d: d.update(prompt="Twice.\n"))
    load(proj)  # AGENT's replaced entry is now its first edit's: no record names it
    assert replaced() == sorted([OTHER, AGENT])
    _set(proj, OTHER, lambda d: d.update(model="opus"))  # beyond the own fields: the full sync
    noop.sync_result(proj, "write")
    assert replaced() == [OTHER]  # for the identity the record it began with named
    _set(proj, OTHER, lambda d: d.update(model="sonnet"))
    noop.sync_result(proj, "write")
    assert replaced() == [OTHER]  # now the one the second record named
    _set(proj, AGENT, lambda d: d.update(model="opus"))
    noop.sync_result(proj, "write")
    assert replaced() == [AGENT]  # OTHER's: no record names it any more


def test_edits_in_a_row_each_take_the_delta(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = Taken(monkeypatch)
    for n in range(3):  # the parse cache and the record follow each edit
        _set(proj, AGENT, lambda d, n=n: d.update(prompt=f"Round {n}.\n"))
        _same_as_cold(proj, tmp_path)
    assert taken.runs == [True, True, True]


def test_a_description_edit_with_the_roster_on_writes_claude_md_s_block(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CLAUDE.md's roster lists every description: its block is made again from the kept
    roster, the user's text around it kept; two edits in a row each see the last one."""
    taken = Taken(monkeypatch)
    claude_md = proj / "CLAUDE.md"
    claude_md.write_text("# Mine\n\n" + claude_md.read_text(encoding="utf-8") + "\nAfter.\n")
    _bump(claude_md)
    noop.sync_result(proj, "write")  # the user's text changed: the full sync, which records
    _set(proj, AGENT, lambda d: d.update(description="Helps, carefully."))
    got = _same_as_cold(proj, tmp_path)
    _set(proj, OTHER, lambda d: d.update(description="Shows the way, carefully."))
    again = _same_as_cold(proj, tmp_path)
    assert taken.runs == [True, True]
    assert got["updated"] == sorted([OUTPUT, "CLAUDE.md", LOCK])
    assert again["updated"] == sorted([".claude/agents/example-agent.md", "CLAUDE.md", LOCK])
    text = claude_md.read_text(encoding="utf-8")
    assert text.startswith("# Mine\n") and text.endswith("\nAfter.\n")
    assert "Helps, carefully." in text and "Shows the way, carefully." in text


def test_a_description_edit_without_the_roster_takes_the_delta(
    roster_off: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = Taken(monkeypatch)
    _set(roster_off, AGENT, lambda d: d.update(description="Helps, carefully."))
    got = _same_as_cold(roster_off, tmp_path)
    assert taken.runs == [True]
    assert got["updated"] == [OUTPUT, "registries/.render-lock.json"]


def test_a_file_rewritten_by_rename_takes_the_delta(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor's atomic save: a new inode, and the folder's own times change."""
    taken = Taken(monkeypatch)
    path = proj / AGENT
    new = path.with_name(".plain-helper.yaml.swp")
    new.write_text(path.read_text(encoding="utf-8").replace("plain.", "plain over"), "utf-8")
    _bump(new)
    new.replace(path)
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [True]


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(model="opus"),
        lambda d: d.update(tools=[*d.get("tools", []), "Grep"]),
        lambda d: d.update(scopes=[]),
        lambda d: d.update(frontmatter_extra={"b": 1, "a": 2}),
        lambda d: d.update(clients=["codex"]),
        lambda d: d.update(status="deprecated", reason="gone"),
        lambda d: d.update(prompt="two changes\n", category="other"),
        lambda d: d.update(description="Line one\nline two"),  # ORK108 on the roster's own text
    ],
    ids=["model", "tools", "scopes", "extra", "clients", "status", "prompt-and-category", "ork108"],
)
def test_an_edit_beyond_the_own_fields_takes_the_full_sync(
    roster_off: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: Any
) -> None:
    taken = Taken(monkeypatch)
    _set(roster_off, AGENT, change)
    _same_as_cold(roster_off, tmp_path)
    assert taken.runs == [False]


def test_keys_reordered_in_a_nested_mapping_take_the_full_sync(
    roster_off: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Extra frontmatter is rendered in its order: equal as a mapping is not enough."""
    _set(roster_off, AGENT, lambda d: d.update(frontmatter_extra={"a": 1, "b": 2}))
    noop.sync_result(roster_off, "write")
    taken = Taken(monkeypatch)
    _set(roster_off, AGENT, lambda d: d.update(frontmatter_extra={"b": 2, "a": 1}))
    _same_as_cold(roster_off, tmp_path)
    assert taken.runs == [False]


def test_an_own_field_that_raises_a_finding_takes_the_full_sync(
    roster_off: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = Taken(monkeypatch)
    _set(roster_off, AGENT, lambda d: d.update(description="Helps \u202eplainly"))
    _same_as_cold(roster_off, tmp_path)
    assert taken.runs == [False]
    assert any(f.code == "ORK109" for f in validate(load(roster_off)).findings)


def test_fixing_an_agent_the_last_run_warned_about_takes_the_full_sync(
    roster_off: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _set(roster_off, AGENT, lambda d: d.update(description="Helps \u202eplainly"))
    noop.sync_result(roster_off, "write")
    taken = Taken(monkeypatch)
    _set(roster_off, AGENT, lambda d: d.update(description="Helps plainly, again"))
    _same_as_cold(roster_off, tmp_path)
    assert taken.runs == [False]


def test_an_edit_to_an_agent_with_a_finding_takes_the_full_sync(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The findings of its file are those of its last version: the full run says what they are."""
    taken = Taken(monkeypatch)
    _replace(proj, WARNED, "twice.", "twice!")
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [False]


def test_a_finding_elsewhere_that_quotes_the_file_counts_as_one_about_it() -> None:
    quoting = {
        "file": "registries/agents/a.yml",
        "message": f"duplicate (also defined at {AGENT}:1)",
    }
    assert delta._names(quoting, [AGENT])
    assert delta._names({"file": AGENT, "message": "x"}, [AGENT])
    assert not delta._names({"file": OTHER, "message": "about something else"}, [AGENT])


def test_a_template_error_in_an_edited_agent_is_the_full_syncs_error(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The full sync validates every file first, then renders in name order: its error is the
    one reported, whatever the shortcut met first (here the render error, in path order)."""
    from orkestra.render.template_paths import bundled_templates

    base = (bundled_templates() / "claude" / "agent.md.j2").read_text(encoding="utf-8")
    trap = '{% if prompt.startswith("BOOM") %}{{ no_such_variable }}{% endif %}\n'
    template = proj / "templates" / "claude" / "agent.md.j2"
    template.parent.mkdir(parents=True)
    template.write_text(trap + base, encoding="utf-8")
    later = "registries/agents/zz-later.yaml"
    (proj / later).write_text("name: zz-later\ndescription: Later.\nprompt: p\n", "utf-8")
    noop.sync_result(proj, "write")
    _recorded(proj)
    _set(proj, AGENT, lambda d: d.update(prompt="BOOM\n"))
    _set(proj, later, lambda d: d.update(tools=["NoSuchTool"]))  # a validation error, after
    taken = Taken(monkeypatch)
    got = _same_as_cold(proj, tmp_path)
    assert taken.runs == [False]
    assert got[0] == "ValidationFailed" and "NoSuchTool" in got[1]


def test_a_broken_agent_file_takes_the_full_sync_and_its_error(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = Taken(monkeypatch)
    _replace(proj, AGENT, "prompt:", "prompt: [unclosed\nprompt2:")
    got = _same_as_cold(proj, tmp_path)
    assert taken.runs == [False]
    assert got[0] == "ValidationFailed"


@pytest.mark.parametrize("how", ["second-agent", "other-file", "new-file", "template"])
def test_another_change_beside_the_edit_takes_the_full_sync(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    _replace(proj, AGENT, "Be plain.", "Be plain!")
    if how == "second-agent":  # two own-text edits are fine; with a field beyond them, not
        _set(proj, OTHER, lambda d: d.update(model="haiku"))
    elif how == "other-file":
        _set(proj, "registries/values.yaml", lambda d: d)
    elif how == "new-file":
        (proj / "registries/agents/zz-new.yaml").write_text(
            "name: zz-new\ndescription: New.\nprompt: hi\n", encoding="utf-8"
        )
    else:
        folder = proj / "templates" / "claude"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "agent.md.j2").write_text("{{ name }}: {{ prompt }}\n", encoding="utf-8")
    taken = Taken(monkeypatch)
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [False]


def test_two_own_text_edits_take_the_delta(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _replace(proj, AGENT, "Be plain.", "Be plain!")
    _set(proj, OTHER, lambda d: d.update(prompt="Be an example.\n"))
    taken = Taken(monkeypatch)
    got = _same_as_cold(proj, tmp_path)
    assert taken.runs == [True]
    assert len(got["updated"]) == 3


# --- what it refuses to trust --------------------------------------------------------------------


def test_a_hand_edited_output_is_a_conflict_as_in_a_full_sync(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = Taken(monkeypatch)
    out = proj / OUTPUT
    out.write_text(out.read_text(encoding="utf-8") + "mine\n", encoding="utf-8")
    _bump(out)
    _replace(proj, AGENT, "Be plain.", "Be plain!")
    got = _same_as_cold(proj, tmp_path)
    assert taken.runs == [False]
    assert got[0] == "ConflictError"
    assert out.read_text(encoding="utf-8").endswith("mine\n")


@pytest.mark.parametrize("damage", ["deleted", "edited", "truncated", "symlink", "garbage"])
def test_kept_contexts_that_are_not_the_recorded_ones_are_not_used(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    kept = proj / delta.CONTEXTS
    data = kept.read_bytes()
    if damage == "deleted":
        kept.unlink()
    elif damage == "edited":  # another valid file: a context of its own, not the recorded one
        kept.write_bytes(data.replace(b"Be plain.", b"Be plane."))
    elif damage == "truncated":
        kept.write_bytes(data[: len(data) // 2])
    elif damage == "symlink":
        (tmp_path / "real.bin").write_bytes(data)
        kept.unlink()
        kept.symlink_to(tmp_path / "real.bin")
    else:
        kept.write_bytes(b"\x00garbage")
    taken = Taken(monkeypatch)
    _replace(proj, AGENT, "Be plain.", "Be plain!")
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [False]


def test_contexts_recorded_with_a_digest_that_matches_but_a_wrong_shape_are_not_used(
    proj: Path,
) -> None:
    import hashlib

    data = marshal.dumps({"schema": delta.SCHEMA, "agents": []}, 4)
    (proj / delta.CONTEXTS).write_bytes(data)
    assert delta._contexts(proj, hashlib.sha256(data).hexdigest()) is None
    assert delta._contexts(proj, "0" * 64) is None
    kept: dict[str, Any] = {"schema": delta.SCHEMA, "template": "t", "own": ["prompt"],
                            "agents": {AGENT: ["only a path"]}, "skill_template": "s",
                            "skills": {SKILL: [SKILL_MD, "schema-migration", []]},
                            "skill_description": True, "item_template": "i",
                            "roster": None, "blocks": []}  # fmt: skip

    def read() -> Any:
        data = marshal.dumps(kept, 4)
        (proj / delta.CONTEXTS).write_bytes(data)
        return delta._contexts(proj, hashlib.sha256(data).hexdigest())

    assert read() is None
    kept["agents"] = {AGENT: [OUTPUT, {"name": "plain-helper"}]}  # schema 3's
    assert read() is None
    recipe = ["codex", ".codex/agents/plain-helper.toml", "", {"name": "plain-helper"}]
    kept["agents"] = {AGENT: [OUTPUT, {"name": "plain-helper"}, [recipe]]}
    assert read() == kept
    for bad in (["claude", *recipe[1:]], ["other", *recipe[1:]], recipe[:3], [*recipe[:2], 1,
                recipe[3]], [recipe[0], None, *recipe[2:]], [*recipe[:3], []], (*recipe,),
                "codex"):  # fmt: skip
        kept["agents"] = {AGENT: [OUTPUT, {"name": "plain-helper"}, [recipe, bad]]}
        assert read() is None, bad
    never = [*recipe[:2], None, recipe[3]]  # an agent never rendered on its own
    kept["agents"] = {AGENT: [OUTPUT, {"name": "plain-helper"}, [never]]}
    assert read() == kept
    kept["agents"] = {AGENT: [OUTPUT, {"name": "plain-helper"}, []]}
    assert read() == kept
    shared = ["agents-skills", ".agents/skills/schema-migration/SKILL.md"]
    kept["skills"] = {SKILL: [SKILL_MD, "schema-migration", [shared]]}
    assert read() == kept
    for wrong in ([SKILL_MD], [SKILL_MD, 1, []], (SKILL_MD, "schema-migration", []), None,
                  [SKILL_MD, "schema-migration"], [SKILL_MD, "schema-migration", [shared[1]]],
                  [SKILL_MD, "schema-migration", [["claude", shared[1]]]],
                  [SKILL_MD, "schema-migration", [[*shared, 1]]],
                  [SKILL_MD, "schema-migration", [[shared[0], 1]]]):  # fmt: skip
        kept["skills"] = {SKILL: wrong}
        assert read() is None, wrong
    kept["skills"] = {SKILL: [SKILL_MD, "schema-migration", []]}
    for value in (None, 1, "yes"):
        kept["skill_description"] = value
        assert read() is None
    kept["skill_description"] = False
    assert read() == kept
    roster = {"values": [{"name": "v", "statement": "s"}], "truths": [{"path": "p", "title": "t"}],
              "agents": [{"name": "a", "role": "specialist", "description": "d"}],
              "skills": [{"name": "k", "description": "d"}]}  # fmt: skip
    kept.update(roster=roster, blocks=[["agents-md", "AGENTS.md"], ["claude", "docs/CLAUDE.md"]])
    assert read() == kept
    for blocks in ([], [["agents-md", "elsewhere.md"]], [["gemini", "GEMINI.md"]],
                   [["claude", 1]], [("claude", "CLAUDE.md")], [["claude"]], None):  # fmt: skip
        kept["blocks"] = blocks
        assert read() is None, blocks
    # CLAUDE.md's path as a configured output path must be (kept files never widen a sync)
    for path in (
        ".git/config",
        "registries/values.yaml",
        "knowledge/INDEX.md",
        "sub/.git/x.md",
        ".orkestra/x.md",
        "../outside.md",
        "/etc/motd.md",
        "docs/./CLAUDE.md",
        "a.txt",
    ):
        kept["blocks"] = [["claude", path]]
        assert read() is None, path
    kept["blocks"] = [["cursor", ".cursor/rules/orkestra.mdc"]]
    assert read() == kept
    for part, item in (("agents", {"name": "a", "description": "d"}),
                       ("agents", {"name": "a", "role": None, "description": "d"}),
                       ("skills", {"description": "d", "name": "k"}), ("values", ["v", "s"]),
                       ("truths", {"path": "p", "title": "t", "more": "x"})):  # fmt: skip
        kept["roster"] = {**roster, part: [item]}
        assert read() is None, (part, item)
    kept["roster"] = {**roster, "more": []}
    assert read() is None
    kept["roster"] = {k: v for k, v in roster.items() if k != "truths"}
    assert read() is None
    kept["roster"] = None  # a roster needs its files, and files their roster
    assert read() is None
    kept["blocks"] = []
    assert read() == kept
    kept["skills"] = []
    assert read() is None
    del kept["skills"]
    assert read() is None


def _no_shard(root: Path) -> None:
    (root / parse_cache.shard_path(parse_cache.shard_of(AGENT))).unlink()


def _edit_json(root: Path, rel: str, change: Any) -> None:
    path = root / rel
    data = read_json_file(path)
    change(data)
    write_json_file(path, data)


def _racy_entry(root: Path) -> None:
    """Recorded at its file's change: another content written in the same tick may share its
    identity (the full sync's cache lookup checks such an entry by hash)."""

    def racy(data: dict[str, Any]) -> None:
        entry = data["files"][AGENT]
        entry[5] = max(entry[1], entry[2])

    _edit_json(root, parse_cache.shard_path(parse_cache.shard_of(AGENT)), racy)


def _unlisted(root: Path) -> None:
    """A record whose answer does not list the agent's output."""
    _edit_json(root, noop.record_path("sync"), lambda d: d["result"]["unchanged"].remove(OUTPUT))


def _other_validate(root: Path) -> None:
    """The project has a warning: its findings come from the validate record written with the
    sync record, and from no other."""
    _edit_json(root, noop.record_path("validate"), lambda d: d.update(start=d["start"] + 1))


@pytest.mark.parametrize(
    "damage",
    [_no_shard, _racy_entry, _unlisted, _other_validate],
    ids=["no-cache-entry", "racy-cache-entry", "output-not-listed", "other-validate-record"],
)
def test_what_it_cannot_vouch_for_sends_the_sync_the_full_way(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: Any
) -> None:
    damage(proj)
    taken = Taken(monkeypatch)
    _replace(proj, AGENT, "Be plain.", "Be plain!")
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [False]


def test_a_cache_entry_of_a_later_version_is_not_taken_for_the_recorded_one(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another command's load (`orkestra list`) after a model change stores the new version:
    compared with itself, the change would look like none."""
    _set(proj, AGENT, lambda d: d.update(model="opus", prompt="Changed too.\n"))
    load(proj, lazy_models=True)
    taken = Taken(monkeypatch)
    got = _same_as_cold(proj, tmp_path)
    assert taken.runs == [False]
    assert "model: opus" in (proj / OUTPUT).read_text(encoding="utf-8")
    assert got["updated"] == [OUTPUT, "registries/.render-lock.json"]


@pytest.mark.parametrize("when", ["before it is read", "after it is read"])
def test_a_file_changed_again_while_it_is_read_takes_the_full_sync(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    """Read first (`_own_edit`), stat'ed after: changed in between, its parse cache entry is
    not the version stat'ed, and the full sync runs; changed before it is read, it is a later
    edit like any other."""
    from orkestra.registry import loader
    from tests.render.conftest import at_call

    _replace(proj, AGENT, "Be plain.", "Be plain!")
    owner, name = (loader, "entry_files") if when == "before it is read" else (noop, "changes")
    at_call(monkeypatch, owner, name, lambda: _replace(proj, AGENT, "plain!", "plain?"))
    taken = Taken(monkeypatch)
    noop.sync_result(proj, "write")
    assert taken.runs == [when == "before it is read"]
    assert "Be plain?" in (proj / OUTPUT).read_text(encoding="utf-8")
    _same_as_cold(proj, tmp_path)


def test_pending_writes_of_a_killed_sync_take_the_full_sync(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record is not looked at (`noop._answer`), so the shortcut is not tried; called with
    the record all the same, it refuses."""
    (proj / pending.PATH).write_text('{"version": 1}', encoding="utf-8")
    record = jsonio.read_sealed(proj / noop.record_path("sync"))
    taken = Taken(monkeypatch)
    _replace(proj, AGENT, "Be plain.", "Be plain!")
    assert delta.sync(proj, record, AGENT) is None
    taken.runs.clear()
    assert noop.sync_result(proj, "write")["updated"] == [OUTPUT, "registries/.render-lock.json"]
    assert taken.runs == []


def test_check_and_dry_run_never_take_it(proj: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    taken = Taken(monkeypatch)
    _replace(proj, AGENT, "Be plain.", "Be plain!")
    found = noop.sync_result(proj, "check")
    assert found["ok"] is False and found["updated"] == [OUTPUT, "registries/.render-lock.json"]
    assert taken.runs == []


SIX = ["claude", "agents-md", "codex", "copilot", "cursor", "gemini"]
#: plain-helper's file of each target
FILES = {"claude": OUTPUT, "codex": ".codex/agents/plain-helper.toml",
         "copilot": ".github/agents/plain-helper.agent.md",
         "cursor": ".cursor/agents/plain-helper.md",
         "gemini": ".gemini/agents/plain-helper.md"}  # fmt: skip


def _targets(template: Path, where: Path, targets: list[str], edit: Any = None) -> Path:
    """The project with these targets (and `edit` applied to it), after a recorded sync."""
    root = where / "targets"
    shutil.copytree(template, root, symlinks=True)
    _set(root, "registries/orkestra.yaml", lambda d: d.update(targets=targets))
    if edit is not None:
        edit(root)
    noop.sync_result(root, "write")
    noop.sync_result(root, "write")
    return root


def _no_roster(root: Path) -> None:
    _set(root, "registries/orkestra.yaml", lambda d: d["render"].update(claude_md=False))


#: the files made of the roster with every target (no CLAUDE.md roster)
BLOCKS = ["AGENTS.md", ".github/copilot-instructions.md", ".cursor/rules/orkestra.mdc"]


def test_with_every_target_a_prompt_edit_renders_the_agent_s_file_of_each(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each target's file of the agent is made of its composed prompt; the instruction block
    (AGENTS.md, Copilot's instructions, Cursor's rule) lists every description: a description
    edit renders it again from the kept roster (here with no CLAUDE.md roster)."""
    root = _targets(template, tmp_path, SIX, _no_roster)
    assert "delta" in jsonio.read_sealed(root / noop.record_path("sync"))
    taken = Taken(monkeypatch)
    _replace(root, AGENT, "Be plain.", "Be plain!")
    got = _same_as_cold(root, tmp_path)
    assert got["updated"] == sorted([*FILES.values(), "registries/.render-lock.json"])
    _replace(root, AGENT, "Be plain!", "Be plain, always.")  # again, from the same kept values
    _same_as_cold(root, tmp_path)
    _replace(root, AGENT, "Helps plainly.", "Helps plainly, always.")
    got = _same_as_cold(root, tmp_path)
    assert got["updated"] == sorted([*FILES.values(), *BLOCKS, "registries/.render-lock.json"])
    _replace(root, AGENT, "Be plain, always.", "Be plain.")
    _same_as_cold(root, tmp_path)
    _replace(root, AGENT, "Helps plainly, always.", "Helps plainly.")  # and back
    _same_as_cold(root, tmp_path)
    assert taken.runs == [True, True, True, True, True]
    assert "Helps plainly, always" not in (root / "AGENTS.md").read_text(encoding="utf-8")


def test_without_a_roster_a_description_edit_renders_each_target_s_file(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _targets(template, tmp_path, ["claude", "codex", "gemini"], _no_roster)
    taken = Taken(monkeypatch)
    _replace(root, AGENT, "Helps plainly.", "Helps plainly, always.")
    got = _same_as_cold(root, tmp_path)
    want = [FILES["claude"], FILES["codex"], FILES["gemini"], "registries/.render-lock.json"]
    assert got["updated"] == sorted(want)
    assert taken.runs == [True]


def test_without_the_claude_target_no_contexts_are_kept(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _targets(template, tmp_path, ["codex", "gemini"])
    assert "delta" not in jsonio.read_sealed(root / noop.record_path("sync"))
    taken = Taken(monkeypatch)
    _replace(root, AGENT, "Be plain.", "Be plain!")
    _same_as_cold(root, tmp_path)
    assert taken.runs == [False]


@pytest.mark.parametrize("words", ["Codex's own words.", "Helps plainly."])
def test_an_agent_whose_codex_file_keeps_its_own_description_is_never_rendered_alone(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, words: str
) -> None:
    """An imported agent's `client_frontmatter.codex.description` wins in its Codex file, even
    one that reads as the agent's: its file is not its template with the agent's description
    put in, so an edit to that agent takes the full sync; the others are still served."""

    def own_codex(root: Path) -> None:
        _no_roster(root)
        own = {"codex": {"description": words}}
        _set(root, AGENT, lambda d: d.update(client_frontmatter=own))

    root = _targets(template, tmp_path, ["claude", "codex"], own_codex)
    assert f'description = "{words}"'.encode() in (root / FILES["codex"]).read_bytes()
    taken = Taken(monkeypatch)
    _replace(root, AGENT, "Be plain.", "Be plain!")
    _same_as_cold(root, tmp_path)
    _replace(root, AGENT, "Helps plainly.", "Helps plainly, now.")
    _same_as_cold(root, tmp_path)
    assert f'description = "{words}"'.encode() in (root / FILES["codex"]).read_bytes()
    _replace(root, OTHER, "prompt: ", "prompt: Also. ")
    _same_as_cold(root, tmp_path)
    assert taken.runs == [False, False, True]


def test_a_prompt_over_copilot_s_limit_is_the_full_sync_s_error(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.render.targets import copilot

    root = _targets(template, tmp_path, SIX)
    taken = Taken(monkeypatch)
    long = "Be plain. " + "Say less. " * (copilot.BODY_LIMIT // 10)
    _replace(root, AGENT, "Be plain.", long)
    got = _same_as_cold(root, tmp_path)
    assert got[0] == "InputError" and "Copilot reads at most" in got[1]
    assert taken.runs == [False]


def test_an_edit_outside_the_racy_window_is_recorded(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = proj / AGENT
    path.write_text(path.read_text(encoding="utf-8").replace("Be plain.", "Be plain!"), "utf-8")
    time.sleep(0.3)
    monkeypatch.setattr(noop, "RACY_NS", 200_000_000)
    monkeypatch.setattr(noop, "FINE_RACY_NS", 200_000_000)
    before = (proj / noop.record_path("sync")).read_bytes()
    assert noop.sync_result(proj, "write")["written"] == 2
    assert (proj / noop.record_path("sync")).read_bytes() != before


def test_an_edit_within_the_racy_window_is_written_but_not_recorded(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    time.sleep(0.3)  # the copy is older than the window now, the edit is not
    monkeypatch.setattr(noop, "RACY_NS", 200_000_000)
    monkeypatch.setattr(noop, "FINE_RACY_NS", 200_000_000)
    path = proj / AGENT
    path.write_text(path.read_text(encoding="utf-8").replace("Be plain.", "Be plain!"), "utf-8")
    taken = Taken(monkeypatch)
    before = (proj / noop.record_path("sync")).read_bytes()
    got = noop.sync_result(proj, "write")  # the file changed just now
    assert taken.runs == [True] and got["written"] == 2
    assert (proj / noop.record_path("sync")).read_bytes() == before  # nothing vouched for


def test_a_lock_not_as_dumps_writes_it_is_not_patched(proj: Path) -> None:
    lock = proj / "registries/.render-lock.json"
    assert delta._lock(proj) is not None
    lock.write_text(json.dumps(read_json_file(lock)), encoding="utf-8")
    assert delta._lock(proj) is None


# --- skills' own text ----------------------------------------------------------------------------


def _section(n: int, body: str) -> Any:
    return lambda d: d["sections"][n].update(body=body)


def test_a_skill_body_edit_writes_its_skill_md_and_the_lock_as_a_full_sync_does(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = Taken(monkeypatch)
    resources = {p: p.read_bytes() for p in (proj / ".claude/skills/schema-migration").rglob("*")
                 if p.is_file() and p.name != "SKILL.md"}  # fmt: skip
    _set(proj, SKILL, _section(1, "1. Back up.\n2. Migrate.\n3. Check.\n"))
    got = _same_as_cold(proj, tmp_path)
    assert taken.runs == [True]
    assert got["updated"] == [SKILL_MD, "registries/.render-lock.json"]
    assert got["written"] == 2
    assert "2. Migrate." in (proj / SKILL_MD).read_text(encoding="utf-8")
    assert resources and all(p.read_bytes() == data for p, data in resources.items())


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(intro="Read this before the steps.\n"),
        lambda d: d["sections"][0].pop("body"),
        lambda d: d["sections"][3].update(body="Undo it.\n\n```sh\nrm -rf x\n```\n"),
        lambda d: d["sections"][2].update(body="Voilà: ✓ — it works ‮ (bidi).\n"),
    ],
    ids=["intro-added", "body-removed", "code-block", "unicode-and-bidi"],
)
def test_any_edit_of_a_skills_own_text_takes_the_delta(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: Any
) -> None:
    taken = Taken(monkeypatch)
    _set(proj, SKILL, change)
    got = _same_as_cold(proj, tmp_path)
    assert taken.runs == [True]
    assert got["updated"] == [SKILL_MD, "registries/.render-lock.json"]


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["sections"][1].update(title="How"),  # ORK103: a required section gone
        lambda d: d["sections"][1].update(title="Steps, in order"),
        lambda d: d["sections"].append({"title": "More", "body": "x\n"}),
        lambda d: d["sections"].pop(0),
        lambda d: d["sections"].reverse(),
        lambda d: d["metadata"].update(last_updated="2026-11-02"),
        lambda d: d["frontmatter"].update(tags=["database"]),
        lambda d: d["frontmatter"].update(allowed_tools=["Read"]),
        lambda d: d.update(scopes=["example"]),
        lambda d: d.pop("resources"),
        lambda d: d["sections"][1].update(body="x\n", extra="y"),
        lambda d: d.update(sections="not a list"),
    ],
    ids=["title-ork103", "title", "added", "removed", "reordered", "last-updated", "tags", "tools", "scopes", "resources", "unknown-key", "malformed"],
)  # fmt: skip
def test_a_skill_edit_beyond_its_own_text_takes_the_full_sync(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: Any
) -> None:
    taken = Taken(monkeypatch)
    _set(proj, SKILL, change)
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [False]


def test_a_body_edit_to_a_skill_with_a_finding_takes_the_full_sync(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last run warned about the skill (ORK103): whatever changes, the full sync answers."""
    _set(proj, SKILL, lambda d: d["sections"].pop())  # no "Recovery" section
    noop.sync_result(proj, "write")
    assert any(f.file == SKILL for f in validate(load(proj)).findings)
    taken = Taken(monkeypatch)
    _set(proj, SKILL, _section(1, "Other steps.\n"))
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [False]


@pytest.mark.parametrize("how", ["nul", "mapping", "yaml-syntax"])
def test_a_body_that_does_not_load_takes_the_full_sync_and_its_error(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    taken = Taken(monkeypatch)
    if how == "nul":
        _set(proj, SKILL, _section(3, "Undo\x00 it.\n"))
    elif how == "mapping":
        _set(proj, SKILL, _section(3, {"undo": "it"}))
    else:
        _set(proj, SKILL, _section(3, "Undo it.\n"))
        _replace(proj, SKILL, "'Undo it.", "'Undo it.' [unclosed")
    got = _same_as_cold(proj, tmp_path)
    assert taken.runs == [False]
    assert isinstance(got, tuple) or got["ok"] is False  # refused, as the full sync refuses


@pytest.mark.parametrize("how", ["resource", "dormant-skill", "agent-too", "two-skills"])
def test_a_skill_body_edit_beside_other_changes(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """A resource file changed too, or a skill no agent reaches (nothing of it rendered): the
    full sync; an agent's prompt or a second skill's body edited too: both in the delta."""
    taken = Taken(monkeypatch)
    _set(proj, SKILL, _section(0, "When the schema changes.\n"))
    if how == "resource":
        guide = proj / "registries/skills/domains/schema-migration/references/guide.md"
        guide.write_text("# Guide, revised\n", encoding="utf-8")
        _bump(guide)
    elif how == "dormant-skill":
        _set(proj, "registries/skills/project/dormant-skill.yaml", _section(0, "Never.\n"))
    elif how == "agent-too":
        _replace(proj, AGENT, "Be plain.", "Be plain and brief.")
    else:
        other = next(p for p in (proj / "registries/skills").rglob("*.yaml")
                     if "example-skill" in p.name)  # fmt: skip
        _replace(proj, other.relative_to(proj).as_posix(), "\n", "\n# edited\n")
        _set(proj, other.relative_to(proj).as_posix(), lambda d: d.update(intro="Example.\n"))
    _same_as_cold(proj, tmp_path)
    assert (True in taken.runs) == (how in ("agent-too", "two-skills"))


#: a core skill one agent lists (example-agent: no finding)
EXAMPLE_SKILL = "registries/skills/project/example-skill.yaml"
EXAMPLE_MD = ".claude/skills/example-skill/SKILL.md"
OTHER_OUTPUT = ".claude/agents/example-agent.md"
WARNED_OUTPUT = ".claude/agents/db-guardian.md"
LOCK = "registries/.render-lock.json"
#: a description no check raises a finding about (50-400 characters, a trigger phrase)
DESCRIBED = "Example workflow skill, revised. Use when you want to see how a skill is shaped."


def _describe(text: str) -> Any:
    return lambda d: d["metadata"].update(description=text)


def test_a_skill_description_edit_writes_its_skill_md_each_agent_listing_it_and_the_lock(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = Taken(monkeypatch)
    _set(proj, EXAMPLE_SKILL, _describe(DESCRIBED))
    got = _same_as_cold(proj, tmp_path)
    assert taken.runs == [True]
    assert got["updated"] == sorted([EXAMPLE_MD, OTHER_OUTPUT, LOCK])
    assert f"`example-skill`: {DESCRIBED}" in (proj / OTHER_OUTPUT).read_text(encoding="utf-8")
    assert f'description: "{DESCRIBED}"' in (proj / EXAMPLE_MD).read_text(encoding="utf-8")


def test_an_agent_listing_the_skill_keeps_its_recorded_findings(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """db-guardian lists schema-migration and has a warning (ORK108): it was not edited, so
    its findings are the recorded ones, and it is rendered again with the new line."""
    taken = Taken(monkeypatch)
    _set(proj, SKILL, _describe("Safe schema migrations, step by step. Use when one is planned."))
    got = _same_as_cold(proj, tmp_path)
    assert taken.runs == [True]
    assert got["updated"] == sorted([SKILL_MD, WARNED_OUTPUT, LOCK]) and got["warnings"] > 0


def test_the_next_edits_render_the_skill_line_as_it_reads_now(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kept contexts are written again with the new line: an edit of the agent after it,
    and of the description again, render what a cold sync renders."""
    taken = Taken(monkeypatch)
    _set(proj, EXAMPLE_SKILL, _describe(DESCRIBED))
    _same_as_cold(proj, tmp_path)
    _set(proj, OTHER, lambda d: d.update(prompt="Round two.\n"))
    assert _same_as_cold(proj, tmp_path)["updated"] == [OTHER_OUTPUT, LOCK]
    _set(proj, EXAMPLE_SKILL, _describe(DESCRIBED.replace("revised", "revised twice")))
    _same_as_cold(proj, tmp_path)
    _set(proj, EXAMPLE_SKILL, _section(0, "When a new skill is planned.\n"))
    _set(proj, OTHER, lambda d: d.update(prompt="Round three.\n"))
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [True, True, True, True]


def test_a_description_and_an_edit_of_an_agent_listing_it_in_one_run(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = Taken(monkeypatch)
    _set(proj, EXAMPLE_SKILL, _describe(DESCRIBED))
    _set(proj, OTHER, lambda d: d.update(prompt="Both at once.\n"))
    got = _same_as_cold(proj, tmp_path)
    assert taken.runs == [True]
    assert got["updated"] == sorted([EXAMPLE_MD, OTHER_OUTPUT, LOCK])


@pytest.mark.parametrize(
    "text",
    [
        "Too short. Use when asked.",  # ORK101
        "Example workflow skill, revised, and it never says when it should be loaded.",  # ORK102
        "Example workflow skill, \u202erevised\u202c. Use when you want to see its shape.",
        "Example workflow skill. Use when asked. " + "x" * 1024,  # ORK044
        DESCRIBED,  # with more agents listing the skill than allowed
    ],
    ids=["ork101-short", "ork102-no-trigger", "ork109-bidi", "ork044-long", "over-the-limit"],
)
def test_a_skill_description_the_delta_cannot_vouch_for_takes_the_full_sync(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """It raises a finding, or more agents list the skill than `MAX_LISTING`."""
    if text == DESCRIBED:
        monkeypatch.setattr(delta, "MAX_LISTING", 0)
    taken = Taken(monkeypatch)
    _set(proj, EXAMPLE_SKILL, _describe(text))
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [False]


def test_a_description_edit_that_renders_the_same_lines_writes_nothing(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Spaces after the description: every output strips them (the length the checks see
    changes, their answer does not)."""
    taken = Taken(monkeypatch)
    kept = (proj / delta.CONTEXTS).read_bytes()
    text = yaml.safe_load((proj / EXAMPLE_SKILL).read_text(encoding="utf-8"))
    _set(proj, EXAMPLE_SKILL, _describe(text["metadata"]["description"] + "   "))
    got = _same_as_cold(proj, tmp_path)
    assert taken.runs == [True] and got["written"] == 0
    was, now = marshal.loads(kept), marshal.loads((proj / delta.CONTEXTS).read_bytes())
    assert {**now, "roster": None} == {**was, "roster": None}  # its roster alone is new:
    listed = {item["name"]: item["description"] for item in now["roster"]["skills"]}
    assert listed["example-skill"].endswith("   ")  # the text as written, rendered the same


def test_kept_contexts_that_cannot_be_written_again_leave_no_record(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outputs are written; the record is the last one, so the next run finds the writes
    and takes the full sync (which keeps the contexts again); an agent edit after that renders
    the new line."""
    taken = Taken(monkeypatch)
    with monkeypatch.context() as m:
        m.setattr(delta, "_write_contexts", lambda *_a: None)
        _set(proj, EXAMPLE_SKILL, _describe(DESCRIBED))
        assert _same_as_cold(proj, tmp_path)["updated"] == sorted([EXAMPLE_MD, OTHER_OUTPUT, LOCK])
    _set(proj, OTHER, lambda d: d.update(prompt="After the failed write.\n"))
    _same_as_cold(proj, tmp_path)
    _set(proj, OTHER, lambda d: d.update(prompt="Once more.\n"))
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [True, False, True]


def test_an_agent_edited_since_the_contexts_were_kept_is_loaded_when_it_lists_the_skill(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its kept prompt is the one before the edit: the record lists it, and a description edit
    of a skill it has renders it with its prompt as the file holds it; the others are not
    loaded."""
    from orkestra.registry import loader

    _set(proj, OTHER, lambda d: d.update(prompt="Edited first.\n"))
    _same_as_cold(proj, tmp_path)
    record = jsonio.read_sealed(proj / noop.record_path("sync"))
    assert record["delta"]["edited"] == [OTHER]
    loads: list[list[str]] = []
    real = loader.entry_files
    monkeypatch.setattr(
        loader, "entry_files", lambda root, rels, was: loads.append(rels) or real(root, rels, was)
    )
    _set(proj, EXAMPLE_SKILL, _describe(DESCRIBED))
    _set(proj, SKILL, _describe("Safe schema migrations, step by step. Use when one is planned."))
    got = _same_as_cold(proj, tmp_path)
    assert got["updated"] == sorted([EXAMPLE_MD, SKILL_MD, OTHER_OUTPUT, WARNED_OUTPUT, LOCK])
    assert "Edited first." in (proj / OTHER_OUTPUT).read_text(encoding="utf-8")
    assert loads == [[SKILL], [EXAMPLE_SKILL], [OTHER]]  # the first met, then the rest; not
    # db-guardian: as kept
    record = jsonio.read_sealed(proj / noop.record_path("sync"))
    assert record["delta"]["edited"] == [OTHER]


@pytest.mark.parametrize(
    "stamp",
    [None, [], {"sha256": 1}, {"sha256": "x", "edited": "a"}, {"sha256": "x", "edited": [1]}],
)
def test_a_stamp_not_as_written_is_refused(stamp: Any) -> None:
    assert not delta._stamp_ok(stamp)
    assert delta._stamp_ok({"sha256": "x"}) and delta._stamp_ok({"sha256": "x", "edited": ["a"]})


def test_a_stamp_listing_an_agent_not_kept_takes_the_full_sync(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = proj / noop.record_path("sync")
    record = read_json_file(path)
    record["delta"]["edited"] = ["registries/agents/nobody.yaml"]
    write_json_file(path, record)
    taken = Taken(monkeypatch)
    _set(proj, AGENT, lambda d: d.update(prompt="Refused.\n"))
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [False]


def test_an_agent_in_a_yml_file_is_kept_and_its_skill_list_follows(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loader reads `.yml` agents too: one listing the skill is rendered with its new line,
    and an edit of its own prompt takes the delta as a `.yaml` one does."""
    text = (proj / OTHER).read_text(encoding="utf-8")
    (proj / "registries/agents/yml-agent.yml").write_text(
        text.replace("example-agent", "yml-agent"), encoding="utf-8"
    )
    _bump(proj / "registries/agents/yml-agent.yml")
    _recorded(proj)  # a new file: the full sync, which keeps its context
    taken = Taken(monkeypatch)
    _set(proj, EXAMPLE_SKILL, _describe(DESCRIBED))
    got = _same_as_cold(proj, tmp_path)
    assert ".claude/agents/yml-agent.md" in got["updated"]
    _set(proj, "registries/agents/yml-agent.yml", lambda d: d.update(prompt="From a .yml.\n"))
    assert _same_as_cold(proj, tmp_path)["updated"] == [".claude/agents/yml-agent.md", LOCK]
    assert taken.runs == [True, True]


def test_contexts_are_not_kept_when_an_agent_s_file_cannot_be_named(proj: Path) -> None:
    """Its skill list could not be followed: the path is not offered at all."""
    from orkestra.render.sync import sync as full

    reg = load(proj)
    kept: dict[str, Any] = {}
    report = full(proj, mode="dry-run", registry=reg, kept=kept)
    assert delta.keep(proj, reg, report, dict(kept)) is not None
    ghost = {**next(iter(kept.values())), "name": "nobody"}
    assert delta.keep(proj, reg, report, {**kept, ".claude/agents/nobody.md": ghost}) is None


def test_skill_lines_are_changed_only_where_they_read_otherwise() -> None:
    agents = {
        "a.yaml": ["a.md", {"skills": ["s", "t"], "skill_lines": ["- s: old", "- t: same"]}, []],
        "b.yaml": ["b.md", {"skills": ["t"], "skill_lines": ["- t: same"]}, []],
        "c.yaml": ["c.md", {"skills": [], "skill_lines": []}, []],
    }
    got = delta._listing(agents, {"s": "- s: new", "t": "- t: same"})
    assert got == {"a.yaml": {"skills": ["s", "t"], "skill_lines": ["- s: new", "- t: same"]}}
    assert agents["a.yaml"][1]["skill_lines"] == ["- s: old", "- t: same"]  # a copy changed
    assert delta._listing(agents, {}) == {}
    for wrong in ({"skills": ["s"], "skill_lines": []}, {"skills": ["s", 1], "skill_lines": ["x", "y"]},
                  {"skills": "s", "skill_lines": ["x"]}, {"skills": ["s"]},
                  {"skills": [["s"]], "skill_lines": ["x"]}):  # fmt: skip
        assert delta._listing({"d.yaml": ["d.md", wrong, []]}, {"s": "- s: new"}) is None
    other = {"skills": [1], "skill_lines": ["x"]}  # lists no edited skill: never read
    assert delta._listing({"d.yaml": ["d.md", other, []]}, {"s": "- s: new"}) == {}


def test_a_vendor_skill_edit_never_tries_the_delta(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real = delta.sync
    monkeypatch.setattr(delta, "sync", lambda *a: calls.append("tried") or real(*a))
    md = proj / "vendor/copied/other-csv/SKILL.md"
    md.write_text(md.read_text(encoding="utf-8").replace("Vendor body.", "Vendor body, edited."))
    _bump(md)
    _same_as_cold(proj, tmp_path)
    assert calls == []


def test_entry_file_loads_one_skill_file_as_the_full_load_does(proj: Path) -> None:
    _set(proj, SKILL, _section(1, "New steps.\n"))
    reg, before, after = entry_file(proj, SKILL)
    assert list(reg.skills) == ["schema-migration"] and not reg.findings and not reg.agents
    assert before is not None and after is not None and before[7] != after[7]
    full = load(proj)
    assert full.skills["schema-migration"] == reg.skills["schema-migration"]
    with pytest.raises(ValueError, match="not an agent's or a core skill's file"):
        entry_file(proj, "registries/skills/K9/x.yaml")


def test_entry_files_loads_each_file_as_entry_file_reading_each_shard_once(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.registry.loader import entry_files

    rels = [AGENT, OTHER, SKILL, WARNED]
    _set(proj, SKILL, _section(1, "New steps.\n"))
    alone = {rel: entry_file(proj, rel) for rel in rels}
    read: list[int] = []
    real = parse_cache.ParseCache._shard
    monkeypatch.setattr(parse_cache.ParseCache, "_shard",
                        lambda self, shard: read.append(shard) or real(self, shard))  # fmt: skip
    got = entry_files(proj, rels)
    assert list(got) == rels
    assert sorted(read) == sorted({parse_cache.shard_of(rel) for rel in rels})
    for rel in rels:
        reg, before, after = got[rel]
        assert (reg.agents, reg.skills, reg.findings) == (
            alone[rel][0].agents, alone[rel][0].skills, alone[rel][0].findings)  # fmt: skip
        assert before == after == alone[rel][2]
    with pytest.raises(ValueError, match="not an agent's or a core skill's file"):
        entry_files(proj, [AGENT, "registries/scopes.yaml"])


def test_no_rule_reads_a_skills_own_text(proj: Path) -> None:
    """What the delta relies on: whatever a core skill's intro and bodies say, every rule finds
    the same (a new rule reading them must make them part of the rest)."""

    def found() -> list[tuple[str, str, str]]:
        return sorted((f.file, f.code, f.message) for f in validate(load(proj)).findings)

    before = found()
    hostile = "Use when anything. \u202eevil\u202c <example>x</example>\n" + "# Steps\n" * 200
    for path in (proj / "registries/skills").rglob("*.yaml"):
        rel = path.relative_to(proj).as_posix()
        if "/" not in rel[len("registries/skills/") :].partition("/")[2]:
            _set(proj, rel, lambda d: d.update(intro=hostile, sections=[
                {**s, "body": hostile} for s in d.get("sections", [])]))  # fmt: skip
    assert found() == before


def test_only_a_skills_own_checks_read_its_description(proj: Path) -> None:
    """What the delta relies on: whatever core skills' descriptions say, every rule but
    `skill_own_findings` finds the same (a new rule reading them must be one of those)."""
    from orkestra.registry.validate import skill_own_findings

    def found() -> list[tuple[str, str, str]]:
        reg = load(proj)
        own = {(f.file, f.code, f.message) for skill in reg.skills.values()
               if skill.core is not None for f in skill_own_findings(skill)}  # fmt: skip
        every = ((f.file, f.code, f.message) for f in validate(reg).findings)
        return sorted(f for f in every if f not in own)

    before = found()
    hostile = [
        "Use when anything. \u202eevil\u202c <example>x</example> --- schema-migration",
        "x",
        "Use for example-skill and db-guardian. " * 40,
        "plain-helper",
    ]
    paths = sorted((proj / "registries/skills").glob("*/*.yaml"))
    assert len(paths) >= 3
    for n, path in enumerate(paths):
        _set(proj, path.relative_to(proj).as_posix(), _describe(hostile[n % len(hostile)]))
    assert found() == before


def test_skill_rest_ignores_only_the_intro_the_bodies_and_the_description() -> None:
    base = {"metadata": {"name": "a"}, "intro": "i", "sections": [{"title": "T", "body": "b"}]}
    rest = delta._skill_rest(base)
    assert rest is not None
    assert delta._skill_rest({**base, "intro": "other"}) == rest
    described = {**base, "metadata": {"name": "a", "description": "d"}}
    assert delta._skill_rest(described) == rest
    assert delta._skill_rest({**base, "metadata": {"name": "b", "description": "d"}}) != rest
    assert delta._skill_rest({**base, "metadata": "not a mapping"}) is not None
    assert delta._skill_rest({**base, "sections": [{"title": "T", "body": "c"}]}) == rest
    assert delta._skill_rest({**base, "sections": [{"title": "U", "body": "b"}]}) != rest
    assert delta._skill_rest({"sections": base["sections"], "metadata": {"name": "a"}}) != rest
    assert delta._skill_rest({**base, "sections": ["T"]}) is None
    assert delta._skill_rest({**base, "sections": None}) is None
    assert delta._skill_rest(["not", "a", "mapping"]) is None
    assert delta._skill_rest({**base, "x": object()}) is None


# --- the pieces ----------------------------------------------------------------------------------


def test_agent_file_loads_one_file_through_its_shard_alone(proj: Path) -> None:
    shards = sorted((proj / parse_cache.CACHE).iterdir())
    before_bytes = {p.name: p.read_bytes() for p in shards}
    _replace(proj, AGENT, "Be plain.", "Be plain!")
    reg, before, after = entry_file(proj, AGENT)
    assert list(reg.agents) == ["plain-helper"] and not reg.findings
    assert reg.agents["plain-helper"].prompt.endswith("Be plain!\n")
    assert before is not None and after is not None and before[7] != after[7]
    mine = Path(parse_cache.shard_path(parse_cache.shard_of(AGENT))).name
    changed = {p.name for p in shards if p.read_bytes() != before_bytes[p.name]}
    assert changed == {mine}
    full = load(proj)  # the full load finds the entry entry_file stored: the same agent
    assert full.agents["plain-helper"] == reg.agents["plain-helper"]


def test_the_validate_record_is_kept_with_its_findings(
    roster_off: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A project with warnings: the delta carries `validate`'s recorded findings over."""
    _set(roster_off, OTHER, lambda d: d.update(category="x\u202e"))
    noop.sync_result(roster_off, "write")
    warned = validate(load(roster_off)).findings
    assert warned
    taken = Taken(monkeypatch)
    _replace(roster_off, AGENT, "Be plain.", "Be plain!")
    noop.sync_result(roster_off, "write")
    assert taken.runs == [True]
    assert noop.recorded(roster_off, "validate") is not None
    assert noop.validate_report(roster_off).findings == validate(load(roster_off)).findings


_EDITS = st.lists(
    st.sampled_from(
        [
            *("prompt", "prompt2", "warned", "description", "model", "new", "remove"),
            *("values", "body", "intro", "title", "skill-description"),
        ]
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(edits=_EDITS)
def test_any_edit_sequence_leaves_what_a_cold_sync_leaves(
    template: Path, tmp_path_factory: pytest.TempPathFactory, edits: list[str]
) -> None:
    _edit_sequence(template, tmp_path_factory.mktemp("seq"), edits, ["claude"])


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(edits=_EDITS)
def test_any_edit_sequence_with_every_target_leaves_what_a_cold_sync_leaves(
    template: Path, tmp_path_factory: pytest.TempPathFactory, edits: list[str]
) -> None:
    _edit_sequence(template, tmp_path_factory.mktemp("seq6"), edits, SIX)


def _edit_sequence(template: Path, where: Path, edits: list[str], targets: list[str]) -> None:
    root = where / "proj"
    shutil.copytree(template, root, symlinks=True)
    _set(root, "registries/orkestra.yaml",
         lambda d: (d["render"].update(claude_md=False), d.update(targets=targets)))  # fmt: skip
    noop.sync_result(root, "write")
    _recorded(root)
    for n, edit in enumerate(edits):
        agent = OTHER
        if edit == "prompt":
            _set(root, AGENT, lambda d, n=n: d.update(prompt=f"Round {n}.\n"))
        elif edit == "warned":
            _set(root, WARNED, lambda d, n=n: d.update(prompt=f"Guard {n}.\n"))
        elif edit == "prompt2":
            _set(root, agent, lambda d, n=n: d.update(prompt=f"Plain {n}.\n"))
        elif edit == "description":
            _set(root, agent, lambda d, n=n: d.update(description=f"Helps, {n}."))
        elif edit == "model":
            _set(root, agent, lambda d: d.update(model="opus" if d.get("model") != "opus" else "x"))
        elif edit == "new":
            (root / f"registries/agents/extra-{n}.yaml").write_text(
                f"name: extra-{n}\ndescription: Extra.\nprompt: p\n", encoding="utf-8"
            )
        elif edit == "remove":
            extra = sorted((root / "registries/agents").glob("extra-*.yaml"))
            if extra:
                extra[0].unlink()
        elif edit == "body":
            _set(root, SKILL, lambda d, n=n: d["sections"][1].update(body=f"{n}. Do it.\n"))
        elif edit == "intro":
            _set(root, SKILL, lambda d, n=n: d.update(intro=f"Read this first ({n}).\n"))
        elif edit == "title":
            _set(root, SKILL, lambda d, n=n: d["sections"][1].update(title=f"Steps {n}"))
        elif edit == "skill-description":
            _set(root, SKILL, _describe(f"Safe schema migrations, round {n}. Use when planned."))
        else:
            _set(root, "registries/values.yaml", lambda d: d)
        _same_as_cold(root, where)


def test_the_installed_cli_answers_agent_and_skill_edits_as_a_cold_sync(
    template: Path, tmp_path: Path
) -> None:
    """Separate processes, real racy windows: a scaffold synced, aged, edited, synced again."""
    import subprocess
    import sys

    exe = Path(sys.executable).with_name("orkestra")
    env = {**os.environ, "ORKESTRA_TODAY": "2026-11-30"}
    root = tmp_path / "cli"
    shutil.copytree(template, root, symlinks=True)

    def run(*args: str, cwd: Path = root) -> dict[str, Any]:
        done = subprocess.run([str(exe), *args], cwd=cwd, env=env, capture_output=True,
                              text=True, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
        return dict(json.loads(done.stdout))

    run("sync")
    time.sleep(0.3)  # past the 0.1 s window: the next run records
    run("sync")
    _replace(root, AGENT, "Be plain.", "Be plain, from the shell.")
    time.sleep(0.3)
    cold = tmp_path / "cold-cli"
    shutil.copytree(root, cold, symlinks=True, ignore=shutil.ignore_patterns(".orkestra"))
    assert run("sync") == run("sync", cwd=cold)
    assert _tree(root) == _tree(cold)
    assert run("sync", "--check")["ok"] is True
    time.sleep(0.3)
    _set(root, SKILL, lambda d: d["sections"][1].update(body="1. Back up.\n2. Migrate.\n"))
    time.sleep(0.3)
    shutil.rmtree(cold)
    shutil.copytree(root, cold, symlinks=True, ignore=shutil.ignore_patterns(".orkestra"))
    answer = run("sync")
    assert answer == run("sync", cwd=cold)
    assert answer["updated"] == [SKILL_MD, "registries/.render-lock.json"]
    assert _tree(root) == _tree(cold)
    assert run("sync", "--check")["ok"] is True
    time.sleep(0.3)
    _set(root, EXAMPLE_SKILL, _describe(DESCRIBED))
    time.sleep(0.3)
    shutil.rmtree(cold)
    shutil.copytree(root, cold, symlinks=True, ignore=shutil.ignore_patterns(".orkestra"))
    answer = run("sync")
    assert answer == run("sync", cwd=cold)
    assert answer["updated"] == sorted([EXAMPLE_MD, OTHER_OUTPUT, LOCK])
    assert _tree(root) == _tree(cold)
    assert run("sync", "--check")["ok"] is True


def _standard_dumps(files: dict[str, Any], servers: dict[str, dict[str, str]] | None) -> bytes:
    """The lock as the standard encoder writes it (what `render_lock.dumps` wrote before)."""
    from orkestra.registry.render_lock import VERSION

    body: dict[str, object] = {"generator": "orkestra", "version": VERSION, "files": {
        p: {"target": e.target, "sha256": e.sha256} for p, e in sorted(files.items())}}  # fmt: skip
    kept = {p: dict(sorted(n.items())) for p, n in sorted((servers or {}).items()) if n}
    if kept:
        body["mcp_servers"] = kept
    return (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


_TEXT = st.text(st.characters(blacklist_categories=["Cs"]), max_size=12)


@settings(max_examples=300, deadline=None)
@given(
    files=st.dictionaries(_TEXT, st.tuples(_TEXT, st.one_of(st.none(), _TEXT)), max_size=6),
    servers=st.one_of(
        st.none(), st.dictionaries(_TEXT, st.dictionaries(_TEXT, _TEXT, max_size=3), max_size=3)
    ),
)
def test_the_lock_text_is_the_standard_encoders(
    files: dict[str, tuple[str, str | None]], servers: dict[str, dict[str, str]] | None
) -> None:
    from orkestra.registry.render_lock import Entry, dumps

    entries = {p: Entry(t, sha) for p, (t, sha) in files.items()}
    assert dumps(entries, servers, None) == _standard_dumps(entries, servers)
    # the list of targets waiting for their mark: last, on one line
    standard = json.loads(_standard_dumps(entries, servers))
    listed = json.loads(dumps(entries, servers, ["codex", "claude"]))
    assert listed == {**standard, "unmarked_targets": ["claude", "codex"]}
    assert dumps(entries, servers, []).endswith(b',\n  "unmarked_targets": []\n}\n')


def test_a_plan_looks_for_stale_temporary_files_in_the_folders_it_is_given(proj: Path) -> None:
    from orkestra.core import safewrite
    from orkestra.render import manifest, writer
    from orkestra.render.plan import Output

    old = time.time() - 2 * 86400  # a day old: stale whoever made it
    for folder in (".claude/agents", ".claude/commands"):
        temp = proj / folder / ".x.md.orkestra-999999-0.tmp"
        temp.write_bytes(b"")
        os.utime(temp, (old, old))
    assert safewrite.TEMP_RE.match(".x.md.orkestra-999999-0.tmp"), (
        "the name of a temporary file changed"
    )
    out = Output(OUTPUT, (proj / OUTPUT).read_bytes())
    owned = manifest.load(proj)
    every = writer.plan(proj, [out], owned, set())
    given_ = writer.plan(proj, [out], owned, set(), scanned={".claude/agents"})
    assert sorted(every.deleted) == [".claude/agents/.x.md.orkestra-999999-0.tmp",
                                     ".claude/commands/.x.md.orkestra-999999-0.tmp"]  # fmt: skip
    assert given_.deleted == [".claude/agents/.x.md.orkestra-999999-0.tmp"]


def test_a_plan_lists_no_folder_a_record_vouches_for_while_its_identity_holds(
    proj: Path, tmp_path: Path
) -> None:
    """A folder whose identity is the one a record gave it when it held no temporary file is
    not listed (the identity here is forged, over a stale file, to show it is trusted); one
    whose identity moved, one where a killed sync was writing, and a symlink are."""
    from orkestra.registry.cache import identity
    from orkestra.render import manifest, pending, writer
    from orkestra.render.plan import Output

    old = time.time() - 2 * 86400
    scanned = {".claude/agents", ".claude/commands"}
    for folder in sorted(scanned):
        temp = proj / folder / ".x.md.orkestra-999999-0.tmp"
        temp.write_bytes(b"")
        os.utime(temp, (old, old))
    out = Output(OUTPUT, (proj / OUTPUT).read_bytes())
    owned = manifest.load(proj)

    def plan(vouched: dict[str, Any]) -> Any:
        return writer.plan(proj, [out], owned, set(), scanned=scanned, vouched=vouched)

    def now() -> dict[str, Any]:
        return {f: identity(os.lstat(proj / f)) for f in scanned}

    done = plan(now())
    assert done.deleted == [] and done.vouched == done.clean == scanned
    moved = {**now(), ".claude/commands": [0, 0, 0, 0, 0]}
    done = plan(moved)
    assert done.deleted == [".claude/commands/.x.md.orkestra-999999-0.tmp"]
    assert done.vouched == {".claude/agents"} and ".claude/commands" not in done.clean
    assert plan({}).deleted == sorted(f"{f}/.x.md.orkestra-999999-0.tmp" for f in scanned)
    pending.record(proj, None, {}, {".claude/agents/x.md": None})  # a killed sync wrote there
    done = plan(now())
    assert done.deleted == [".claude/agents/.x.md.orkestra-999999-0.tmp"]
    assert done.vouched == {".claude/commands"}
    (proj / pending.PATH).unlink()
    elsewhere = tmp_path / "elsewhere"
    (proj / ".claude/commands").rename(elsewhere)
    (proj / ".claude/commands").symlink_to(elsewhere)
    done = plan({**now(), ".claude/commands": identity(os.lstat(proj / ".claude/commands"))})
    assert done.vouched == {".claude/agents"} and ".claude/commands" not in done.clean


# --- the rest of its refusals ----------------------------------------------------------------------


def test_only_a_change_found_first_in_an_agent_or_skill_file_tries_it(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sync the shortcut cannot serve pays nothing for it: a scopes edit goes straight on."""
    calls: list[str] = []
    monkeypatch.setattr(delta, "sync", lambda root, record, first: calls.append("tried"))
    scopes = proj / "registries" / "scopes.yaml"
    scopes.write_text(scopes.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    _bump(scopes)
    noop.sync_result(proj, "write")
    assert calls == []
    _replace(proj, AGENT, "Be plain.", "Be plain!")
    noop.sync_result(proj, "write")
    assert calls == ["tried"]
    _replace(proj, SKILL, "Undo it.", "Undo it twice.")
    noop.sync_result(proj, "write")
    assert calls == ["tried", "tried"]
    assert delta.own_file(AGENT) and not delta.own_file("registries/agents/x/y.yaml")
    assert delta.own_file("registries/agents/x.yml")
    assert not delta.own_file("registries/agents/x.json")
    assert delta.own_file(SKILL) and delta.own_file("registries/skills/K9/x.yaml")
    assert not delta.own_file("registries/skills/x.yaml")
    assert not delta.own_file("registries/skills/domains/x/references/y.yaml")
    assert not delta.own_file("registries/skills/domains/x.md")


def test_an_edit_that_renders_the_same_text_writes_nothing_and_is_recorded(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same prompt written in another YAML style: the full sync's no-op answer, nothing
    written, and the record made again so that the next run is a no-op by stat."""
    _replace(proj, AGENT, "prompt: |\n  Be plain.\n", 'prompt: "Be plain.\\n"\n')
    lock = (proj / "registries" / ".render-lock.json").stat()
    taken = Taken(monkeypatch)
    got = _same_as_cold(proj, tmp_path)
    assert taken.runs == [True]
    assert got["written"] == 0 and got["updated"] == [] and got["mode"] == "write"
    assert (proj / "registries" / ".render-lock.json").stat().st_mtime_ns == lock.st_mtime_ns
    assert noop.recorded(proj, "sync") == got  # recorded: answered by stat from now on
    assert noop.recorded(proj, "validate") is not None


@pytest.mark.parametrize("rel", [AGENT, SKILL, WARNED])
def test_a_file_saved_unchanged_is_answered_from_the_record(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rel: str
) -> None:
    """An editor's save with no change: the same bytes under a new stat are the no-op check's
    (`noop._same_bytes`), before this path is tried, even for a file the last run warned
    about (`WARNED`); the answer is a full sync's."""
    path = proj / rel
    path.write_bytes(path.read_bytes())
    _bump(path)
    taken = Taken(monkeypatch)
    got = _same_as_cold(proj, tmp_path)
    assert got["written"] == 0
    assert taken.runs == []


def test_an_unchanged_file_beside_an_edited_one_writes_only_the_edit(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = proj / SKILL
    path.write_bytes(path.read_bytes())
    _bump(path)
    _replace(proj, AGENT, "Be plain.", "Be plain!")
    taken = Taken(monkeypatch)
    got = _same_as_cold(proj, tmp_path)
    assert taken.runs == [True]
    assert got["updated"] == [OUTPUT, "registries/.render-lock.json"]


def test_an_output_edited_while_the_shortcut_runs_is_left_to_the_full_sync(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Edited after the stats were taken, before the plan reads it: the plan finds the hand
    edit, and the full sync reports the conflict (the edit kept)."""
    from orkestra.render import writer
    from tests.render.conftest import at_call

    out = proj / OUTPUT
    _replace(proj, AGENT, "Be plain.", "Be plain!")
    at_call(monkeypatch, writer, "plan", lambda: out.write_text("mine\n", encoding="utf-8"))
    taken = Taken(monkeypatch)
    got = _outcome(lambda: noop.sync_result(proj, "write"))
    assert taken.runs == [False]
    assert got[0] == "ConflictError" and OUTPUT in got[1]
    assert out.read_text(encoding="utf-8") == "mine\n"


def test_a_project_without_warnings_records_none_for_validate(
    roster_off: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _set(roster_off, WARNED, lambda d: d.update(description="Guards the database."))
    noop.sync_result(roster_off, "write")
    assert not validate(load(roster_off)).findings
    (roster_off / noop.record_path("validate")).unlink()  # not read: no warning to carry
    taken = Taken(monkeypatch)
    _replace(roster_off, AGENT, "Be plain.", "Be plain!")
    _same_as_cold(roster_off, tmp_path)
    assert taken.runs == [True]
    assert noop.recorded(roster_off, "validate") == []


def test_with_every_target_a_skill_body_edit_writes_both_its_skill_md_files(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _targets(template, tmp_path, SIX)
    taken = Taken(monkeypatch)
    _set(root, SKILL, lambda d: d["sections"][1].update(body="1. Back up.\n2. Migrate.\n"))
    got = _same_as_cold(root, tmp_path)
    shared = ".agents/skills/schema-migration/SKILL.md"
    assert got["updated"] == sorted([SKILL_MD, shared, LOCK])
    assert (root / SKILL_MD).read_bytes() == (root / shared).read_bytes()
    assert taken.runs == [True]


@pytest.mark.parametrize("roster", [False, True], ids=["agents-md", "and-claude-md"])
def test_with_a_roster_a_skill_description_edit_writes_its_block(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, roster: bool
) -> None:
    """AGENTS.md lists every active skill's description: its block is made again from the
    kept roster, with the skill's SKILL.md and the list of the agent that has it (CLAUDE.md's
    block lists no skill: not written)."""
    root = _targets(template, tmp_path, ["claude", "agents-md"], None if roster else _no_roster)
    taken = Taken(monkeypatch)
    _set(root, EXAMPLE_SKILL, _describe(DESCRIBED))
    got = _same_as_cold(root, tmp_path)
    assert got["updated"] == sorted([EXAMPLE_MD, OTHER_OUTPUT, "AGENTS.md", LOCK])
    assert DESCRIBED in (root / "AGENTS.md").read_text(encoding="utf-8")
    assert taken.runs == [True]


def _pad_agents_md(root: Path, size: int) -> None:
    """The user's text before Orkestra's block makes AGENTS.md `size` bytes; then the full
    sync that records (the file changed)."""
    path = root / "AGENTS.md"
    text = path.read_text(encoding="utf-8")
    block = text[text.index("<!-- orkestra:begin") :]
    head = "# Ours\n\n"
    filler = size - len((head + "\n\n" + block).encode("utf-8"))
    path.write_text(head + "y" * filler + "\n\n" + block, encoding="utf-8")
    _bump(path)
    noop.sync_result(root, "write")
    assert path.stat().st_size == size


def test_agents_md_over_codex_s_limit_keeps_its_finding_with_the_size_written(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ORK113 tells AGENTS.md's size: a served edit records the finding with the size it
    wrote (`_same_as_cold` compares `validate`'s answer); an edit that takes the file over the
    limit, or back under it, changes the count the answer gives: the full sync."""
    from orkestra.registry.client_rules import CODEX_DOC_LIMIT

    root = _targets(template, tmp_path, ["claude", "agents-md"], _no_roster)
    _pad_agents_md(root, CODEX_DOC_LIMIT - 5)
    taken = Taken(monkeypatch)
    _replace(root, AGENT, "Helps plainly.", "Helps plainly, now over the limit.")
    # counted with the size written: the template's one warning, and ORK113 from this run on
    assert _same_as_cold(root, tmp_path)["warnings"] == 2
    over = [f for f in noop.validate_report(root).findings if f.code == "ORK113"]
    assert len(over) == 1
    _replace(root, AGENT, "now over the limit.", "still over the limit, and longer.")
    _same_as_cold(root, tmp_path)
    (now,) = [f for f in noop.validate_report(root).findings if f.code == "ORK113"]
    size = (root / "AGENTS.md").stat().st_size
    assert f"AGENTS.md is {size} bytes" in now.message and now.message != over[0].message
    _replace(root, AGENT, "Helps plainly, still over the limit, and longer.", "Helps.")
    assert _same_as_cold(root, tmp_path)["warnings"] == 1  # back under it: told by this run
    assert not [f for f in noop.validate_report(root).findings if f.code == "ORK113"]
    assert taken.runs == [False, True, False]


@pytest.mark.parametrize(
    ("target", "block", "mine"),
    [("agents-md", "AGENTS.md", "NOTES.md"),
     ("copilot", ".github/copilot-instructions.md", ".github/workflows"),
     ("cursor", ".cursor/rules/orkestra.mdc", ".cursor/rules/team.mdc")],
)  # fmt: skip
def test_a_block_written_beside_the_user_s_files_leaves_a_record_that_answers(
    template: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    target: str,
    block: str,
    mine: str,
) -> None:
    """AGENTS.md lies in the project folder, Copilot's instructions beside the user's
    workflows, Cursor's rule beside the user's rules: the record names what each folder held
    before the write, and answers the next sync until a name is added there."""

    def with_mine(root: Path) -> None:
        _no_roster(root)
        (root / mine).parent.mkdir(parents=True, exist_ok=True)
        (root / mine).write_text("mine\n", encoding="utf-8")

    root = _targets(template, tmp_path, ["claude", target], with_mine)
    taken = Taken(monkeypatch)
    _replace(root, AGENT, "Helps plainly.", "Helps plainly, always.")
    assert block in noop.sync_result(root, "write")["updated"]
    assert taken.runs == [True]
    assert noop.recorded(root, "sync") is not None
    (root / block).with_name("added.md").write_text("mine too\n", encoding="utf-8")
    assert noop.recorded(root, "sync") is None
    _same_as_cold(root, tmp_path)


def test_a_lock_entry_naming_a_file_with_a_block_takes_the_full_sync(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's files with Orkestra's block are never in the lock (a full sync drops such
    an entry): one there is not the lock this path knows how to write."""
    from orkestra.render import manifest

    root = _targets(template, tmp_path, ["claude", "agents-md"], _no_roster)
    real = delta._lock

    def listing_agents_md(at: Path) -> Any:
        found = real(at)
        if found is not None:
            found[0]["AGENTS.md"] = manifest.Entry("agents-md", "0" * 64)
        return found

    monkeypatch.setattr(delta, "_lock", listing_agents_md)
    taken = Taken(monkeypatch)
    _replace(root, AGENT, "Helps plainly.", "Helps plainly, always.")
    _same_as_cold(root, tmp_path)
    assert taken.runs == [False]


def test_a_roster_file_the_sync_did_not_render_keeps_nothing(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Were a target's block file not among the sync's outputs, the roster could not be
    served: nothing is kept."""
    from types import SimpleNamespace

    root = _targets(template, tmp_path, ["claude", "agents-md"])
    reg = load(root)
    rendered = {"AGENTS.md": None, "CLAUDE.md": None}
    report = SimpleNamespace(
        targets=["claude", "agents-md"], plan=SimpleNamespace(outputs=rendered)
    )
    assert delta._blocks(reg, report) == [["agents-md", "AGENTS.md"], ["claude", "CLAUDE.md"]]  # type: ignore[arg-type]
    for missing in rendered:
        report.plan.outputs = {k: v for k, v in rendered.items() if k != missing}
        assert delta._blocks(reg, report) is None  # type: ignore[arg-type]
    monkeypatch.setattr(delta, "_blocks", lambda *_a: None)
    (root / noop.record_path("sync")).unlink()
    noop.sync_result(root, "write")  # no record: a full sync, which keeps nothing
    assert "delta" not in jsonio.read_sealed(root / noop.record_path("sync"))


def test_claude_md_s_block_in_agents_md_without_that_target_is_served_as_cold(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`render.claude_md_path: AGENTS.md`, agents-md not configured: the file is CLAUDE.md's
    block's (a full sync never takes it out as an unconfigured target's leftover)."""

    def there(root: Path) -> None:
        _set(root, "registries/orkestra.yaml", lambda d: d["render"].update(
            claude_md_path="AGENTS.md"))  # fmt: skip

    root = _targets(template, tmp_path, ["claude"], there)
    taken = Taken(monkeypatch)
    _replace(root, AGENT, "Helps plainly.", "Helps plainly, always.")
    got = _same_as_cold(root, tmp_path)
    assert got["updated"] == sorted([OUTPUT, "AGENTS.md", LOCK]) and not got["deleted"]
    assert taken.runs == [True]


def test_the_roster_takes_the_descriptions_now_of_the_agents_and_active_skills_loaded() -> None:
    """An agent the kept roster does not list (it lists every one) is a kept file not to be
    trusted; a skill it does not list is a dormant one, whose description no block shows."""
    roster = {"values": [], "truths": [],
              "agents": [{"name": "a", "role": "specialist", "description": "old"}],
              "skills": [{"name": "k", "description": "old"}]}  # fmt: skip
    now = delta._described(roster, {"agents": {"a": "new"}, "skills": {"k": "new", "z": "x"}})
    assert now is not None and roster["agents"][0]["description"] == "old"  # not changed in place
    assert [i["description"] for i in (*now["agents"], *now["skills"])] == ["new", "new"]
    assert delta._described(roster, {"agents": {"b": "new"}, "skills": {}}) is None
    assert delta._described(roster, {"agents": {}, "skills": {}}) == roster


def test_a_folder_s_names_are_vouched_for_only_by_an_identity_older_than_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`noop.listings_before`: a folder changed just before the run may take a name within the
    same tick as its stats without a new identity: left out (checked as any folder written
    into); one changed since the stats is refused; one with no listed identity is left out."""
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "a").write_text("x", encoding="utf-8")
    os.utime(folder, ns=(_TICK[0], _TICK[0]))
    now = {"f": noop._identity(str(folder)), str(tmp_path): noop._identity(str(tmp_path))}
    changed = max(now["f"][1], now["f"][2])
    for module in (noop, parse_cache):
        monkeypatch.setattr(module, "RACY_NS", 2_000_000_000)
        monkeypatch.setattr(module, "FINE_RACY_NS", 2_000_000_000)
    assert noop.listings_before(tmp_path, ["f"], now, changed + 1) == {}
    later = changed + 10_000_000_000
    want = {"f": ["a"], str(tmp_path): ["f"]}
    assert noop.listings_before(tmp_path, ["f", "", "g"], now, later) == want
    (folder / "b").write_text("y", encoding="utf-8")
    assert noop.listings_before(tmp_path, ["f"], now, later) is None


#: the example agent's file of each target, which lists the example skill
EXAMPLE_AGENT = {
    target: path.replace("plain-helper", "example-agent") for target, path in FILES.items()
}


def test_with_every_target_a_skill_description_edit_is_served(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent listing the skill has a file for each target, whose composed prompt (made of
    its kept Claude context) lists its skills: each is rendered from that context with the new
    line, as are the rosters, and a second edit sees the first."""
    root = _targets(template, tmp_path, SIX, _no_roster)
    taken = Taken(monkeypatch)
    _set(root, EXAMPLE_SKILL, _describe(DESCRIBED))
    got = _same_as_cold(root, tmp_path)
    assert {*BLOCKS, *EXAMPLE_AGENT.values()} <= set(got["updated"])
    _set(root, EXAMPLE_SKILL, _describe(DESCRIBED.replace("revised", "revised twice")))
    got = _same_as_cold(root, tmp_path)
    assert {*BLOCKS, *EXAMPLE_AGENT.values()} <= set(got["updated"])
    assert taken.runs == [True, True]


def test_a_skill_line_taking_a_listing_agent_over_copilot_s_limit_is_the_full_sync_s_error(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The example agent's composed prompt is just under Copilot's limit; a longer description
    of a skill it lists takes it over: the full sync reports it."""
    from orkestra.registry.loader import load
    from orkestra.render.environment import Templates
    from orkestra.render.targets import copilot
    from orkestra.render.targets.shared import Composer

    def near_the_limit(root: Path) -> None:
        composer = Composer(load(root, use_cache=False), Templates(root))
        agent = composer.reg.agents["example-agent"]
        room = copilot.BODY_LIMIT - len(composer.prompt(composer.context(agent)))
        _set(root, OTHER, lambda d: d.update(prompt=d["prompt"] + "x" * (room - 3) + "\n"))

    root = _targets(template, tmp_path, ["claude", "copilot"], near_the_limit)
    taken = Taken(monkeypatch)
    _set(root, EXAMPLE_SKILL, _describe(DESCRIBED.replace("see", "see, at some length,")))
    got = _same_as_cold(root, tmp_path)
    assert got[0] == "InputError" and "Copilot reads at most" in got[1]
    assert taken.runs == [False]


def test_a_skill_description_edit_listed_by_an_agent_with_other_targets_renders_them_all(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No roster: the description is the skill's own; the agent listing it has Codex and
    Gemini files too, whose composed prompt lists its skills: rendered from its kept context."""
    root = _targets(template, tmp_path, ["claude", "codex", "gemini"], _no_roster)
    taken = Taken(monkeypatch)
    _set(root, EXAMPLE_SKILL, _describe(DESCRIBED))
    got = _same_as_cold(root, tmp_path)
    want = [EXAMPLE_AGENT[t] for t in ("claude", "codex", "gemini")]
    assert set(want) <= set(got["updated"])
    assert taken.runs == [True]


@pytest.mark.parametrize(
    ("clients", "served"),
    [(["gemini"], False), (["claude", "gemini"], True)],
    ids=["gemini alone", "claude and gemini"],
)
def test_a_skill_listed_by_an_agent_without_a_claude_file_keeps_its_description_not_own(
    template: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    clients: list[str],
    served: bool,
) -> None:
    """An agent rendered for Gemini alone has no kept context: its Gemini file lists its
    skills, so a skill's description edit takes the full sync. With Claude too, its kept
    context lists the skill, and its Gemini file is made of it: served."""

    def gemini_only(root: Path) -> None:
        _no_roster(root)
        _set(root, OTHER, lambda d: d.update(clients=clients))

    root = _targets(template, tmp_path, ["claude", "gemini"], gemini_only)
    taken = Taken(monkeypatch)
    _set(root, EXAMPLE_SKILL, _describe(DESCRIBED))
    got = _same_as_cold(root, tmp_path)
    assert ".gemini/agents/example-agent.md" in got["updated"]
    assert taken.runs == [served]


def test_every_target_is_served_and_no_other_is() -> None:
    """A target added later has no recipes: the kept contexts are not written for it (its
    agent files would not be rendered again) until it is served here."""
    from orkestra.render.plan import RenderPlan
    from orkestra.render.sync import KNOWN_TARGETS, SyncReport

    assert set(delta.SERVED) == set(KNOWN_TARGETS)
    report = SyncReport("write", ["claude", "a-new-client"], RenderPlan())
    kept = {OUTPUT: {"name": "plain-helper"}}
    assert delta.keep(Path("/nonexistent"), None, report, kept) is None  # type: ignore[arg-type]


def test_the_kept_recipes_hold_no_description_or_prompt(template: Path, tmp_path: Path) -> None:
    """Put in again on use: kept, the composed prompt (a copy per target) would make the kept
    file several times larger, read whole by every shortcut run."""
    root = _targets(template, tmp_path, SIX)
    record = jsonio.read_sealed(root / noop.record_path("sync"))
    kept = delta._contexts(root, record["delta"]["sha256"])
    assert kept is not None
    (_path, _context, recipes) = kept["agents"][AGENT]
    assert sorted(r[0] for r in recipes) == ["codex", "copilot", "cursor", "gemini"]
    for target, path, _template, values in recipes:
        assert path == FILES[target]
        prompt = "developer_instructions" if target == "codex" else "prompt"
        assert values["description"] is None and values[prompt] is None
        assert list(values)[-1] == prompt or target != "codex"  # the TOML's order kept


def test_an_edit_beyond_its_own_text_is_refused_before_the_stats(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first changed file is looked at first: a `model` edit is refused without the stats
    of every recorded file (the full sync takes its own), and so is a file that cannot be
    loaded on its own."""
    from orkestra.core.errors import InputError
    from orkestra.registry import loader

    taken = Taken(monkeypatch)
    stats: list[int] = []
    real = noop.changes
    monkeypatch.setattr(noop, "changes", lambda *a: stats.append(1) or real(*a))
    _set(proj, AGENT, lambda d: d.update(model="opus"))
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [False] and stats == []

    def broken(*_args: Any) -> Any:
        raise InputError("cannot be read", file=AGENT)

    _replace(proj, AGENT, "Be plain.", "Be plain!")
    with monkeypatch.context() as patch:
        patch.setattr(loader, "entry_files", broken)
        assert noop.sync_result(proj, "write")["updated"] == [OUTPUT, LOCK]
    assert taken.runs == [False, False] and stats == []
    _same_as_cold(proj, tmp_path)
    _set(proj, OTHER, lambda d: d.update(clients=["codex"]))  # rendered nowhere here: not kept
    _same_as_cold(proj, tmp_path)
    _replace(proj, OTHER, "prompt: ", "# a comment\nprompt: ")
    _same_as_cold(proj, tmp_path)
    assert taken.runs == [False, False, False, False] and stats == []


def test_the_installed_cli_answers_edits_with_every_target_as_a_cold_sync(
    template: Path, tmp_path: Path
) -> None:
    """Separate processes, real racy windows, all six targets: a prompt edit, a skill body edit
    and an agent's description edit are served (each target's file written, and each roster;
    the next `--check` clean), and so is a skill's description edit (listed by an agent with
    every target's file, and by the rosters); each answer and tree is a cold sync's."""
    import subprocess
    import sys

    exe = Path(sys.executable).with_name("orkestra")
    env = {**os.environ, "ORKESTRA_TODAY": "2026-11-30"}
    root = tmp_path / "cli6"
    shutil.copytree(template, root, symlinks=True)
    _set(root, "registries/orkestra.yaml", lambda d: d.update(targets=SIX))

    def run(*args: str, cwd: Path = root) -> dict[str, Any]:
        done = subprocess.run([str(exe), *args], cwd=cwd, env=env, capture_output=True,
                              text=True, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
        return dict(json.loads(done.stdout))

    def same_as_cold() -> dict[str, Any]:
        time.sleep(0.3)  # past the racy window, as a sync run from a save hook would be
        cold = tmp_path / "cold6"
        shutil.rmtree(cold, ignore_errors=True)
        shutil.copytree(root, cold, symlinks=True, ignore=shutil.ignore_patterns(".orkestra"))
        answer = run("sync")
        assert answer == run("sync", cwd=cold)
        assert _tree(root) == _tree(cold)
        assert run("sync", "--check")["ok"] is True
        return answer

    run("sync")
    time.sleep(0.3)
    run("sync")

    def edited() -> Any:  # the agents the shortcut rendered since a full sync kept contexts
        record = jsonio.read_sealed(root / noop.record_path("sync"))
        return record["delta"].get("edited")

    _replace(root, AGENT, "Be plain.", "Be plain, from the shell.")
    assert same_as_cold()["updated"] == sorted([*FILES.values(), LOCK])
    assert edited() == [AGENT]  # served
    _set(root, SKILL, lambda d: d["sections"][1].update(body="1. Back up.\n2. Migrate.\n"))
    shared = ".agents/skills/schema-migration/SKILL.md"
    assert same_as_cold()["updated"] == sorted([SKILL_MD, shared, LOCK])
    assert edited() == [AGENT]  # served (the skill's kept name and paths are as they were)
    _replace(root, AGENT, "Helps plainly.", "Helps plainly, from the shell.")
    want = [*FILES.values(), *BLOCKS, "CLAUDE.md", LOCK]
    assert same_as_cold()["updated"] == sorted(want)  # every file listing the description
    assert edited() == [AGENT]  # served
    _set(root, EXAMPLE_SKILL, _describe(DESCRIBED))  # listed by an agent with Codex's file
    skill_files = [".claude/skills/example-skill/SKILL.md", ".agents/skills/example-skill/SKILL.md"]
    want = [*EXAMPLE_AGENT.values(), *BLOCKS, *skill_files, LOCK]
    assert same_as_cold()["updated"] == sorted(want)
    assert edited() == [AGENT]  # served
    _set(root, "registries/values.yaml", lambda d: d)  # the same data, rewritten: a full sync
    assert same_as_cold()["updated"] == []
    assert edited() is None  # contexts kept afresh


def test_the_delta_s_record_starts_by_the_clock_that_stamps_the_files(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server 10 s behind ours: the start the delta records is our clock less the lag read
    from a file written under `.orkestra/`, as a full run's is."""
    _replace(proj, AGENT, "Be plain.", "Be plain, once more.")
    taken = Taken(monkeypatch)
    real = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real() + 10_000_000_000)
    assert noop.sync_result(proj, "write")["written"] >= 2
    assert taken.runs == [True]
    recorded = jsonio.read_sealed(proj / noop.record_path("sync"))["start"]
    assert recorded <= real()
