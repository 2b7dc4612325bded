"""Hooks for Codex, Copilot and Cursor: merged into each client's file, ours recognised and
removed again, a user's entries kept, and events naming the client (`agent_tool`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from orkestra.hooks import clients
from orkestra.hooks.install import install, uninstall
from orkestra.scaffold import init_project


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    init_project(root)
    return root


def test_install_writes_each_clients_file_in_its_shape(project: Path) -> None:
    out = install(project, clients=("codex", "copilot", "cursor"))
    assert set(out["clients"]) == {"codex", "copilot", "cursor"}
    codex = json.loads((project / ".codex/hooks.json").read_text())
    assert set(codex["hooks"]) == {"SessionStart", "PostToolUse", "Stop"}
    (command,) = [h["command"] for h in codex["hooks"]["Stop"][0]["hooks"]]
    assert command.startswith("env ORKESTRA_AGENT_TOOL=codex-cli ") and command.endswith(
        "hook stop"
    )
    copilot = json.loads((project / ".github/hooks/orkestra.json").read_text())
    assert copilot["version"] == 1 and set(copilot["hooks"]) == {
        "sessionStart",
        "postToolUse",
        "agentStop",
    }
    assert copilot["hooks"]["postToolUse"][0]["bash"].endswith("hook post-tool-use")
    cursor = json.loads((project / ".cursor/hooks.json").read_text())
    assert cursor["version"] == 1 and set(cursor["hooks"]) == {
        "sessionStart",
        "postToolUse",
        "stop",
    }
    again = install(project, clients=("codex", "copilot", "cursor"))
    assert not any(c["changed"] for c in again["clients"].values())


def test_a_users_entries_are_kept_and_uninstall_removes_only_ours(project: Path) -> None:
    mine = {"version": 1, "hooks": {"stop": [{"command": "./my-audit.sh"}]}, "extra": True}
    (project / ".cursor").mkdir()
    (project / ".cursor/hooks.json").write_text(json.dumps(mine))
    install(project, clients=("cursor", "copilot"))
    data = json.loads((project / ".cursor/hooks.json").read_text())
    assert data["hooks"]["stop"][0] == {"command": "./my-audit.sh"} and data["extra"] is True
    assert len(data["hooks"]["stop"]) == 2
    out = uninstall(project)
    assert out["clients_removed"] == {"copilot": 3, "cursor": 3}
    assert json.loads((project / ".cursor/hooks.json").read_text()) == mine
    assert not (project / ".github/hooks/orkestra.json").exists()  # our own file, emptied


def test_without_clients_nothing_but_claude_is_written(project: Path) -> None:
    out = install(project)
    assert "clients" not in out and not (project / ".codex/hooks.json").exists()


def test_a_broken_client_file_is_refused_naming_it(project: Path) -> None:
    from orkestra.core.errors import InputError

    (project / ".codex").mkdir()
    (project / ".codex/hooks.json").write_text('{"hooks": {"Stop": {}}}')
    with pytest.raises(InputError) as err:
        install(project, clients=("cursor", "codex"))
    assert err.value.file == ".codex/hooks.json"
    assert (project / ".codex/hooks.json").read_text() == '{"hooks": {"Stop": {}}}'
    # red team 2: every file is checked before the first write, so nothing else was written
    assert not (project / ".claude/settings.json").exists()
    assert not (project / ".cursor/hooks.json").exists()


def test_a_client_file_not_in_utf8_is_refused_never_rewritten_with_replacements(
    project: Path,
) -> None:
    from orkestra.core.errors import InputError

    (project / ".cursor").mkdir()
    latin1 = b'{"note": "caf\xe9"}'
    (project / ".cursor/hooks.json").write_bytes(latin1)
    with pytest.raises(InputError, match="not valid UTF-8") as err:
        install(project, clients=("cursor",))
    assert (err.value.file, err.value.line) == (".cursor/hooks.json", 1)
    assert (project / ".cursor/hooks.json").read_bytes() == latin1


@pytest.mark.parametrize("rel", [".claude/settings.json", ".cursor/hooks.json"])
def test_a_byte_order_mark_is_read_past_and_kept(project: Path, rel: str) -> None:
    (project / rel).parent.mkdir(parents=True)
    (project / rel).write_bytes(b'\xef\xbb\xbf{"keep": 1}')
    install(project, clients=("cursor",))
    raw = (project / rel).read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf{") and raw.count(b"\xef\xbb\xbf") == 1
    data = json.loads(raw.decode("utf-8-sig"))
    assert data["keep"] == 1 and data["hooks"]


@pytest.mark.parametrize("tool", ["codex-cli", "copilot-cli", "cursor"])
def test_events_name_the_client(project: Path, tool: str) -> None:
    payload = {"session_id": "s1", "hook_event_name": "PostToolUse", "cwd": str(project),
               "tool_name": "Read", "tool_input": {"file_path": str(project / "README.md")}}  # fmt: skip
    env = {**os.environ, "ORKESTRA_AGENT_TOOL": tool}
    done = subprocess.run(
        [sys.executable, "-m", "orkestra", "hook", "post-tool-use"],
        input=json.dumps(payload), text=True, capture_output=True, env=env, cwd=project,
        check=False, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (line,) = (project / ".orkestra/events.jsonl").read_text().splitlines()
    assert json.loads(line)["agent_tool"] == tool


def test_every_client_hook_command_is_recognised_as_ours() -> None:
    for spec in clients.CLIENTS.values():
        for handler in spec.events.values():
            item = clients.entry(spec, "'/a b/orkestra'", handler)
            assert clients._ours(item), (spec.path, item)


def test_the_command_installs_for_the_configured_clients(cli: Any, project: Path) -> None:
    config = project / "registries/orkestra.yaml"
    config.write_text(config.read_text().replace("  - claude\n", "  - claude\n  - codex\n"))
    out = cli("hooks", "install", cwd=project).json()
    assert set(out["clients"]) == {"codex"} and (project / ".codex/hooks.json").is_file()
    out = cli("hooks", "install", "--client", "cursor", cwd=project).json()
    assert set(out["clients"]) == {"cursor"} and out["clients"]["cursor"]["changed"] is True


def test_the_installed_codex_command_runs_and_names_codex(project: Path) -> None:
    install(project, clients=("codex",))
    hooks = json.loads((project / ".codex/hooks.json").read_text())["hooks"]
    command = hooks["PostToolUse"][0]["hooks"][0]["command"]
    payload = {"session_id": "s2", "hook_event_name": "PostToolUse", "cwd": str(project),
               "tool_name": "Bash", "tool_input": {"command": "git status"}}  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "ORKESTRA_AGENT_TOOL"}
    done = subprocess.run(["sh", "-c", command], input=json.dumps(payload), text=True,
                          capture_output=True, env=env, cwd=project, check=False, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    (line,) = (project / ".orkestra/events.jsonl").read_text().splitlines()
    assert json.loads(line)["agent_tool"] == "codex-cli" and json.loads(line)["bash_cli"] == "git"


def test_a_client_file_that_is_not_utf8_is_refused_not_rewritten(project: Path) -> None:
    from orkestra.core.errors import InputError

    # it holds one of our entries, so uninstall must parse it too (one holding none is left unread)
    raw = (
        b'{"hooks": {"Stop": [\n  {"hooks": [{"type": "command", "command": "echo caf\xe9"}]},\n'
        b'  {"hooks": [{"type": "command", "command": "/venv/bin/orkestra hook stop"}]}]}}\n'
    )
    (project / ".codex").mkdir()
    (project / ".codex/hooks.json").write_bytes(raw)
    for act in (lambda: install(project, clients=("codex",)), lambda: uninstall(project)):
        with pytest.raises(InputError) as err:
            act()
        assert (err.value.file, err.value.line) == (".codex/hooks.json", 2)
        assert "UTF-8" in err.value.message
        assert (project / ".codex/hooks.json").read_bytes() == raw  # not a byte replaced


def _full_disk_for(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Writing the temporary file of `name` fails as on a full disk."""
    import errno

    from orkestra.core import safewrite

    real = safewrite._fill

    def fill(tmp: str, payload: bytes, mode: int, durable: bool) -> None:
        if f"/.{name}.orkestra-" in tmp:
            raise OSError(errno.ENOSPC, "No space left on device", tmp)
        real(tmp, payload, mode, durable)

    monkeypatch.setattr(safewrite, "_fill", fill)


