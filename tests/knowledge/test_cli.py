"""The notes and learn commands through the real CLI (in-process)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write
from tests.knowledge.helpers import note


@pytest.fixture(autouse=True)
def _pinned_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-06-01")


def test_notes_new_list_info_verify_index(cli: Any, project: Path) -> None:
    write(project, "app/task.py", "class Task:\n")
    r = cli(
        "notes",
        "new",
        "gotchas",
        "Task is a Case",
        "--alias",
        "sak",
        "--source",
        "app/task.py#class Task",
        cwd=project,
    )
    assert r.exit_code == 0, r.stderr
    assert r.json() == {
        "name": "task-is-a-case",
        "type": "gotcha",
        "path": "knowledge/gotchas/task-is-a-case.md",
    }
    assert (project / "knowledge/INDEX.md").is_file()
    listed = cli("notes", "list", "--type", "gotcha", cwd=project).json()["notes"]
    assert [n["name"] for n in listed] == ["task-is-a-case"]
    assert cli("notes", "list", "--confidence", "verified", cwd=project).json() == {
        "notes": [],
        "total": 0,
    }
    info = cli("notes", "info", "sak", cwd=project).json()
    assert info["sources"] == ["app/task.py#class Task"] and info["created"] == "2026-06-01"
    v = cli("notes", "verify", "task-is-a-case", cwd=project).json()
    assert v["confidence"] == "verified" and v["verified_at"] == "2026-06-01"
    assert (
        cli("notes", "list", "--confidence", "verified", cwd=project).json()["notes"][0][
            "verified_at"
        ]
        == "2026-06-01"
    )
    r = cli("notes", "check", cwd=project)
    assert r.exit_code == 0 and r.json()["confirmed"] == 1
    assert cli("notes", "index", cwd=project).json()["written"] is False


def test_a_note_is_found_by_the_path_every_answer_shows(cli: Any, project: Path) -> None:
    """`notes list`, `search` and `notes check` show a note's `path` (knowledge/<type>/x.md):
    `notes info` and `notes verify` take it, as they take the name, title or alias."""
    note(project, "task-is-a-case", kind="gotcha", title="Task is a Case")
    path = cli("notes", "list", cwd=project).json()["notes"][0]["path"]
    assert path == "knowledge/gotchas/task-is-a-case.md"
    for spelling in (path, "./" + path, path.removesuffix(".md"), "gotchas/task-is-a-case"):
        r = cli("notes", "info", spelling, cwd=project)
        assert (r.exit_code, r.json()["name"]) == (0, "task-is-a-case"), (spelling, r.stderr)
    assert cli("notes", "verify", path, cwd=project).json()["confidence"] == "verified"
    r = cli("notes", "info", "knowledge/gotchas/nope.md", cwd=project)
    assert r.exit_code == 1 and "no note named 'knowledge/gotchas/nope.md'" in r.stderr


def test_a_note_is_found_by_its_absolute_path(cli: Any, project: Path) -> None:
    """An agent names files by absolute path (Claude Code's Read, a shell's tab completion from
    elsewhere): `notes info /abs/knowledge/gotchas/x.md` was 'no note named', as was the same
    path under a symlinked spelling of the project or with `//` in it."""
    note(project, "task-is-a-case", kind="gotcha", title="Task is a Case")
    linked = project.parent / f"{project.name}-linked"
    linked.symlink_to(project)
    for spelling in (
        str(project / "knowledge/gotchas/task-is-a-case.md"),
        str(linked / "knowledge/gotchas/task-is-a-case.md"),
        "knowledge//gotchas/task-is-a-case.md",
    ):
        r = cli("notes", "info", spelling, cwd=project)
        assert (r.exit_code, r.json()["name"]) == (0, "task-is-a-case"), (spelling, r.stderr)
    elsewhere = project.parent / f"{project.name}-other/knowledge/gotchas/task-is-a-case.md"
    r = cli("notes", "info", str(elsewhere), cwd=project)
    assert r.exit_code == 1 and "no note named" in r.stderr  # outside the project: not it


def test_notes_new_errors(cli: Any, project: Path) -> None:
    r = cli("notes", "new", "essay", "X", cwd=project)
    assert r.exit_code == 2 and "unknown note type 'essay'" in r.stderr
    r = cli("notes", "new", "recipe", "X", "--source", "../secret", cwd=project)
    assert r.exit_code == 2 and not (project / "knowledge/recipes").exists()
    assert "climbs out of its folder with '..'" in r.stderr
    r = cli("notes", "new", "recipe", "X", "--source", "/etc/passwd", cwd=project)
    assert r.exit_code == 2 and "is an absolute path" in r.stderr
    r = cli("notes", "new", "recipe", "X", "--source", "#pattern", cwd=project)
    assert r.exit_code == 2 and "names no file" in r.stderr
    cli("notes", "new", "recipe", "Deploy", cwd=project)
    r = cli("notes", "new", "gotcha", "deploy", cwd=project)
    assert r.exit_code == 1 and "already exists" in r.stderr
    r = cli("notes", "info", "nope", cwd=project)
    assert r.exit_code == 1 and "no note named 'nope'" in r.stderr


def test_check_exit_codes(cli: Any, project: Path) -> None:
    note(project, "case", sources=["gone.py"])
    r = cli("notes", "check", cwd=project)
    assert r.exit_code == 1 and r.json()["contradicted_notes"][0]["name"] == "case"
    assert cli("notes", "check", "--no-sources", cwd=project).exit_code == 0
    write(project, "knowledge/glossary/bad.md", "---\ntype: recipe\n---\n")
    r = cli("notes", "check", "--no-sources", "--format", "json", cwd=project)
    assert r.exit_code == 1
    problems = r.json()["problems"]
    assert {"code": "KN003", "line": 2, "file": "knowledge/glossary/bad.md"}.items() <= problems[
        0
    ].items()


def test_knowledge_config_errors_name_the_line(cli: Any, project: Path) -> None:
    write(
        project,
        "registries/orkestra.yaml",
        "project: demo\nknowledge:\n  verified_max_age_days: 0\n",
    )
    r = cli("notes", "list", cwd=project)
    assert r.exit_code == 1
    assert "registries/orkestra.yaml:3" in r.stderr and "verified_max_age_days" in r.stderr


def test_custom_knowledge_path(cli: Any, project: Path) -> None:
    write(project, "registries/orkestra.yaml", "project: demo\nknowledge:\n  path: docs/kb\n")
    assert (
        cli("notes", "new", "glossary", "Case", cwd=project).json()["path"]
        == "docs/kb/glossary/case.md"
    )


def test_learn_list_names_each_claims_file_from_the_project_root(
    cli: Any, project: Path, tmp_path: Path
) -> None:
    """With `knowledge.path: docs/kb`, `learn list`'s `file` is docs/kb/claims/..., the path
    search cites (it was kb/claims/..., a path that does not exist)."""
    write(project, "registries/orkestra.yaml", "project: demo\nknowledge:\n  path: docs/kb\n")
    fact = {"statement": "Use pnpm, not npm, to install frontend dependencies", "category": "tool"}
    first = write(tmp_path, "a.json", json.dumps({"insights": [fact]}))
    proposal = write(
        tmp_path, "p.json", cli("learn", "propose", "-i", str(first), cwd=project).stdout
    )
    assert cli("learn", "apply", "-i", str(proposal), cwd=project).exit_code == 0
    (claim,) = cli("learn", "list", cwd=project).json()["claims"]
    assert claim["file"].startswith("docs/kb/claims/"), claim
    assert (project / claim["file"]).is_file()
    hit = cli("search", "pnpm", cwd=project).json()["results"][0]
    assert hit["path"] == claim["file"]


def test_learn_loop(cli: Any, project: Path, tmp_path: Path) -> None:
    new = write(
        tmp_path,
        "in/new.json",
        json.dumps(
            {"insights": [{"statement": "Ledgers are union merged", "category": "pattern"}]}
        ),
    )
    r = cli("learn", "propose", "--input", str(new), cwd=project)
    assert r.exit_code == 0, r.stderr
    proposal = write(tmp_path, "in/proposal.json", r.stdout)
    assert not (project / "knowledge").exists()
    r = cli("learn", "apply", "--input", str(proposal), "--format", "text", cwd=project)
    assert r.stdout == "Saved: 1 new; Skipped: 0\n"
    listed = cli("learn", "list", cwd=project).json()["claims"]
    assert [c["confidence"] for c in listed] == ["low"]
    assert cli("learn", "list", "--confidence", "high", cwd=project).json()["claims"] == []
    r = cli("learn", "promote", listed[0]["id"], cwd=project)
    assert r.exit_code == 1 and "only high-confidence" in r.stderr
    r = cli("learn", "promote", listed[0]["id"], "--force", "--prefix", "DEMO", cwd=project)
    assert r.json()["truth"] == "GT-DEMO-001"
    assert cli("validate", cwd=project).exit_code == 0


def test_learn_input_errors(cli: Any, project: Path, tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.json", '{"insights": [\n}')
    r = cli("learn", "propose", "--input", str(bad), cwd=project)
    assert r.exit_code == 1 and f"{bad}:2:" in r.stderr
    r = cli("learn", "apply", "--input", str(tmp_path / "missing.json"), cwd=project)
    assert r.exit_code == 1 and "cannot read input" in r.stderr
    r = cli("learn", "list", "--confidence", "sure", cwd=project)
    assert r.exit_code == 2


def test_learn_apply_refreshes_the_index(cli: Any, project: Path, tmp_path: Path) -> None:
    new = write(tmp_path, "new.json", json.dumps({"insights": [{"statement": "A fact"}]}))
    proposal = write(
        tmp_path, "p.json", cli("learn", "propose", "-i", str(new), cwd=project).stdout
    )
    cli("learn", "apply", "-i", str(proposal), cwd=project)
    assert "0 notes and 1 claims" in (project / "knowledge/INDEX.md").read_text()


def test_notes_new_and_index_refuse_a_symlinked_folder_leaving_the_project(
    cli: Any, project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (project / "knowledge").mkdir(exist_ok=True)
    (project / "knowledge/gotchas").symlink_to(outside, target_is_directory=True)
    r = cli("notes", "new", "gotchas", "Task is a Case", cwd=project)
    assert r.exit_code == 1 and "knowledge/gotchas" in r.stderr and "symlink" in r.stderr
    assert list(outside.iterdir()) == [] and not (project / "knowledge/INDEX.md").exists()
    (project / "knowledge/gotchas").unlink()
    shutil.move(project / "knowledge", outside / "knowledge")
    (project / "knowledge").symlink_to(outside / "knowledge", target_is_directory=True)
    r = cli("notes", "index", cwd=project)
    assert r.exit_code == 1 and "'knowledge': it is a symlink" in r.stderr, r.stderr
    assert not (outside / "knowledge/INDEX.md").exists()


def test_learn_apply_of_the_same_proposal_twice_is_refused(
    cli: Any, project: Path, tmp_path: Path
) -> None:
    fact = {"statement": "Use pnpm, not npm, to install frontend dependencies", "category": "tool"}
    first = write(tmp_path, "a.json", json.dumps({"insights": [fact]}))
    saving = write(
        tmp_path, "pa.json", cli("learn", "propose", "-i", str(first), cwd=project).stdout
    )
    assert cli("learn", "apply", "-i", str(saving), cwd=project).exit_code == 0
    claims = project / "knowledge" / "claims"
    before = {p.name: p.read_bytes() for p in claims.iterdir()}
    again = cli("learn", "apply", "-i", str(saving), cwd=project)
    assert again.exit_code == 1 and "applied already" in again.stderr, again.stderr
    assert {p.name: p.read_bytes() for p in claims.iterdir()} == before
    reinforce = write(
        tmp_path,
        "pb.json",
        cli("learn", "propose", "-i", str(first), cwd=project).stdout,
    )
    assert json.loads(reinforce.read_text())["items"][0]["action"] == "reinforce"
    assert cli("learn", "apply", "-i", str(reinforce), cwd=project).exit_code == 0
    before = {p.name: p.read_bytes() for p in claims.iterdir()}
    retry = cli("learn", "apply", "-i", str(reinforce), cwd=project)
    assert retry.exit_code == 1 and "seen 2 times, 1 when" in retry.stderr, retry.stderr
    assert {p.name: p.read_bytes() for p in claims.iterdir()} == before
    (claim,) = cli("learn", "list", cwd=project).json()["claims"]
    assert claim["seen_count"] == 2


def test_a_hand_written_index_md_is_never_overwritten(cli: Any, project: Path) -> None:
    """A knowledge folder the team had before (or `knowledge.path: docs`) holding its own
    INDEX.md: notes new, verify, check and learn apply regenerated it over the team's text."""
    mine = "# Our knowledge\n\n- [Setup](setup.md)\n"
    index = write(project, "knowledge/INDEX.md", mine)
    path = note(project, "case", confidence="observed")
    before = path.read_bytes()
    proposal = project / "p.json"
    claim = {"statement": "Hooks import only the standard library", "category": "tool"}
    proposal.write_text(json.dumps({"insights": [claim]}))
    runs = [
        ("notes", "new", "gotcha", "Clock skew"),
        ("notes", "verify", "case"),
        ("notes", "check"),
        ("learn", "apply", "--input", str(proposal)),
    ]
    for args in runs:
        r = cli(*args, cwd=project)
        assert r.exit_code == 1, (args, r.stderr)
        assert "knowledge/INDEX.md:1: not the index Orkestra generates" in r.stderr
        assert index.read_text() == mine and path.read_bytes() == before
    assert not (project / "knowledge/gotchas/clock-skew.md").exists()
    assert not (project / "knowledge/claims").exists()
    assert cli("notes", "check", "--dry-run", cwd=project).exit_code == 0
    index.unlink()
    assert cli("notes", "new", "gotcha", "Clock skew", cwd=project).exit_code == 0
    assert index.read_text().startswith("# Knowledge index\n")


