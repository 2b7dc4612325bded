"""`orkestra hook session-start|post-tool-use|stop` on real-format payloads."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from orkestra.hooks import context, handlers
from orkestra.hooks.events import bash_cli
from tests.conftest import write
from tests.hooks.conftest import EXAMPLE_ROOT, PAYLOADS, events
from tests.knowledge.helpers import note

Payload = Callable[..., str]


@pytest.fixture(autouse=True)
def _pinned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-06-01")
    monkeypatch.delenv("ORKESTRA_ROOT", raising=False)


def test_read_of_a_note_goes_to_usage_log(cli: Any, project: Path, payload: Payload) -> None:
    note(project, "case")
    r = cli("hook", "post-tool-use", stdin=payload("post-tool-use-read"), cwd=project)
    assert (r.exit_code, r.stdout) == (0, "")
    (usage,) = [
        json.loads(x) for x in (project / "knowledge/.usage.jsonl").read_text().splitlines()
    ]
    assert usage["path"] == "glossary/case.md" and usage["ts"].startswith("2026-06-01T")
    assert usage["session_id"] == "3f1c2a9e-5b7d-4e21-9a0c-1d2e3f4a5b6c"
    (event,) = events(project)
    assert event["event"] == "PostToolUse" and event["tool_type"] == "builtin"
    assert event["path"] == "knowledge/glossary/case.md" and event["agent_tool"] == "claude-code"


def test_read_outside_knowledge_is_only_an_event(cli: Any, project: Path, payload: Payload) -> None:
    tool_input = {"file_path": str(project / "src/app.py")}
    cli(
        "hook",
        "post-tool-use",
        stdin=payload("post-tool-use-read", tool_input=tool_input),
        cwd=project,
    )
    assert not (project / "knowledge/.usage.jsonl").exists()
    assert events(project)[0]["path"] == "src/app.py"


def test_bash_and_mcp_enrichment(cli: Any, project: Path, payload: Payload) -> None:
    cli("hook", "post-tool-use", stdin=payload("post-tool-use-bash"), cwd=project)
    cli("hook", "post-tool-use", stdin=payload("post-tool-use-mcp"), cwd=project)
    task = {"subagent_type": "incident-debugger", "prompt": "x", "description": "d"}
    cli(
        "hook",
        "post-tool-use",
        stdin=payload("post-tool-use-bash", tool_name="Task", tool_input=task),
        cwd=project,
    )
    bash, mcp, agent = events(project)
    assert (bash["tool_type"], bash["bash_cli"], bash["failed"]) == ("bash", "git", False)
    assert (mcp["tool_type"], mcp["mcp_server"], mcp["tool_name"]) == (
        "mcp",
        "maguyva",
        "mcp__maguyva__find_symbol",
    )
    assert (agent["tool_type"], agent["subagent_type"]) == ("agent", "incident-debugger")


def test_bash_cli_word() -> None:
    assert bash_cli("FOO=1 sudo /usr/bin/pytest -q") == "pytest"
    assert bash_cli("  ") is None


def test_session_start_emits_bounded_index(cli: Any, project: Path, payload: Payload) -> None:
    write(project, "knowledge/INDEX.md", "# Knowledge index\n" + "x" * 20000)
    r = cli("hook", "session-start", stdin=payload("session-start"), cwd=project)
    out = json.loads(r.stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == "SessionStart"
    assert "# Knowledge index" in out["additionalContext"]
    assert len(out["additionalContext"]) < 10000


def test_session_start_without_index_is_silent(cli: Any, project: Path, payload: Payload) -> None:
    r = cli("hook", "session-start", stdin=payload("session-start"), cwd=project)
    assert (r.exit_code, r.stdout) == (0, "")
    assert events(project)[0]["event"] == "SessionStart"


def test_stop_blocks_once_when_nothing_was_saved(cli: Any, project: Path, payload: Payload) -> None:
    r = cli("hook", "stop", stdin=payload("stop"), cwd=project)
    assert r.exit_code == 0
    out = json.loads(r.stdout)
    assert out["decision"] == "block" and "durable" in out["reason"]
    # Claude Code continues, then stops again with stop_hook_active true: let it stop
    r = cli("hook", "stop", stdin=payload("stop", stop_hook_active=True), cwd=project)
    assert (r.exit_code, r.stdout) == (0, "")
    # even if it sent stop_hook_active false again, we blocked this session already
    r = cli("hook", "stop", stdin=payload("stop"), cwd=project)
    assert r.stdout == ""
    assert [e.get("blocked") for e in events(project)] == [True, False, False]


def test_stop_lets_a_session_that_wrote_notes_stop(
    cli: Any, project: Path, payload: Payload
) -> None:
    note(project, "case")
    write_input = {"file_path": str(project / "knowledge/glossary/case.md"), "content": "x"}
    cli(
        "hook",
        "post-tool-use",
        stdin=payload("post-tool-use-read", tool_name="Write", tool_input=write_input),
        cwd=project,
    )
    assert events(project)[0]["knowledge_write"] is True
    r = cli("hook", "stop", stdin=payload("stop"), cwd=project)
    assert (r.exit_code, r.stdout) == (0, "")


def test_stop_reports_invalid_notes_without_blocking(
    cli: Any, project: Path, payload: Payload
) -> None:
    write(project, "knowledge/gotchas/bad.md", "---\ntype: recipe\ntitle: x\n---\n")
    r = cli("hook", "stop", stdin=payload("stop", stop_hook_active=True), cwd=project)
    assert r.exit_code == 0
    message = json.loads(r.stdout)["systemMessage"]
    assert "knowledge/gotchas/bad.md:2" in message and "decision" not in r.stdout


def _git(cwd: Path, *args: str) -> str:
    env = {
        "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "T",
        "GIT_COMMITTER_EMAIL": "t@e", "HOME": str(cwd), "PATH": "/usr/bin:/bin",
    }  # fmt: skip
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True
    ).stdout


def test_stop_commits_only_the_knowledge_folder(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(project))
    write(
        project,
        "registries/orkestra.yaml",
        "project: demo\nknowledge:\n  path: knowledge\n  commit: true\n",
    )
    _git(project, "init", "-q", "-b", "main")
    _git(project, "config", "user.name", "T")
    _git(project, "config", "user.email", "t@e")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "init")
    note(project, "case")
    write(project, "src/wip.py", "x = 1\n")
    _git(project, "add", "src/wip.py")
    r = cli("hook", "stop", stdin=payload("stop", stop_hook_active=True), cwd=project)
    assert "committed" in json.loads(r.stdout)["systemMessage"]
    files = _git(project, "show", "--name-only", "--format=%s", "HEAD").split()
    assert "knowledge/glossary/case.md" in files and "src/wip.py" not in files
    assert "A  src/wip.py" in _git(project, "status", "--porcelain")


@pytest.mark.parametrize(
    "stdin", ["", "garbage", "[1, 2]", '{"hook_event_name": 5, "tool_input": "x", "cwd": 3}']
)
@pytest.mark.parametrize("handler", ["session-start", "post-tool-use", "stop"])
def test_bad_stdin_never_blocks(cli: Any, project: Path, stdin: str, handler: str) -> None:
    r = cli("hook", handler, stdin=stdin, cwd=project)
    assert r.exit_code == 0
    assert "block" not in r.stdout


def test_bad_stdin_is_logged(cli: Any, project: Path) -> None:
    cli("hook", "stop", stdin="not json", cwd=project)
    assert "not a JSON object" in (project / ".orkestra/logs/hooks.log").read_text()


def test_deeply_nested_stdin_is_logged_not_raised(cli: Any, project: Path) -> None:
    r = cli(
        "hook", "post-tool-use", stdin='{"a": ' + "[" * 10_000 + "]" * 10_000 + "}", cwd=project
    )
    assert r.exit_code == 0
    assert "not a JSON object" in (project / ".orkestra/logs/hooks.log").read_text()


def test_unknown_handler_exits_zero(cli: Any, project: Path) -> None:
    r = cli("hook", "pre-compact", stdin="{}", cwd=project)
    assert r.exit_code == 0 and "usage" in r.stderr


def test_minimal_config_reader(tmp_path: Path) -> None:
    write(
        tmp_path,
        "registries/orkestra.yaml",
        "project: x  # c\nknowledge:\n  path: docs/kb/ # here\n  commit: yes\n"
        "  repos:\n    core: git@x:y.git\ntruths: {}\n",
    )
    assert context.read_knowledge_config(str(tmp_path)) == {
        "path": "docs/kb",
        "repos": {"core": "git@x:y.git"},
        "verified_max_age_days": 90,
        "commit": True,
        "push": False,
    }
    write(tmp_path, "registries/orkestra.yaml", "knowledge: {path: kb, push: true}\n")
    assert context.read_knowledge_config(str(tmp_path))["path"] == "kb"


def test_a_config_the_light_reader_cannot_answer_turns_knowledge_hooks_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ORKESTRA_ROOT", raising=False)
    write(tmp_path, "registries/orkestra.yaml", "knowledge:\n  path: ../escape\n")
    write(tmp_path, "knowledge/INDEX.md", "# index\n")
    ctx = context.Context({"cwd": str(tmp_path), "session_id": "s"})
    assert (ctx.managed, ctx.knowledge_known) == (False, False)
    assert handlers.session_start(ctx) == (0, "")
    log = (tmp_path / context.LOG).read_text()
    assert "registries/orkestra.yaml:2: knowledge.path" in log and "knowledge hooks off" in log


def test_real_executable_on_read_payload(project: Path, payload: Payload) -> None:
    note(project, "case")
    done = subprocess.run(
        ["orkestra", "hook", "post-tool-use"],
        input=payload("post-tool-use-read"),
        capture_output=True,
        text=True,
        cwd=project,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert (project / "knowledge/.usage.jsonl").read_text().count("\n") == 1


def test_hook_path_imports_no_heavy_modules(project: Path, payload: Payload) -> None:
    done = subprocess.run(
        ["python", "-X", "importtime", "-m", "orkestra", "hook", "post-tool-use"],
        input=payload("post-tool-use-read"), capture_output=True, text=True, cwd=project, check=False,
    )  # fmt: skip
    modules = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    for heavy in (
        "yaml",
        "pydantic",
        "typer",
        "click",
        "rich",
        "subprocess",
        "orkestra.core.yamlio",
    ):
        assert heavy not in modules


def test_session_start_fast_forwards_its_own_knowledge_repo(
    cli: Any, project: Path, payload: Payload, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    upstream, other = tmp_path / "upstream.git", tmp_path / "other"
    _git(tmp_path, "init", "-q", "--bare", "-b", "main", str(upstream))
    _git(tmp_path, "clone", "-q", str(upstream), str(other))
    write(other, "INDEX.md", "# Knowledge index\nv1\n")
    _git(other, "add", "-A")
    _git(other, "commit", "-q", "-m", "v1")
    _git(other, "push", "-q", "origin", "HEAD:main")
    _git(project, "clone", "-q", str(upstream), "knowledge")
    write(other, "INDEX.md", "# Knowledge index\nv2\n")
    _git(other, "commit", "-q", "-am", "v2")
    _git(other, "push", "-q", "origin", "HEAD:main")
    r = cli("hook", "session-start", stdin=payload("session-start"), cwd=project)
    assert "v2" in json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]


def test_a_failure_while_reading_the_project_is_logged_in_it(
    cli: Any, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An error before the event's context exists still leaves a line in the project's log."""
    from orkestra.hooks import context

    def broken(payload: Any) -> None:
        raise RuntimeError("config reader broke")

    monkeypatch.setattr(context, "Context", broken)
    payload = json.dumps({"cwd": str(project), "hook_event_name": "Stop"})
    r = cli("hook", "stop", stdin=payload, cwd=project)
    assert r.exit_code == 0
    assert "RuntimeError: config reader broke" in (project / ".orkestra/logs/hooks.log").read_text()


