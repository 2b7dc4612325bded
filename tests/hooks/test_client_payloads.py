"""The hooks read what Codex, Copilot CLI and Cursor actually send (PRODUCT.md §4, §8.4).

Payloads in payloads/codex, payloads/copilot and payloads/cursor are shaped as each client's
documentation gives them (docs/clients/hooks.md names the sources): Codex's are Claude's fields
but its tools are `Bash` and `apply_patch`; Copilot's camelCase events carry `sessionId`,
`toolName`, `toolArgs` and no event name; Cursor's carry `conversation_id`, `workspace_roots`
and a camelCase `hook_event_name`, and its stop takes `followup_message` back.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from orkestra.hooks import payloads
from tests.conftest import write
from tests.hooks.conftest import events

Payload = Callable[..., str]
NOTE = "---\ntype: glossary\n---\nA case is a support ticket.\n"


@pytest.fixture(autouse=True)
def _pinned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-06-01")
    monkeypatch.delenv("ORKESTRA_ROOT", raising=False)
    monkeypatch.delenv("ORKESTRA_AGENT_TOOL", raising=False)


def _usage(project: Path) -> list[dict[str, Any]]:
    path = project / "knowledge/.usage.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


# -- Codex: Claude's fields; a note is read with a shell command, written with apply_patch --


@pytest.mark.parametrize(
    "command",
    [
        "sed -n '1,160p' knowledge/glossary/case.md",
        "cat knowledge/glossary/case.md",
        "bash -lc 'head -n 80 knowledge/glossary/case.md'",
        "nl -ba knowledge/glossary/case.md | head -40",
        "cd knowledge && cat glossary/case.md",
        "bash -lc 'cd knowledge/glossary && sed -n 1,40p case.md'",
    ],
)
def test_codex_a_note_read_with_a_shell_command_goes_to_the_usage_log(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "codex-cli")
    write(project, "knowledge/glossary/case.md", NOTE)
    stdin = payload("codex/post-tool-use-bash-read", tool_input={"command": command})
    r = cli("hook", "post-tool-use", stdin=stdin, cwd=project)
    assert (r.exit_code, r.stdout) == (0, "")
    (usage,) = _usage(project)
    assert usage == {
        "ts": usage["ts"],
        "session_id": "019a6b2e-7c1d-7f30-9d4e-5a2b1c3d4e5f",
        "path": "glossary/case.md",
    }
    (event,) = events(project)
    assert (event["agent_tool"], event["tool_type"]) == ("codex-cli", "bash")


def test_codex_a_shell_command_that_only_writes_is_no_read(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "codex-cli")
    for command in ("rm knowledge/glossary/case.md", "echo x > knowledge/glossary/case.md"):
        stdin = payload("codex/post-tool-use-bash-read", tool_input={"command": command})
        assert cli("hook", "post-tool-use", stdin=stdin, cwd=project).exit_code == 0
    assert _usage(project) == []


def test_codex_a_note_written_with_apply_patch_means_no_stop_block(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "codex-cli")
    (project / "knowledge").mkdir()
    r = cli("hook", "post-tool-use", stdin=payload("codex/post-tool-use-apply-patch"), cwd=project)
    assert r.exit_code == 0
    (event,) = events(project)
    assert event["knowledge_write"] is True
    assert event["path"] == "knowledge/gotchas/retry-storm.md"
    r = cli("hook", "stop", stdin=payload("codex/stop"), cwd=project)
    assert r.exit_code == 0 and "block" not in r.stdout


def test_codex_a_session_that_saved_nothing_is_asked_once_at_stop(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "codex-cli")
    patch = "*** Begin Patch\n*** Update File: src/retry.py\n@@\n-a\n+b\n*** End Patch\n"
    stdin = payload("codex/post-tool-use-apply-patch", tool_input={"command": patch})
    cli("hook", "post-tool-use", stdin=stdin, cwd=project)
    assert events(project)[0]["knowledge_write"] is False
    r = cli("hook", "stop", stdin=payload("codex/stop"), cwd=project)
    assert json.loads(r.stdout)["decision"] == "block"
    again = cli("hook", "stop", stdin=payload("codex/stop", stop_hook_active=True), cwd=project)
    assert "block" not in again.stdout


# -- Copilot CLI: camelCase fields, no event name, its own tool names --


@pytest.mark.parametrize("as_text", [True, False])
def test_copilot_a_note_viewed_goes_to_the_usage_log(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch, as_text: bool
) -> None:
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "copilot-cli")
    args = {"path": str(project / "knowledge/glossary/case.md")}
    stdin = payload("copilot/post-tool-use-view", toolArgs=json.dumps(args) if as_text else args)
    r = cli("hook", "post-tool-use", stdin=stdin, cwd=project)
    assert (r.exit_code, r.stdout) == (0, "")
    (usage,) = _usage(project)
    assert (usage["session_id"], usage["path"]) == (
        "a3f9c2d1-4b5e-4f60-8a7b-9c0d1e2f3a4b",
        "glossary/case.md",
    )
    (event,) = events(project)
    assert event["event"] == "PostToolUse" and event["agent_tool"] == "copilot-cli"
    assert event["session_id"] == "a3f9c2d1-4b5e-4f60-8a7b-9c0d1e2f3a4b"
    assert event["path"] == "knowledge/glossary/case.md" and event["failed"] is False


def test_copilot_an_edit_of_a_note_is_a_knowledge_write_and_a_failure_is_seen(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "copilot-cli")
    cli("hook", "post-tool-use", stdin=payload("copilot/post-tool-use-edit"), cwd=project)
    failed = {"resultType": "failure", "textResultForLlm": "no match"}
    stdin = payload("copilot/post-tool-use-edit", toolResult=failed)
    cli("hook", "post-tool-use", stdin=stdin, cwd=project)
    first, second = events(project)
    assert first["knowledge_write"] is True and first["failed"] is False
    assert second["failed"] is True
    assert _usage(project) == []  # an edit is no read


def test_copilot_session_start_is_recorded_with_its_session(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "copilot-cli")
    r = cli("hook", "session-start", stdin=payload("copilot/session-start"), cwd=project)
    assert r.exit_code == 0
    (event,) = events(project)
    assert event["event"] == "SessionStart"
    assert event["session_id"] == "a3f9c2d1-4b5e-4f60-8a7b-9c0d1e2f3a4b"


def test_copilot_agent_stop_is_installed_and_asks_once(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Copilot CLI's agentStop takes {"decision": "block", "reason": ...} (its hooks reference)
    # and sends no stop_hook_active: the events log says whether this session was asked
    from orkestra.hooks.install import install

    install(project, clients=("copilot",))
    hooks = json.loads((project / ".github/hooks/orkestra.json").read_text())["hooks"]
    assert hooks["agentStop"][0]["bash"].endswith("hook stop")
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "copilot-cli")
    r = cli("hook", "stop", stdin=payload("copilot/agent-stop"), cwd=project)
    assert r.exit_code == 0 and json.loads(r.stdout)["decision"] == "block"
    again = cli("hook", "stop", stdin=payload("copilot/agent-stop"), cwd=project)
    assert again.exit_code == 0 and "block" not in again.stdout
    assert [e["blocked"] for e in events(project)] == [True, False]


def test_copilot_a_session_that_saved_a_note_is_not_asked(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "copilot-cli")
    cli("hook", "post-tool-use", stdin=payload("copilot/post-tool-use-edit"), cwd=project)
    r = cli("hook", "stop", stdin=payload("copilot/agent-stop"), cwd=project)
    assert r.exit_code == 0 and "block" not in r.stdout


# -- Cursor: conversation_id, workspace_roots, camelCase event names, followup_message --


def test_cursor_a_note_read_goes_to_the_usage_log(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "cursor")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()  # Cursor runs the hook from wherever: the workspace root decides
    r = cli("hook", "post-tool-use", stdin=payload("cursor/post-tool-use-read"), cwd=elsewhere)
    assert (r.exit_code, r.stdout) == (0, "")
    (usage,) = _usage(project)
    assert (usage["session_id"], usage["path"]) == (
        "c0ffee00-1111-4a2b-8c3d-4e5f6a7b8c9d",
        "glossary/case.md",
    )
    (event,) = events(project)
    assert (event["event"], event["agent_tool"]) == ("PostToolUse", "cursor")


def test_cursor_stop_asks_once_with_a_followup_message(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "cursor")
    r = cli("hook", "stop", stdin=payload("cursor/stop"), cwd=project)
    out = json.loads(r.stdout)
    assert r.exit_code == 0 and set(out) == {"followup_message"}
    assert "durable" in out["followup_message"]
    # the follow-up's own stop (loop_count 1), and an aborted loop, are never asked again
    for extra in ({"loop_count": 1}, {"status": "aborted", "loop_count": 0}):
        again = cli("hook", "stop", stdin=payload("cursor/stop", **extra), cwd=project)
        assert again.exit_code == 0 and "followup_message" not in again.stdout


def test_cursor_an_aborted_first_stop_is_not_asked(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "cursor")
    r = cli("hook", "stop", stdin=payload("cursor/stop", status="aborted"), cwd=project)
    assert r.exit_code == 0 and "followup_message" not in r.stdout


# -- the installed commands, run as the client runs them --


@pytest.mark.parametrize(
    ("client", "file", "event", "fixture"),
    [
        ("codex", ".codex/hooks.json", "PostToolUse", "codex/post-tool-use-bash-read"),
        ("copilot", ".github/hooks/orkestra.json", "postToolUse", "copilot/post-tool-use-view"),
        ("cursor", ".cursor/hooks.json", "postToolUse", "cursor/post-tool-use-read"),
    ],
)
def test_the_installed_command_records_the_read_of_a_note(
    project: Path, payload: Payload, client: str, file: str, event: str, fixture: str
) -> None:
    from orkestra.hooks.install import install

    write(project, "knowledge/glossary/case.md", NOTE)
    install(project, clients=(client,))
    entry = json.loads((project / file).read_text())["hooks"][event][0]
    command = (
        entry["hooks"][0]["command"] if "hooks" in entry else entry.get("bash") or entry["command"]
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("ORKESTRA_")}
    env["ORKESTRA_TODAY"] = "2026-06-01"
    done = subprocess.run(
        ["sh", "-c", command], input=payload(fixture).encode(), capture_output=True,
        cwd=project, env=env, check=False, timeout=60,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, b"")
    assert [u["path"] for u in _usage(project)] == ["glossary/case.md"]


# -- the parts --


@pytest.mark.parametrize(
    ("command", "read"),
    [
        ("cat a.md b.md", ["a.md", "b.md"]),
        ("sed -n '1,80p' a.md", ["a.md"]),
        ("sed -n -e '1,80p' a.md", ["a.md"]),
        ("head -50 a.md && tail -n +20 b.md", ["a.md", "b.md"]),
        ("bash -lc \"cat 'x y.md'\"", ["x y.md"]),
        ("cat a.md 2>/dev/null | grep foo", ["a.md"]),
        ("grep -n foo a.md", []),
        ("echo hi > a.md", []),
        ("cat 'unclosed", []),
        ("cd knowledge && cat glossary/case.md", ["knowledge/glossary/case.md"]),
        ("cd /home/dev/repo/knowledge; sed -n '1,80p' a.md", ["/home/dev/repo/knowledge/a.md"]),
        ("bash -lc 'cd knowledge && cat a.md b.md'", ["knowledge/a.md", "knowledge/b.md"]),
        ("(cd knowledge && cat a.md) && cat b.md", ["knowledge/a.md", "b.md"]),
        ('cd "$NOTES" && cat a.md /abs/b.md', ["/abs/b.md"]),
        ("", []),
        ("sed -i 's/a/b/' a.md", []),
        ("sed -i.bak -e 's/a/b/' a.md", []),
        ("sed -Ei 's/a/b/' a.md", []),
        ("sed -n '1,5p' a.md > b.md", ["a.md"]),
        ("cat <<'EOF' > b.md\nIt's cat a.md\nEOF\ncat c.md", ["c.md"]),
        ("cat a.md\ncd knowledge\ncat b.md", ["a.md", "knowledge/b.md"]),
        ("awk -i inplace '{print}' a.md", []),
    ],
)
def test_shell_reads(command: str, read: list[str]) -> None:
    assert payloads.shell_reads(command) == read


def test_a_payload_of_any_client_normalizes_without_error() -> None:
    for value in (None, 1, "x", [], {}, ["/a"], [1]):
        for key in ("workspace_roots", "toolArgs", "tool_output", "toolResult", "loop_count"):
            out = payloads.normalize({key: value, "sessionId": 3}, "stop", "cursor")
            assert isinstance(out["tool_input"], dict)


@pytest.mark.parametrize(
    ("command", "written"),
    [
        ("rm -f a.md b.md", ["a.md", "b.md"]),
        ("git rm -q --cached a.md", ["a.md"]),
        ("git -C knowledge mv a.md b.md", ["knowledge/a.md", "knowledge/b.md"]),
        ("mv -v a.md sub/", ["a.md", "sub/"]),
        ("cp src.md knowledge/b.md", ["knowledge/b.md"]),
        ("cp -t knowledge a.md b.md", ["knowledge"]),
        ("sed -i 's/a/b/' a.md", ["a.md"]),
        ("sed -n 's/a/b/p' a.md", []),
        ("sed --in-place=.bak -e 's/a/b/' a.md b.md", ["a.md", "b.md"]),
        ("perl -pi -e 's/a/b/' a.md", ["a.md"]),
        ("perl -i.bak -pe 's/a/b/' a.md", ["a.md"]),
        ("perl -ne 'print' a.md", []),
        ("echo x | tee -a a.md b.md", ["a.md", "b.md"]),
        ("echo x > a.md && echo y >> b.md", ["a.md", "b.md"]),
        ("cat a.md 2>/dev/null 1>&2", ["/dev/null"]),
        ("cd knowledge && touch a.md", ["knowledge/a.md"]),
        ("bash -lc 'cd knowledge && rm a.md'", ["knowledge/a.md"]),
        ("cat > a.md <<'EOF'\nIt's rm b.md\nEOF", ["a.md"]),
        ("truncate -s 0 a.md; unlink b.md", ["a.md", "b.md"]),
        ("cat a.md | grep x", []),
        ("git log -- a.md", []),
        ("cat 'unclosed > a.md", []),
        # options that take no value: the operand after them is still a path
        ("rm -r knowledge/gotchas", ["knowledge/gotchas"]),
        ("rm -d knowledge/old", ["knowledge/old"]),
        ("git rm -r --cached knowledge/gotchas", ["knowledge/gotchas"]),
        ("mv -n a.md b.md", ["a.md", "b.md"]),
        ("cp -r /tmp/x knowledge/gotchas/", ["knowledge/gotchas/"]),
        ("ln -s /tmp/x.md knowledge/x.md", ["knowledge/x.md"]),
        ("touch -d yesterday a.md", ["a.md"]),
        ("git restore -s HEAD~1 a.md", ["a.md"]),
        ("rsync -a -e ssh host:x/ knowledge/", ["knowledge/"]),
    ],
)
def test_shell_writes(command: str, written: list[str]) -> None:
    assert payloads.shell_writes(command) == written


def test_codex_a_note_changed_in_place_is_a_write_never_a_read(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`sed -i` names the note as `sed -n` does: it was logged as a read, and the session that
    edited a note was still asked at stop whether to save something."""
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "codex-cli")
    write(project, "knowledge/glossary/case.md", NOTE)
    command = "sed -i 's/support ticket/customer ticket/' knowledge/glossary/case.md"
    stdin = payload("codex/post-tool-use-bash-read", tool_input={"command": command})
    assert cli("hook", "post-tool-use", stdin=stdin, cwd=project).exit_code == 0
    assert _usage(project) == []
    (event,) = events(project)
    assert (event["knowledge_write"], event["path"]) == (True, "knowledge/glossary/case.md")
    r = cli("hook", "stop", stdin=payload("codex/stop"), cwd=project)
    assert r.exit_code == 0 and "block" not in r.stdout