def test_a_note_that_fails_to_load_is_warned_about_and_pointed_at(cli: Any, project: Path) -> None:
    note(project, "kept")
    write(project, "knowledge/glossary/broken.md", "---\ntype: glossary\n\ttitle: x\n---\nBody\n")
    listed = cli("notes", "list", cwd=project)
    assert listed.exit_code == 0 and [n["name"] for n in listed.json()["notes"]] == ["kept"]
    (line,) = listed.stderr.splitlines()
    assert line.startswith("orkestra: warning: knowledge/glossary/broken.md:3: KN001: ")
    assert "`orkestra notes check` lists every problem" in line
    missing = cli("notes", "info", "broken", "--format", "json", cwd=project)
    assert (missing.exit_code, missing.stdout) == (1, "")
    error = json.loads(missing.stderr.splitlines()[-1])["error"]
    assert (error["file"], error["line"]) == ("knowledge/glossary/broken.md", 3)
    assert "no note named 'broken'" in error["message"] and "failed to load" in error["message"]
    shown = cli("notes", "info", "kept", cwd=project)
    assert shown.exit_code == 0 and "broken.md:3" in shown.stderr


def test_a_missing_note_is_pointed_at_the_broken_file_named_after_it(
    cli: Any, project: Path
) -> None:
    """Two notes fail to load: asking for one by its name or its path points at its own file,
    not at the first broken file of the walk (which cannot be the note asked for)."""
    write(project, "knowledge/gotchas/alpha-bug.md", "---\ntype: gotcha\ntitle: [bad\n---\nx\n")
    write(project, "knowledge/recipes/zeta-steps.md", "---\ntype: recipe\n\ttitle: x\n---\nx\n")
    for name in ("zeta-steps", "knowledge/recipes/zeta-steps.md", "Zeta-Steps"):
        missing = cli("notes", "info", name, "--format", "json", cwd=project)
        assert missing.exit_code == 1, missing.stderr
        error = json.loads(missing.stderr.splitlines()[-1])["error"]
        assert (error["file"], error["line"]) == ("knowledge/recipes/zeta-steps.md", 3), name
    # a title or alias may be written in any note: the first broken file is named then
    other = cli("notes", "info", "Some title", "--format", "json", cwd=project)
    error = json.loads(other.stderr.splitlines()[-1])["error"]
    assert error["file"] == "knowledge/gotchas/alpha-bug.md"