def test_the_hook_path_imports_neither_typing_nor_dataclasses(project: Path) -> None:
    """§10: a hook costs at most 3x `python -c pass`; `typing`, `dataclasses` (which loads
    `inspect`, `ast`, `dis`, `tokenize`) and pydantic would cost a large share of that."""
    import sys

    note = project / "knowledge" / "glossary" / "case.md"
    note.parent.mkdir(parents=True)
    note.write_text('---\ntype: glossary\ntitle: "Case"\n---\n\n# Case\n', encoding="utf-8")
    payload = {"cwd": str(project), "hook_event_name": "PostToolUse", "tool_name": "Read",
               "tool_input": {"file_path": str(note)}}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "orkestra", "hook", "post-tool-use"],
        input=json.dumps(payload), text=True, cwd=project, capture_output=True, check=True,
    )  # fmt: skip
    loaded = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert (project / "knowledge" / ".usage.jsonl").is_file()  # the hook did its work
    assert not loaded & {"typing", "dataclasses", "inspect", "pydantic", "yaml"}


@pytest.mark.parametrize(("pinned", "expected"), [("2026-11-30", "2026-11-30T"), ("bad", None)])
def test_event_times_follow_only_a_real_pinned_date(
    monkeypatch: pytest.MonkeyPatch, pinned: str, expected: str | None
) -> None:
    from orkestra.hooks.context import now

    monkeypatch.setenv("ORKESTRA_TODAY", pinned)
    stamp = now()
    if expected is not None:
        assert stamp.startswith(expected)
    else:
        assert not stamp.startswith(pinned) and stamp[4] == "-" and stamp.endswith("Z")