def test_codex_a_note_removed_with_rm_r_is_a_knowledge_write(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`rm -r` takes no value: the note after it was skipped as the option's value, so the
    removal went unseen and the session was asked at stop whether to save something."""
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "codex-cli")
    write(project, "knowledge/glossary/case.md", NOTE)
    command = "rm -r knowledge/glossary/case.md"
    stdin = payload("codex/post-tool-use-bash-read", tool_input={"command": command})
    assert cli("hook", "post-tool-use", stdin=stdin, cwd=project).exit_code == 0
    (event,) = events(project)
    assert (event["knowledge_write"], event["path"]) == (True, "knowledge/glossary/case.md")
    r = cli("hook", "stop", stdin=payload("codex/stop"), cwd=project)
    assert r.exit_code == 0 and "block" not in r.stdout


@pytest.mark.parametrize("spelt", ["./docs/kb", "docs/./kb/", "docs//kb/"])
def test_a_knowledge_path_spelt_with_dot_slash_still_holds_the_notes(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch, spelt: str
) -> None:
    """`knowledge.path: ./docs/kb` is a folder the config accepts and the commands use, but the
    hooks compared paths with `./docs/kb/`: no note there was a read or a write."""
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "codex-cli")
    write(project, "registries/orkestra.yaml", f"project: demo\nknowledge:\n  path: {spelt}\n")
    write(project, "docs/kb/glossary/case.md", NOTE)
    command = "rm docs/kb/glossary/case.md"
    stdin = payload("codex/post-tool-use-bash-read", tool_input={"command": command})
    assert cli("hook", "post-tool-use", stdin=stdin, cwd=project).exit_code == 0
    (event,) = events(project)
    assert (event["knowledge_write"], event["path"]) == (True, "docs/kb/glossary/case.md")


@pytest.mark.parametrize(
    "command",
    [
        "sed 's/support/customer/' {n} > {n}.new && mv {n}.new {n}",
        "cat {n} > /tmp/case.bak; rm {n}",
        "cat {n} && rm -r knowledge/glossary/",
    ],
)
def test_codex_a_note_read_and_rewritten_or_removed_by_one_command_is_no_read(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """The portable in-place edit (`sed ... F > F.new && mv F.new F`) read the note it rewrote:
    the edit went to the usage log as a read, raising the note in Highlights and search."""
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "codex-cli")
    write(project, "knowledge/glossary/case.md", NOTE)
    text = command.format(n="knowledge/glossary/case.md")
    stdin = payload("codex/post-tool-use-bash-read", tool_input={"command": text})
    assert cli("hook", "post-tool-use", stdin=stdin, cwd=project).exit_code == 0
    assert _usage(project) == []
    (event,) = events(project)
    assert event["knowledge_write"] is True
    # a note read and copied elsewhere is still a read
    stdin = payload(
        "codex/post-tool-use-bash-read",
        tool_input={"command": "cat knowledge/glossary/case.md > /tmp/case.txt"},
    )
    assert cli("hook", "post-tool-use", stdin=stdin, cwd=project).exit_code == 0
    assert len(_usage(project)) == 1


def test_codex_a_shell_read_names_the_note_in_the_events_log(
    cli: Any, project: Path, payload: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORKESTRA_AGENT_TOOL", "codex-cli")
    write(project, "knowledge/glossary/case.md", NOTE)
    r = cli("hook", "post-tool-use", stdin=payload("codex/post-tool-use-bash-read"), cwd=project)
    assert r.exit_code == 0
    (event,) = events(project)
    assert (event["path"], event["knowledge_write"]) == ("knowledge/glossary/case.md", False)