def test_check_reports_a_renamed_function_the_note_cites(cli: Any, project: Path) -> None:
    code = write(project, "app/billing.py", "def charge(card):\n    pass\n")
    note(project, "charging", sources=["app/billing.py#def charge"])
    assert cli("notes", "check", cwd=project).exit_code == 0
    code.write_text("def charge_card(card):\n    pass\n", encoding="utf-8")
    r = cli("notes", "check", cwd=project)
    assert r.exit_code == 1
    (bad,) = r.json()["contradicted_notes"]
    assert bad["name"] == "charging"
    assert bad["sources"][0]["reason"] == "pattern 'def charge' not found"


def test_a_source_written_path_colon_symbol_says_to_use_hash_not_that_the_file_is_gone(
    cli: Any, project: Path
) -> None:
    """`app/billing.py:charge` (truth evidence's form) named no file, and the note was reported
    contradicted, "file not found (renamed or deleted?)", though the file is there."""
    write(project, "app/billing.py", "def charge(card):\n    pass\n")
    note(project, "charging", sources=["app/billing.py:charge", "app/gone.py:charge"])
    r = cli("notes", "check", cwd=project)
    (checked,) = [n for n in r.json()["notes"] if n["name"] == "charging"]
    first, second = checked["sources"]
    assert first["status"] == "ambiguous" and "write app/billing.py#charge" in first["reason"]
    assert second["status"] == "contradicted"  # no such file either way