def test_stop_regenerates_an_index_the_session_left_stale(
    cli: Any, project: Path, payload: Payload
) -> None:
    """A note the agent wrote with its Write tool (or deleted) left INDEX.md counting the old
    notes, and the next session-start injected that stale map (§8.2)."""
    assert cli("notes", "new", "gotcha", "Clock skew", cwd=project).exit_code == 0
    index = project / "knowledge/INDEX.md"
    assert "1 notes and 0 claims" in index.read_text()
    note(project, "service-objects", kind="convention")  # written by the agent's Write tool
    r = cli("hook", "stop", stdin=payload("stop", stop_hook_active=True), cwd=project)
    assert (r.exit_code, r.stdout) == (0, "")
    assert "2 notes and 0 claims" in index.read_text()
    assert "| convention | `knowledge/conventions/` | 1 | 0 |" in index.read_text()
    r = cli("hook", "session-start", stdin=payload("session-start"), cwd=project)
    assert "2 notes and 0 claims" in json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]
    (project / "knowledge/gotchas/clock-skew.md").unlink()
    cli("hook", "stop", stdin=payload("stop", stop_hook_active=True), cwd=project)
    assert "1 notes and 0 claims" in index.read_text()
    before = index.stat().st_mtime_ns
    cli("hook", "stop", stdin=payload("stop", stop_hook_active=True), cwd=project)
    assert index.stat().st_mtime_ns == before  # nothing changed: not written again