def test_a_full_disk_halfway_through_install_or_uninstall_changes_no_file(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.core.errors import WriteFailed

    mine = {"version": 1, "hooks": {"stop": [{"command": "./my-audit.sh"}]}}
    (project / ".cursor").mkdir()
    (project / ".cursor/hooks.json").write_text(json.dumps(mine))
    with monkeypatch.context() as patch:
        _full_disk_for(patch, "hooks.json")  # .codex's and .cursor's, written after settings
        with pytest.raises(WriteFailed) as err:
            install(project, clients=("codex", "cursor"))
    assert err.value.file in (".codex/hooks.json", ".cursor/hooks.json")
    assert "No space left" in err.value.message
    assert not (project / ".claude/settings.json").exists()
    assert not (project / ".codex").exists()
    assert json.loads((project / ".cursor/hooks.json").read_text()) == mine
    assert [p.name for p in (project / ".cursor").iterdir()] == ["hooks.json"]  # no temp file

    install(project, clients=("codex", "cursor"))
    settings = (project / ".claude/settings.json").read_bytes()
    with monkeypatch.context() as patch:
        _full_disk_for(patch, "hooks.json")
        with pytest.raises(WriteFailed):
            uninstall(project)
    assert (project / ".claude/settings.json").read_bytes() == settings  # still installed
    assert len(json.loads((project / ".cursor/hooks.json").read_text())["hooks"]["stop"]) == 2
    uninstall(project)
    assert json.loads((project / ".cursor/hooks.json").read_text()) == mine


@pytest.mark.parametrize("name", ["bogus", "Cursor", "codx", ""])
def test_an_unknown_client_is_a_usage_error_and_nothing_is_written(
    cli: Any, project: Path, name: str
) -> None:
    out = cli("hooks", "install", "--client", "cursor", "--client", name, cwd=project)
    assert (out.exit_code, out.stdout) == (2, "")
    assert f"--client {name!r} is not one of claude, codex, copilot, cursor" in out.stderr
    assert not (project / ".claude").exists() and not (project / ".cursor").exists()


#: a Cursor hooks file of the user's own, with a comment and a trailing comma (not plain JSON)
USERS_CURSOR_HOOKS = """{
  "version": 1,
  "hooks": {
    // format after edits
    "afterFileEdit": [{"command": "./hooks/format.sh"}],
  }
}
"""


def test_uninstall_does_not_parse_a_client_file_that_holds_nothing_of_ours(
    project: Path, cli: Any
) -> None:
    """`hooks uninstall` failed on a client's hook file Orkestra never wrote to (not plain JSON),
    so Claude's hooks could not be removed at all."""
    install(project)
    (project / ".cursor").mkdir()
    (project / ".cursor/hooks.json").write_text(USERS_CURSOR_HOOKS)
    out = uninstall(project)
    assert out["removed"] == 3 and "cursor" not in out.get("clients_removed", {})
    assert "orkestra" not in (project / ".claude/settings.json").read_text()
    assert (project / ".cursor/hooks.json").read_text() == USERS_CURSOR_HOOKS
    install(project)
    result = cli("hooks", "uninstall", cwd=project)
    assert result.exit_code == 0, result.stderr
    assert (project / ".cursor/hooks.json").read_text() == USERS_CURSOR_HOOKS


@pytest.mark.parametrize(
    ("rel", "client"),
    [
        (".cursor/hooks.json", "cursor"),
        (".codex/hooks.json", "codex"),
        (".claude/settings.json", "claude"),
    ],
)
def test_a_jsonc_hook_file_is_refused_saying_why_and_what_to_do(
    project: Path, cli: Any, rel: str, client: str
) -> None:
    """A hook file with a comment was refused as `not valid JSON (Expecting property name…)`
    with no word of what to do (Cursor's and Codex's: nothing at all)."""
    path = project / rel
    path.parent.mkdir(exist_ok=True)
    path.write_text(USERS_CURSOR_HOOKS)
    result = cli("hooks", "install", "--client", client, cwd=project)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(f"orkestra: {rel}:4: not valid JSON")
    assert "comments or trailing commas (JSONC)" in result.stderr
    assert "remove them" in result.stderr and "nothing was written" in result.stderr
    assert path.read_text() == USERS_CURSOR_HOOKS
    assert client == "claude" or not (project / ".claude/settings.json").exists()


def test_a_broken_hook_file_says_to_fix_it(project: Path, cli: Any) -> None:
    (project / ".codex").mkdir()
    (project / ".codex/hooks.json").write_text('{"hooks": {}} trailing\n')
    result = cli("hooks", "install", "--client", "codex", cwd=project)
    assert result.exit_code == 1
    assert result.stderr.startswith("orkestra: .codex/hooks.json:1: not valid JSON (Extra data)")
    assert "fix it first" in result.stderr and "JSONC" not in result.stderr


def test_reinstalling_into_a_cursor_file_keeps_its_events_in_place_and_the_users_bytes(
    project: Path,
) -> None:
    """Install took our events out and appended them again last: "hooks" changed order, so it
    was written afresh and the user's own compact entries were spread over many lines."""
    old = "env ORKESTRA_AGENT_TOOL=cursor /old/venv/bin/orkestra hook"
    mine = (
        '{\n  "version": 1,\n  "hooks": {\n'
        f'    "sessionStart": [{{"command": "{old} session-start"}}],\n'
        '    "beforeShellExecution": [{"command": "./guard.sh"}, {"command": "./audit.sh"}],\n'
        f'    "postToolUse": [{{"command": "{old} post-tool-use"}}],\n'
        f'    "stop": [{{"command": "{old} stop"}}],\n'
        '    "afterFileEdit": []\n  }\n}\n'
    )
    path = project / ".cursor/hooks.json"
    path.parent.mkdir()
    path.write_text(mine)
    install(project, clients=("cursor",))
    text = path.read_text()
    assert '"beforeShellExecution": [{"command": "./guard.sh"}, {"command": "./audit.sh"}]' in text
    assert "/old/" not in text
    data = json.loads(text)
    assert list(data["hooks"]) == [
        "sessionStart", "beforeShellExecution", "postToolUse", "stop", "afterFileEdit"
    ]  # fmt: skip
    uninstall(project)
    assert json.loads(path.read_text()) == {
        "version": 1,
        "hooks": {
            "beforeShellExecution": [{"command": "./guard.sh"}, {"command": "./audit.sh"}],
            "afterFileEdit": [],
        },
    }
    assert '"beforeShellExecution": [{"command": "./guard.sh"}, {"command": "./audit.sh"}]' in (
        path.read_text()
    )