def test_verify_keeps_a_note_with_quoted_keys_loadable(cli: Any, project: Path) -> None:
    path = write(
        project,
        "knowledge/gotchas/quoted.md",
        '---\n"type": gotcha\n"title": Quoted\n"confidence": observed\n---\nBody.\n',
    )
    assert cli("notes", "verify", "quoted", cwd=project).exit_code == 0
    assert path.read_text(encoding="utf-8").count("confidence") == 1
    r = cli("notes", "check", "--no-sources", cwd=project)
    assert r.exit_code == 0 and r.json()["problems"] == []
    assert cli("notes", "list", cwd=project).json()["notes"][0]["confidence"] == "verified"


def _learn_once(cli: Any, project: Path, tmp_path: Path, statement: str) -> str:
    """`learn propose` of one statement, then `learn apply` of its proposal as it stands: the
    statement's classification."""
    new = write(tmp_path, "in/new.json", json.dumps({"insights": [{"statement": statement}]}))
    r = cli("learn", "propose", "--input", str(new), cwd=project)
    proposal = write(tmp_path, "in/proposal.json", r.stdout)
    cli("learn", "apply", "--input", str(proposal), cwd=project)
    return str(r.json()["items"][0]["classification"])


def test_learn_flags_another_number_for_review(cli: Any, project: Path, tmp_path: Path) -> None:
    def loop(statement: str) -> str:
        return _learn_once(cli, project, tmp_path, statement)

    assert loop("Charges are retried 3 times before the invoice fails") == "NEW"
    assert loop("Charges are retried 5 times before the invoice fails") == "CONTRADICTS"
    (claim,) = cli("learn", "list", cwd=project).json()["claims"]
    assert (claim["statement"][:23], claim["seen_count"]) == ("Charges are retried 3 t", 1)