def test_stop_leaves_a_hand_written_index_alone(cli: Any, project: Path, payload: Payload) -> None:
    index = write(project, "knowledge/INDEX.md", "# Our notes\n\nKept by hand.\n")
    note(project, "case")
    r = cli("hook", "stop", stdin=payload("stop", stop_hook_active=True), cwd=project)
    assert r.exit_code == 0 and "decision" not in r.stdout
    assert index.read_text() == "# Our notes\n\nKept by hand.\n"


def test_stop_runs_the_index_once_for_an_edit_that_leaves_it_unchanged(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A note's body edited (its counts, and so INDEX.md, unchanged): `notes index` writes
    nothing, and the index must still count as fresh afterwards, or every later stop spawns it
    again (a hook must start fast, §10)."""
    assert cli("notes", "new", "gotcha", "Clock skew", cwd=project).exit_code == 0
    index = project / "knowledge/INDEX.md"
    before = index.read_bytes()
    with (project / "knowledge/gotchas/clock-skew.md").open("a", encoding="utf-8") as handle:
        handle.write("\nThe CI runners drift by up to two seconds.\n")
    assert handlers.index_stale(str(project / "knowledge"))
    r = cli("hook", "stop", stdin=payload("stop", stop_hook_active=True), cwd=project)
    assert (r.exit_code, r.stdout) == (0, "")
    assert index.read_bytes() == before
    assert not handlers.index_stale(str(project / "knowledge"))
    runs: list[list[str]] = []
    real = subprocess.run
    monkeypatch.setattr(subprocess, "run", lambda c, **k: runs.append(c) or real(c, **k))
    cli("hook", "stop", stdin=payload("stop", stop_hook_active=True), cwd=project)
    assert [c[-1] for c in runs] == ["--dry-run"]  # notes check only, not notes index


def test_a_dangling_note_link_does_not_keep_the_index_stale(
    cli: Any, project: Path, payload: Payload
) -> None:
    """A broken symlink among the notes (notes check reports it) made the staleness walk raise,
    so a note added in any folder walked after it never reached INDEX.md."""
    assert cli("notes", "new", "gotcha", "Clock skew", cwd=project).exit_code == 0
    index = project / "knowledge/INDEX.md"
    for kind in ("glossary", "conventions", "recipes", "decisions", "repos"):
        (project / "knowledge" / kind).mkdir(exist_ok=True)
        (project / "knowledge" / kind / "gone.md").symlink_to("missing.md")
    assert cli("notes", "index", cwd=project).exit_code == 0
    assert "1 notes and 0 claims" in index.read_text()
    past = time.time_ns() - 10 * 10**9  # the links and notes, then the index, made long ago
    for path in [*(project / "knowledge").glob("*/"), *(project / "knowledge").glob("*/*.md")]:
        os.utime(path, ns=(past, past), follow_symlinks=False)
    os.utime(index, ns=(past + 10**9,) * 2)
    assert not handlers.index_stale(str(project / "knowledge"))
    note(project, "service-objects", kind="convention")
    assert handlers.index_stale(str(project / "knowledge"))
    cli("hook", "stop", stdin=payload("stop", stop_hook_active=True), cwd=project)
    assert "2 notes and 0 claims" in index.read_text()


def test_the_hook_knows_the_generated_index_by_the_title_notes_index_writes() -> None:
    """The hook path may not import the knowledge package, so it keeps INDEX.md's first line as
    a constant of its own: the two stay equal (a changed title would have every stop take the
    generated index for a hand-written one, never regenerated)."""
    from orkestra.knowledge import index

    assert index.TITLE.encode() == handlers.INDEX_TITLE


def test_stop_regenerates_the_index_after_a_note_folder_is_deleted_or_renamed(
    cli: Any, project: Path, payload: Payload
) -> None:
    """A whole type folder deleted (`rm -r knowledge/gotchas`) or renamed changes only the
    knowledge folder itself, which the staleness walk skipped: INDEX.md kept counting the notes
    that were gone, and the next session-start injected that stale map (§8.2)."""
    assert cli("notes", "new", "gotcha", "Clock skew", cwd=project).exit_code == 0
    assert cli("notes", "new", "recipe", "Release flow", cwd=project).exit_code == 0
    kdir = project / "knowledge"
    index = kdir / "INDEX.md"
    assert "2 notes and 0 claims" in index.read_text()
    stop = payload("stop", stop_hook_active=True)
    # past the file clock's tick (a few ms: the kernel's coarse clock dates files): a folder
    # deleted in the very tick INDEX.md was written in reads as no later than it
    time.sleep(0.05)
    shutil.rmtree(kdir / "gotchas")
    assert handlers.index_stale(str(kdir))
    assert cli("hook", "stop", stdin=stop, cwd=project).exit_code == 0
    assert "1 notes and 0 claims" in index.read_text()
    (kdir / "recipes").rename(kdir / "old-recipes")  # no longer a type folder: no notes
    assert cli("hook", "stop", stdin=stop, cwd=project).exit_code == 0
    assert "0 notes and 0 claims" in index.read_text()
    (kdir / "old-recipes").rename(kdir / "recipes")  # renamed back: its note counts again
    assert cli("hook", "stop", stdin=stop, cwd=project).exit_code == 0
    assert "1 notes and 0 claims" in index.read_text()
    assert not handlers.index_stale(str(kdir))  # the index just written is fresh
    before = index.stat().st_mtime_ns
    cli("hook", "stop", stdin=stop, cwd=project)
    assert index.stat().st_mtime_ns == before  # nothing changed: not written again


def test_a_project_reached_through_a_symlinked_folder_still_logs_note_reads_and_writes(
    cli: Any, project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The agent's cwd and file paths name the project through a symlink (macOS `/tmp` is
    `/private/tmp`; a checkout under a linked home): the root is resolved, the paths were not,
    so a note read never reached the usage log, and a note written never counted as one (the
    Stop hook then asked the agent to save what it had just saved)."""
    note(project, "case")
    link = tmp_path_factory.mktemp("linked") / "repo"
    link.symlink_to(project, target_is_directory=True)

    def event(name: str, **overrides: Any) -> str:
        text = (PAYLOADS / f"{name}.json").read_text().replace(EXAMPLE_ROOT, str(link))
        return json.dumps(json.loads(text) | overrides)

    r = cli("hook", "post-tool-use", stdin=event("post-tool-use-read"), cwd=link)
    assert (r.exit_code, r.stdout) == (0, "")
    (usage,) = [
        json.loads(x) for x in (project / "knowledge/.usage.jsonl").read_text().splitlines()
    ]
    assert usage["path"] == "glossary/case.md"
    written = {"file_path": "knowledge/glossary/case.md", "content": "x"}  # relative to cwd
    cli("hook", "post-tool-use", stdin=event("post-tool-use-read", tool_name="Write",
        tool_input=written), cwd=link)  # fmt: skip
    assert [e["path"] for e in events(project)] == ["knowledge/glossary/case.md"] * 2
    assert events(project)[1]["knowledge_write"] is True
    r = cli("hook", "stop", stdin=event("stop"), cwd=link)
    assert (r.exit_code, r.stdout) == (0, "")  # it saved a note: no block


@pytest.mark.parametrize(
    "command",
    [
        "rm knowledge/gotchas/clock-skew.md",
        "git rm -q knowledge/gotchas/clock-skew.md",
        "mv knowledge/gotchas/clock-skew.md knowledge/gotchas/clock-drift.md",
        "cd knowledge && git mv gotchas/clock-skew.md gotchas/clock-drift.md",
        "sed -i 's/skew/drift/' knowledge/gotchas/clock-skew.md",
        "perl -pi -e 's/skew/drift/' knowledge/gotchas/clock-skew.md",
        "echo '- seen again' | tee -a knowledge/gotchas/clock-skew.md",
        "echo '- seen again' >> knowledge/gotchas/clock-skew.md",
        "cat > knowledge/gotchas/clock-skew.md <<'EOF'\n---\ntype: gotcha\n---\nIt's the NTP drift.\nEOF",
    ],
)
def test_a_note_changed_with_a_bash_command_is_a_knowledge_write(
    cli: Any, project: Path, payload: Payload, command: str
) -> None:
    """`rm`, `git rm`, `mv`, `sed -i`, `tee` or a redirection into a note changes the knowledge
    base as the Write tool does: the stop does not ask again whether to save something, and it
    refreshes INDEX.md at once."""
    assert cli("notes", "new", "gotcha", "Clock skew", cwd=project).exit_code == 0
    index = project / "knowledge/INDEX.md"
    (project / "knowledge/gotchas/clock-skew.md").unlink()  # what the command did
    tool_input = {"command": command, "description": "edit the note"}
    stdin = payload("post-tool-use-bash", tool_input=tool_input)
    assert cli("hook", "post-tool-use", stdin=stdin, cwd=project).exit_code == 0
    (event,) = events(project)
    assert event["knowledge_write"] is True
    assert event["path"].startswith("knowledge/gotchas/clock-")
    r = cli("hook", "stop", stdin=payload("stop"), cwd=project)
    assert (r.exit_code, r.stdout) == (0, "")
    assert "0 notes and 0 claims" in index.read_text()


@pytest.mark.parametrize(
    "command",
    ["git log --oneline -5", "cat knowledge/gotchas/clock-skew.md > /tmp/x.md", "ls knowledge"],
)
def test_a_bash_command_that_only_reads_notes_is_no_knowledge_write(
    cli: Any, project: Path, payload: Payload, command: str
) -> None:
    tool_input = {"command": command, "description": "look"}
    stdin = payload("post-tool-use-bash", tool_input=tool_input)
    assert cli("hook", "post-tool-use", stdin=stdin, cwd=project).exit_code == 0
    (event,) = events(project)
    assert event["knowledge_write"] is False
    r = cli("hook", "stop", stdin=payload("stop"), cwd=project)
    assert json.loads(r.stdout)["decision"] == "block"


def test_commit_asked_for_outside_a_git_repository_is_explained_once_per_session(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`knowledge.commit: true` in a project that is no git repository: every stop said
    "committing the knowledge folder failed", never why nor what to do."""
    monkeypatch.setenv("HOME", str(project))
    write(
        project,
        "registries/orkestra.yaml",
        "project: demo\nknowledge:\n  path: knowledge\n  commit: true\n",
    )
    note(project, "case")
    r = cli("hook", "stop", stdin=payload("stop", stop_hook_active=True), cwd=project)
    message = json.loads(r.stdout)["systemMessage"]
    assert "failed" not in message
    assert "knowledge/ is not in a git repository" in message
    assert "`git init`" in message and "knowledge.commit: false" in message
    assert "registries/orkestra.yaml" in message
    for _ in range(2):  # told once: the later stops of the session say nothing more
        r = cli("hook", "stop", stdin=payload("stop", stop_hook_active=True), cwd=project)
        assert (r.exit_code, r.stdout) == (0, "")
    other = payload(
        "stop", stop_hook_active=True, session_id="7d0e5c1b-0000-4000-8000-000000000001"
    )
    r = cli("hook", "stop", stdin=other, cwd=project)
    assert "not in a git repository" in json.loads(r.stdout)["systemMessage"]


def test_session_start_never_injects_an_index_the_notes_changed_behind(
    cli: Any, project: Path, payload: Payload
) -> None:
    """A note deleted or added between sessions (by hand, a `git pull`, another branch) left
    INDEX.md counting the old notes, and session-start injected that stale map (§8.2)."""
    for title in ("Clock skew", "Retry storm"):
        assert cli("notes", "new", "gotcha", title, cwd=project).exit_code == 0
    index = project / "knowledge/INDEX.md"
    assert "2 notes and 0 claims" in index.read_text()
    (project / "knowledge/gotchas/clock-skew.md").unlink()  # outside any session
    r = cli("hook", "session-start", stdin=payload("session-start"), cwd=project)
    context = json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "1 notes and 0 claims" in context
    assert "1 notes and 0 claims" in index.read_text()
    before = index.stat().st_mtime_ns
    again = cli("hook", "session-start", stdin=payload("session-start"), cwd=project)
    assert again.stdout == r.stdout and index.stat().st_mtime_ns == before  # not rewritten


def test_a_failed_push_says_why_in_the_log(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`knowledge.push: true` with no remote: the log said only "push failed", not why."""
    monkeypatch.setenv("HOME", str(project))
    write(
        project,
        "registries/orkestra.yaml",
        "project: demo\nknowledge:\n  path: knowledge\n  commit: true\n  push: true\n",
    )
    _git(project, "init", "-q", "-b", "main")
    _git(project, "config", "user.name", "T")
    _git(project, "config", "user.email", "t@e")
    note(project, "case")
    r = cli("hook", "stop", stdin=payload("stop", stop_hook_active=True), cwd=project)
    assert "push failed" in json.loads(r.stdout)["systemMessage"]
    assert ".orkestra/logs/hooks.log" in json.loads(r.stdout)["systemMessage"]
    logged = (project / ".orkestra/logs/hooks.log").read_text()
    assert re.search(r"stop: push failed: \S", logged)  # git's own reason (no destination)
