"""`hooks install|uninstall` merge into settings.json; `events summary`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write

USER = {
    "permissions": {"allow": ["Bash(npm test)"]},
    "hooks": {
        "PostToolUse": [
            {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "prettier --write"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}],
    },
}


def settings(root: Path) -> dict[str, Any]:
    return json.loads((root / ".claude/settings.json").read_text())  # type: ignore[no-any-return]


def commands(data: dict[str, Any], event: str) -> list[str]:
    return [h["command"] for g in data["hooks"].get(event, []) for h in g["hooks"]]


def test_install_merges_and_keeps_user_entries(cli: Any, project: Path) -> None:
    write(project, ".claude/settings.json", json.dumps(USER))
    r = cli("hooks", "install", cwd=project)
    assert r.exit_code == 0 and r.json()["changed"] is True
    data = settings(project)
    assert data["permissions"] == USER["permissions"]
    run = f"{sys.executable} -m orkestra"  # CliRunner: not the `orkestra` script, so `python -m`
    assert commands(data, "PostToolUse") == ["prettier --write", f"{run} hook post-tool-use"]
    assert commands(data, "Stop") == ["say done", f"{run} hook stop"]
    assert commands(data, "SessionStart") == [f"{run} hook session-start"]
    ours = data["hooks"]["PostToolUse"][1]
    assert ours["matcher"] == "*"
    assert cli("hooks", "install", cwd=project).json()["changed"] is False
    assert settings(project) == data


def test_install_keeps_a_byte_order_mark(cli: Any, project: Path) -> None:
    """A settings.json a Windows editor saved starts with a byte-order mark: read past, it was
    written back without it."""
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude/settings.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(USER).encode())
    assert cli("hooks", "install", cwd=project).exit_code == 0
    data = (project / ".claude/settings.json").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf{") and data.count(b"\xef\xbb\xbf") == 1
    assert json.loads(data.decode("utf-8-sig"))["permissions"] == USER["permissions"]


def test_uninstall_removes_only_ours(cli: Any, project: Path) -> None:
    write(project, ".claude/settings.json", json.dumps(USER))
    cli("hooks", "install", cwd=project)
    data = settings(project)
    data["hooks"]["Stop"][0]["hooks"].append({"type": "command", "command": "orkestra hook stop"})
    write(project, ".claude/settings.json", json.dumps(data))
    r = cli("hooks", "uninstall", cwd=project)
    assert r.json()["removed"] == 4
    assert settings(project) == USER


def test_install_into_a_fresh_project(cli: Any, project: Path) -> None:
    cli("hooks", "install", cwd=project)
    assert set(settings(project)["hooks"]) == {"SessionStart", "PostToolUse", "Stop"}
    cli("hooks", "uninstall", cwd=project)
    assert settings(project) == {}


def test_malformed_settings_is_refused_untouched(cli: Any, project: Path) -> None:
    path = write(project, ".claude/settings.json", '{\n  "hooks": [,\n}')
    r = cli("hooks", "install", cwd=project)
    assert r.exit_code == 1 and ".claude/settings.json:2:" in r.stderr
    assert path.read_text() == '{\n  "hooks": [,\n}'
    write(project, ".claude/settings.json", '{"hooks": []}')
    assert cli("hooks", "install", cwd=project).exit_code == 1


def test_settings_with_an_odd_shape_is_a_clean_error(cli: Any, project: Path) -> None:
    bad = '{\n  "hooks": {\n    "Stop": {}\n  }\n}\n'
    path = write(project, ".claude/settings.json", bad)
    for command in ("install", "uninstall"):
        r = cli("hooks", command, cwd=project)
        assert r.exit_code == 1 and ".claude/settings.json:3:" in r.stderr, r.stderr
        assert '"Stop"' in r.stderr and path.read_text() == bad
    path.write_bytes(b"\xff{}")
    r = cli("hooks", "install", cwd=project)
    assert r.exit_code == 1 and ".claude/settings.json" in r.stderr
    assert path.read_bytes() == b"\xff{}"


def test_settings_that_could_not_be_written_back_whole_are_refused(cli: Any, project: Path) -> None:
    """A duplicate key lost its first value, and 1e400 came back as `Infinity`: a settings.json
    Claude Code can no longer read at all."""
    texts = {
        '{\n  "env": {"RETRIES": 1e400}\n}\n': ".claude/settings.json:2: 1e400",
        '{\n  "permissions": {"allow": ["Bash(npm test)"]},\n  "permissions": {}\n}\n': (
            '.claude/settings.json:3: the key "permissions" is given twice'
        ),
    }
    for text, where in texts.items():
        path = write(project, ".claude/settings.json", text)
        for command in ("install", "uninstall"):
            r = cli("hooks", command, cwd=project)
            assert r.exit_code == 1 and where in r.stderr, r.stderr
            assert path.read_text() == text


def _repo(root: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)


def test_git_pre_commit_hook(cli: Any, project: Path) -> None:
    _repo(project)
    r = cli("hooks", "install", "--git", cwd=project)
    assert r.json()["git_hook"] == ".git/hooks/pre-commit"
    hook = project / ".git/hooks/pre-commit"
    assert "orkestra notes check --no-sources" in hook.read_text() and hook.stat().st_mode & 0o111
    assert cli("hooks", "uninstall", cwd=project).json()["git_hook_removed"] is True
    assert not hook.exists()


def test_git_hook_never_clobbers_a_foreign_one(cli: Any, project: Path) -> None:
    _repo(project)
    hook = write(project, ".git/hooks/pre-commit", "#!/bin/sh\nmake lint\n")
    r = cli("hooks", "install", "--git", cwd=project)
    assert r.exit_code == 1 and "not ours" in r.stderr
    assert hook.read_text() == "#!/bin/sh\nmake lint\n"
    # red team 2: refused before the first write (settings.json used to be written anyway)
    assert not (project / ".claude/settings.json").exists()
    cli("hooks", "uninstall", cwd=project)
    assert hook.exists()


def test_lines_added_to_our_git_hook_survive_install_and_uninstall(cli: Any, project: Path) -> None:
    """A line the user added to the pre-commit hook Orkestra wrote was lost: install wrote the
    hook whole again, uninstall deleted the file (.git/hooks is in no commit to restore from)."""
    _repo(project)
    cli("hooks", "install", "--git", cwd=project)
    hook = project / ".git/hooks/pre-commit"
    ours = hook.read_text()
    hook.write_text("#!/bin/sh\nset -e\n" + ours.removeprefix("#!/bin/sh\n") + "make lint\n")
    hook.chmod(0o700)
    edited = hook.read_text()
    assert cli("hooks", "install", "--git", cwd=project).exit_code == 0
    assert hook.read_text() == edited and hook.stat().st_mode & 0o777 == 0o700
    r = cli("hooks", "uninstall", cwd=project)
    assert r.exit_code == 0 and r.json()["git_hook_removed"] is True
    assert hook.read_text() == "#!/bin/sh\nset -e\nmake lint\n"
    assert hook.stat().st_mode & 0o777 == 0o700

    hook.write_text(ours.replace("exit 1", "exit 0"))  # our own lines edited by hand
    r = cli("hooks", "install", "--git", cwd=project)
    assert r.exit_code == 1 and "were edited" in r.stderr
    assert cli("hooks", "uninstall", cwd=project).json()["git_hook_removed"] is False
    assert hook.read_text() == ours.replace("exit 1", "exit 0")


def test_events_summary(cli: Any, project: Path) -> None:
    rows = [
        {
            "ts": "2026-05-01T10:00:00Z",
            "event": "PostToolUse",
            "session_id": "a",
            "tool_type": "bash",
            "tool_name": "Bash",
            "bash_cli": "git",
            "failed": False,
        },
        {
            "ts": "2026-05-20T10:00:00Z",
            "event": "PostToolUse",
            "session_id": "b",
            "tool_type": "mcp",
            "tool_name": "mcp__gh__x",
            "mcp_server": "gh",
            "failed": True,
        },
        {"ts": "2026-05-21T10:00:00Z", "event": "Stop", "session_id": "b"},
    ]
    text = "".join(json.dumps(r) + "\n" for r in rows) + "{torn"
    write(project, ".orkestra/events.jsonl", text)
    out = cli("events", "summary", cwd=project).json()
    assert (out["total"], out["sessions"], out["failures"], out["unreadable_lines"]) == (3, 2, 1, 1)
    assert out["by_event"] == {"PostToolUse": 2, "Stop": 1}
    assert out["by_tool_type"] == {"bash": 1, "mcp": 1}
    assert out["by_mcp_server"] == {"gh": 1} and out["by_bash_cli"] == {"git": 1}
    assert out["failures_by_tool"] == {"mcp__gh__x": 1}
    since = cli("events", "summary", "--since", "2026-05-15", cwd=project).json()
    assert since["total"] == 2
    r = cli("events", "summary", "--since", "last week", cwd=project)
    assert r.exit_code == 2 and "--since" in r.stderr


def test_events_summary_relative_days(cli: Any, project: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-05-22")
    write(
        project,
        ".orkestra/events.jsonl",
        '{"ts": "2026-05-01T00:00:00Z", "event": "Stop"}\n{"ts": "2026-05-21T00:00:00Z", "event": "Stop"}\n',
    )
    assert cli("events", "summary", "--since", "7d", cwd=project).json()["total"] == 1
    assert cli("events", "summary", cwd=project).json()["total"] == 2


@pytest.mark.parametrize("since", ["99999999999d", "9999999999999999999999h", "800000d"])
def test_a_window_older_than_the_calendar_counts_every_event(
    cli: Any, project: Path, since: str
) -> None:
    write(project, ".orkestra/events.jsonl", '{"ts": "2026-05-01T00:00:00Z", "event": "Stop"}\n')
    out = cli("events", "summary", "--since", since, cwd=project)
    assert out.exit_code == 0, out.stderr
    assert (out.json()["since"], out.json()["total"]) == (None, 1)


@pytest.mark.parametrize("since", ["2026-13-45", "2026-02-30", "0000-01-01"])
def test_a_since_that_is_no_date_is_a_usage_error(cli: Any, project: Path, since: str) -> None:
    out = cli("events", "summary", "--since", since, cwd=project)
    assert (out.exit_code, out.stdout) == (2, "")
    assert f"--since {since} is not a date (YYYY-MM-DD)" in out.stderr


def test_a_symlinked_claude_folder_leaving_the_project_is_refused(
    cli: Any, project: Path, tmp_path_factory: Any
) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (outside / "settings.json").write_text('{"hooks": {}}')
    shutil.rmtree(project / ".claude", ignore_errors=True)
    (project / ".claude").symlink_to(outside, target_is_directory=True)
    before = sorted((p.name, p.read_bytes()) for p in outside.iterdir() if p.is_file())
    for command in ("install", "uninstall"):
        r = cli("hooks", command, cwd=project)
        assert r.exit_code == 1 and "'.claude': it is a symlink" in r.stderr, r.stderr
    assert sorted((p.name, p.read_bytes()) for p in outside.iterdir() if p.is_file()) == before


def test_a_symlinked_settings_file_is_refused_and_its_target_untouched(
    cli: Any, project: Path, tmp_path_factory: Any
) -> None:
    shared = tmp_path_factory.mktemp("shared") / "settings.json"
    shared.write_text(json.dumps(USER))
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude/settings.json").symlink_to(shared)
    r = cli("hooks", "install", cwd=project)
    assert r.exit_code == 1 and ".claude/settings.json" in r.stderr and "symlink" in r.stderr
    assert json.loads(shared.read_text()) == USER


def test_the_git_hook_is_executable_whatever_the_umask(cli: Any, project: Path) -> None:
    import os

    _repo(project)
    old = os.umask(0o077)
    try:
        assert cli("hooks", "install", "--git", cwd=project).exit_code == 0
    finally:
        os.umask(old)
    assert (project / ".git/hooks/pre-commit").stat().st_mode & 0o777 == 0o755


def test_install_and_uninstall_keep_the_settings_layout(cli: Any, project: Path) -> None:
    mine = '{\r\n    "permissions": {\r\n        "allow": ["Bash(npm test)"]\r\n    }\r\n}\r\n'
    path = write(project, ".claude/settings.json", mine)
    assert cli("hooks", "install", cwd=project).exit_code == 0
    text = path.read_bytes().decode("utf-8")
    assert text.count("\n") == text.count("\r\n") and '\r\n    "hooks": {\r\n        "' in text
    assert cli("hooks", "uninstall", cwd=project).exit_code == 0
    assert path.read_bytes().decode("utf-8") == mine  # the user's compact array, unchanged


#: a settings.json as people write it: a compact array, an escaped and an unescaped accent,
#: four spaces, a hook of their own, a member after "hooks"
HAND_WRITTEN = (
    '{\n    "permissions": {\n        "allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"],\n'
    '        "deny": []\n    },\n    "env": {"GREETING": "h\\u00e9llo", "NAME": "Jos\u00e9"},\n'
    '    "hooks": {\n        "PreToolUse": [\n            {"matcher": "Bash", "hooks": [{"type": '
    '"command", "command": "./scripts/guard.sh"}]}\n        ]\n    },\n    "model": "opus"\n}\n'
)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_install_rewrites_only_the_hooks_it_adds(cli: Any, project: Path, newline: str) -> None:
    """Install used to write the whole settings.json again: every compact array spread over
    lines, every `\\u00e9` turned into `é`, the user's own hook reflowed. Now every member it
    does not change keeps its bytes; uninstall gives the file back byte for byte."""
    mine = HAND_WRITTEN.replace("\n", newline)
    path = project / ".claude/settings.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(mine.encode("utf-8"))
    assert cli("hooks", "install", cwd=project).exit_code == 0
    text = path.read_bytes().decode("utf-8")
    for kept in ('"allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"],', '"h\\u00e9llo"',
                 '{"matcher": "Bash", "hooks": [{"type": "command", "command": "./scripts/guard.sh"}]}',
                 f'    }},{newline}    "model": "opus"{newline}}}{newline}'):  # fmt: skip
        assert kept in text
    assert text.count("\n") == text.count(newline)
    assert f'{newline}        "SessionStart": [{newline}            {{' in text  # its layout
    data = settings(project)
    assert commands(data, "PreToolUse") == ["./scripts/guard.sh"]
    assert commands(data, "Stop")[0].endswith("hook stop")
    assert cli("hooks", "install", cwd=project).json()["changed"] is False
    assert path.read_bytes().decode("utf-8") == text
    assert cli("hooks", "uninstall", cwd=project).exit_code == 0
    assert path.read_bytes() == mine.encode("utf-8")


def test_git_outside_a_repository_says_what_to_do_and_writes_nothing(
    cli: Any, tmp_path: Path
) -> None:
    root = tmp_path / "not-a-repo"
    assert cli("init", str(root)).exit_code == 0
    r = cli("hooks", "install", "--git", cwd=root)
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.startswith(f"orkestra: {root}: --git needs a git repository")
    assert "git init" in r.stderr and "without --git" in r.stderr
    assert "nothing was written" in r.stderr
    assert not (root / ".claude").exists()


#: the user's own compact hook, after the hooks an earlier install (another venv) wrote
REINSTALLED = (
    '{\n    "hooks": {\n        "SessionStart": [\n            {\n                "hooks": [\n'
    '                    {\n                        "type": "command",\n'
    '                        "command": "/old/venv/bin/orkestra hook session-start",\n'
    '                        "timeout": 120\n                    }\n                ]\n'
    "            }\n        ],\n"
    '        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "g.sh"}]}],\n'
    '        "Stop": [{"hooks": [{"type": "command", "command": "/old/venv/bin/orkestra hook stop"}]}]'
    "\n    }\n}\n"
)


def test_reinstalling_from_another_venv_keeps_the_users_hooks_in_place(
    cli: Any, project: Path
) -> None:
    """Install took every event of ours out and appended it again at the end of "hooks": the
    events changed order, so the whole "hooks" object was written afresh and the user's own
    compact hook was spread over eleven lines."""
    path = project / ".claude/settings.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(REINSTALLED.encode("utf-8"))
    assert cli("hooks", "install", cwd=project).exit_code == 0
    text = path.read_text(encoding="utf-8")
    assert (
        '"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "g.sh"}]}]'
        in text
    )
    data = settings(project)
    assert list(data["hooks"]) == ["SessionStart", "PreToolUse", "Stop", "PostToolUse"]
    assert commands(data, "Stop")[0].endswith("hook stop") and "/old/" not in text


def test_an_empty_event_list_of_the_user_keeps_its_place_and_their_hooks_their_bytes(
    cli: Any, project: Path
) -> None:
    from orkestra.hooks.install import install, uninstall

    mine = (
        '{\n  "hooks": {\n    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", '
        '"command": "g.sh"}]}],\n    "Stop": [],\n    "Notification": []\n  },\n'
        '  "model": "opus"\n}\n'
    )
    kept = '"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "g.sh"}]}]'
    path = project / ".claude/settings.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(mine.encode("utf-8"))
    install(project)
    assert kept in path.read_text(encoding="utf-8")
    events = ["PreToolUse", "Stop", "Notification", "SessionStart", "PostToolUse"]
    assert list(settings(project)["hooks"]) == events
    assert uninstall(project)["removed"] == 3
    assert kept in path.read_text(encoding="utf-8")
    pre = json.loads(mine)["hooks"]["PreToolUse"]
    assert settings(project) == {"hooks": {"PreToolUse": pre, "Notification": []}, "model": "opus"}
    path.write_bytes(mine.encode("utf-8"))  # nothing of ours: an empty list of the user's stays
    assert cli("hooks", "uninstall", cwd=project).json()["removed"] == 0
    assert path.read_bytes() == mine.encode("utf-8")


def test_install_marks_the_usage_log_of_the_configured_knowledge_folder(
    cli: Any, project: Path
) -> None:
    """The hooks write the usage log: its union-merge line follows `knowledge.path` (it was
    written by `init` alone, for knowledge/, whatever orkestra.yaml said), the user's lines
    kept, added once."""
    write(project, "registries/orkestra.yaml", "project: demo\nknowledge:\n  path: docs/kb\n")
    write(project, ".gitattributes", "*.png binary\nknowledge/.usage.jsonl merge=union\n")
    r = cli("hooks", "install", cwd=project)
    assert r.exit_code == 0
    assert r.json()["gitattributes"] == {"file": ".gitattributes", "changed": True}
    text = (project / ".gitattributes").read_text()
    assert text == (
        "*.png binary\nknowledge/.usage.jsonl merge=union\n"
        "# orkestra\ndocs/kb/.usage.jsonl merge=union\n"
    )
    r = cli("hooks", "install", "--client", "codex", cwd=project)
    assert r.json()["gitattributes"] == {"file": ".gitattributes", "changed": False}
    assert (project / ".gitattributes").read_text() == text


def test_a_gitattributes_orkestra_may_not_rewrite_never_stops_the_install(
    cli: Any, project: Path, tmp_path: Path
) -> None:
    """A symlinked `.gitattributes` (never written through) left the hooks uninstallable: the
    install refused, and adding the line by hand could not help. The hooks are installed and a
    warning names the line to add."""
    outside = tmp_path / "shared-attributes"
    outside.write_text("*.png binary\n")
    (project / ".gitattributes").symlink_to(outside)
    r = cli("hooks", "install", cwd=project)
    assert r.exit_code == 0 and r.json()["changed"] is True
    assert r.json()["gitattributes"]["changed"] is False
    assert "knowledge/.usage.jsonl merge=union" in r.stderr and ".gitattributes" in r.stderr
    assert outside.read_text() == "*.png binary\n"
    assert (project / ".claude/settings.json").exists()


@pytest.mark.parametrize("spelt", ["./docs/kb", "docs//kb/", "docs/./kb"])
def test_the_usage_log_line_is_spelt_as_git_matches_it(cli: Any, project: Path, spelt: str) -> None:
    """`knowledge.path: ./docs/kb` is the folder docs/kb, but the line written was
    `./docs/kb/.usage.jsonl merge=union`, a pattern git matches to no file: the usage log was
    never union-merged."""
    from orkestra.core.gitfiles import usage_attribute

    assert usage_attribute(spelt) == "docs/kb/.usage.jsonl merge=union"
    write(project, "registries/orkestra.yaml", f"project: demo\nknowledge:\n  path: {spelt}\n")
    assert cli("hooks", "install", cwd=project).exit_code == 0
    lines = (project / ".gitattributes").read_text(encoding="utf-8").splitlines()
    assert "docs/kb/.usage.jsonl merge=union" in lines
    assert not any(line.startswith(("./", "docs//", "docs/./")) for line in lines)