def test_learn_reinforces_a_quantity_spelled_another_way(
    cli: Any, project: Path, tmp_path: Path
) -> None:
    def loop(statement: str) -> str:
        return _learn_once(cli, project, tmp_path, statement)

    assert loop("The export job streams 10,000 rows per batch") == "NEW"
    assert loop("The export job streams 10000 rows per batch") == "REINFORCED"
    (claim,) = cli("learn", "list", cwd=project).json()["claims"]
    assert claim["seen_count"] == 2


def _line_of(path: Path, needle: str) -> int:
    """The 1-based line of `path` holding `needle` (once)."""
    (number,) = [n for n, text in enumerate(path.read_text().splitlines(), 1) if needle in text]
    return number


NEW_INSIGHTS = {
    "topic": "http client",
    "insights": [
        {
            "statement": "The HTTP client retries idempotent requests three times.",
            "category": "technical",
            "tags": ["http", "retry"],
        },
        {"statement": "Timeouts are set per request, never globally.", "category": "pattern"},
    ],
}


@pytest.mark.parametrize(
    ("edit", "needle", "message"),
    [
        (lambda d: d["insights"][1].update(statement=""), '"statement": ""', "statement is"),
        (lambda d: d["insights"][1].update(category="howto"), '"howto"', "category must be"),
        (lambda d: d["insights"][0].update(tags="http"), '"tags": "http"', "list of strings"),
        (lambda d: d["insights"][1].update(context=["x"]), '"context"', "must be a string"),
        (lambda d: d["insights"].append("just text"), '"just text"', "must be an object"),
    ],
)
def test_learn_propose_input_errors_name_the_line(
    cli: Any, project: Path, tmp_path: Path, edit: Any, needle: str, message: str
) -> None:
    """An insight the input file gets wrong was reported as `new.json: insights[1]...` with no
    line: in a file of dozens of insights the user had to count objects by hand."""
    data = json.loads(json.dumps(NEW_INSIGHTS))
    edit(data)
    new = write(tmp_path, "new.json", json.dumps(data, indent=2))
    r = cli("learn", "propose", "--input", str(new), cwd=project)
    assert r.exit_code == 1 and message in r.stderr, r.stderr
    assert f"{new}:{_line_of(new, needle)}: " in r.stderr, r.stderr
    assert not (project / "knowledge").exists()


@pytest.mark.parametrize(
    ("name", "text", "line", "hint"),
    [
        ("new.yaml", "insights:\n  - statement: The client retries\n", 1, '{"insights": ['),
        ("new.md", "# Learned today\n\n- The client retries\n", 1, '{"insights": ['),
        ("new.json", '{"insights": [\n  {"statement": "x",}\n]}\n', 2, '{"insights": ['),
    ],
)
def test_learn_propose_input_that_is_not_json_says_what_it_takes(
    cli: Any, project: Path, tmp_path: Path, name: str, text: str, line: int, hint: str
) -> None:
    """A YAML or markdown file given to `learn propose` said only `not valid JSON (Expecting
    value)`: nothing about what the input must be."""
    new = write(tmp_path, name, text)
    r = cli("learn", "propose", "--input", str(new), cwd=project)
    assert r.exit_code == 1 and f"{new}:{line}: not valid JSON" in r.stderr, r.stderr
    assert hint in r.stderr, r.stderr


@pytest.mark.parametrize(
    ("edit", "needle", "message"),
    [
        (lambda i: i[1].update(action="reinforse"), '"reinforse"', "action must be one of"),
        (lambda i: i[0].update(action="merge"), '"action": "merge"', "not allowed for NEW"),
        (lambda i: i[1].update(classification="SAME"), '"SAME"', "classification must be"),
        (lambda i: i[0]["claim"].update(category="howto"), '"howto"', "category must be"),
        (lambda i: i[1]["matched"].update(id="CL-deadbeef"), "CL-deadbeef", "no longer exists"),
        (lambda i: i[1]["matched"].update(seen_count=7), '"seen_count": 7', "seen 1 times, 7"),
        (lambda i: i[1].update(matched={}), '"matched": {}', "needs matched.id"),
    ],
)
def test_learn_apply_of_a_hand_edited_proposal_names_the_line(
    cli: Any, project: Path, tmp_path: Path, edit: Any, needle: str, message: str
) -> None:
    """A proposal edited by hand into something `apply` refuses was reported without a line
    (`p.json: items[1].action must be ...`, or a conflict naming no file at all)."""
    fact = {"insights": [NEW_INSIGHTS["insights"][0]]}
    first = write(tmp_path, "first.json", json.dumps(fact))
    saved = write(
        tmp_path, "p0.json", cli("learn", "propose", "-i", str(first), cwd=project).stdout
    )
    assert cli("learn", "apply", "-i", str(saved), cwd=project).exit_code == 0
    claims = project / "knowledge/claims"
    before = {p.name: p.read_bytes() for p in claims.iterdir()}
    data = json.loads(json.dumps(NEW_INSIGHTS))
    data["insights"].reverse()  # items[0]: NEW, items[1]: REINFORCED
    new = write(tmp_path, "new.json", json.dumps(data))
    proposal = json.loads(cli("learn", "propose", "-i", str(new), cwd=project).stdout)
    assert [i["classification"] for i in proposal["items"]] == ["NEW", "REINFORCED"]
    edit(proposal["items"])
    edited = write(tmp_path, "p.json", json.dumps(proposal, indent=2))
    r = cli("learn", "apply", "-i", str(edited), cwd=project)
    assert r.exit_code == 1 and message in r.stderr, r.stderr
    assert f"{edited}:{_line_of(edited, needle)}: " in r.stderr, r.stderr
    assert {p.name: p.read_bytes() for p in claims.iterdir()} == before


def test_learn_apply_over_a_hand_edited_claims_file_names_its_line(
    cli: Any, project: Path, tmp_path: Path
) -> None:
    """`"seen_count": "two"` typed into a claims file made the next reinforce an internal error
    (exit 3, a traceback in the crash log) instead of an input error at that line."""
    fact = write(tmp_path, "a.json", json.dumps({"insights": [NEW_INSIGHTS["insights"][0]]}))
    first = write(tmp_path, "p0.json", cli("learn", "propose", "-i", str(fact), cwd=project).stdout)
    assert cli("learn", "apply", "-i", str(first), cwd=project).exit_code == 0
    (claims,) = (project / "knowledge/claims").glob("*.json")
    claims.write_text(claims.read_text().replace('"seen_count": 1', '"seen_count": "two"'))
    before = claims.read_bytes()
    again = write(tmp_path, "p1.json", cli("learn", "propose", "-i", str(fact), cwd=project).stdout)
    r = cli("learn", "apply", "-i", str(again), cwd=project)
    assert r.exit_code == 1 and "seen_count must be a whole number" in r.stderr, r.stderr
    rel = f"knowledge/claims/{claims.name}"
    line = _line_of(claims, '"seen_count": "two"')
    assert f"{rel}:{line}: " in r.stderr, r.stderr
    assert claims.read_bytes() == before


@pytest.mark.parametrize(
    "command",
    [
        ("notes", "new", "gotcha", "Clock skew"),
        ("notes", "verify", "case"),
        ("notes", "check", "--no-sources"),
    ],
)
def test_a_malformed_claims_file_stops_a_notes_command_before_it_writes(
    cli: Any, project: Path, command: tuple[str, ...]
) -> None:
    """INDEX.md counts the claims, and a claims file that does not parse failed the index only
    after the command had written: `notes new` reported an error yet left the note (a rerun
    said it already existed), `notes verify` changed the note, `notes check` demoted notes."""
    note(project, "case", confidence="verified", verified_at="2020-01-01")
    before = (project / "knowledge/glossary/case.md").read_bytes()
    claims = write(
        project,
        "knowledge/claims/2026-01-01-x.json",
        '{"insights": [\n  {"id": "CL-1", "statement": "x",}\n]}\n',
    )
    r = cli(*command, cwd=project)
    assert r.exit_code == 1 and "knowledge/claims/2026-01-01-x.json:2: " in r.stderr, r.stderr
    assert not (project / "knowledge/gotchas").exists()
    assert (project / "knowledge/glossary/case.md").read_bytes() == before
    assert not (project / "knowledge/INDEX.md").exists()
    claims.write_text('{"insights": []}\n')
    assert cli(*command, cwd=project).exit_code == 0


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("gotcha", "Caf\udce9 crash"), "title"),
        (("gotcha", "Cafe", "--alias", "caf\udce9"), "--alias"),
        (("gotcha", "Cafe", "--tag", "area/caf\udce9"), "--tag"),
        (("gotcha", "Cafe", "--source", "src/caf\udce9.py"), "--source"),
    ],
)
def test_notes_new_refuses_an_argument_that_is_not_utf8(
    cli: Any, project: Path, args: tuple[str, ...], option: str
) -> None:
    """A word typed in a Latin-1 terminal reaches Python as a lone surrogate: `notes new` crashed
    with an internal error (UnicodeEncodeError while writing the note)."""
    r = cli("notes", "new", *args, cwd=project)
    assert r.exit_code == 2, r.stderr
    assert option in r.stderr and "UTF-8" in r.stderr, r.stderr
    assert not (project / "knowledge").exists()


def test_claims_files_are_named_from_the_project_root_under_a_custom_knowledge_path(
    cli: Any, project: Path, tmp_path: Path
) -> None:
    """With `knowledge.path: docs/kb`, a broken claims file was reported as `kb/claims/...`
    (the knowledge folder's name only), a path that exists nowhere from the project root."""
    write(project, "registries/orkestra.yaml", "project: demo\nknowledge:\n  path: docs/kb\n")
    new = write(tmp_path, "new.json", json.dumps({"insights": [{"statement": "A fact"}]}))
    proposal = write(
        tmp_path, "p.json", cli("learn", "propose", "-i", str(new), cwd=project).stdout
    )
    r = cli("learn", "apply", "-i", str(proposal), cwd=project)
    (name,) = r.json()["files"]
    assert name.startswith("docs/kb/claims/") and (project / name).is_file()
    assert cli("learn", "list", cwd=project).json()["claims"][0]["file"] == name
    (project / name).write_text('{"insights": [\n  {"id": "CL-1",}\n]}\n')
    for command in (("learn", "list"), ("learn", "propose", "-i", str(new)), ("notes", "index")):
        r = cli(*command, cwd=project)
        assert r.exit_code == 1 and f"orkestra: {name}:2: " in r.stderr, r.stderr


def test_notes_check_tells_invalid_utf8_at_its_line_in_a_cr_only_note(
    cli: Any, project: Path
) -> None:
    path = project / "knowledge/gotchas/old-mac.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"---\rtitle: Old mac note\rtype: gotcha\r---\r\rBody\rBad byte: \xff\r")
    result = cli("notes", "check", cwd=project)
    (problem,) = [p for p in result.json()["problems"] if p["code"] == "KN001"]
    assert (problem["file"], problem["line"]) == ("knowledge/gotchas/old-mac.md", 7)
    assert "invalid UTF-8" in problem["message"]
