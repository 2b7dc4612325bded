"""Hooks stay home and never break the session (PRODUCT.md §8.4, §13; issue 11 cases 3, 5, 11).

- Any stdin (deeply nested, binary, huge, empty, not an object) is logged and the hook exits 0,
  never with a traceback (case 3).
- A hook acts only inside a project: a payload `cwd` that is not in one, or a run from a folder
  with no `registries/` above, creates nothing anywhere (case 5).
- The hooks' own files (events log, usage log, hooks.log) are never written through a symlink.
- `hooks install|uninstall` refuses a symlinked `.claude/settings.json` and leaves it as it is
  (case 11).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orkestra.hooks import runner
from tests.conftest import write

HOOKS = ("session-start", "post-tool-use", "stop")
DEEP = "[" * 2000 + "]" * 2000


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-06-01")
    monkeypatch.delenv("ORKESTRA_ROOT", raising=False)


def _hook(name: str, stdin: bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "ORKESTRA_ROOT"}
    return subprocess.run(
        [sys.executable, "-m", "orkestra", "hook", name],
        input=stdin, capture_output=True, cwd=cwd, env=env, check=False, timeout=60,
    )  # fmt: skip


def _run(name: str, stdin: bytes, monkeypatch: pytest.MonkeyPatch) -> int:
    """The real runner function, in-process, with `stdin` as the raw bytes of standard input."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    return runner.run([name])


def _tree(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def _log(project: Path) -> str:
    return (project / ".orkestra/logs/hooks.log").read_text()


@pytest.mark.parametrize("hook", HOOKS)
def test_deeply_nested_stdin_is_logged_never_a_traceback(project: Path, hook: str) -> None:
    done = _hook(hook, DEEP.encode(), project)
    assert (done.returncode, done.stdout) == (0, b""), done.stderr
    assert b"Traceback" not in done.stderr and b"RecursionError" not in done.stderr
    assert f"{hook}: ignored stdin that is not a JSON object" in _log(project)


@pytest.mark.parametrize("hook", HOOKS)
@pytest.mark.parametrize(
    ("stdin", "logged"),
    [
        (b"", "not a JSON object"),
        (b"\xff\xfe\x00binary\x80", "not valid UTF-8"),
        (b"[1, 2]", "not a JSON object"),
        (b'"a string"', "not a JSON object"),
        (b"null", "not a JSON object"),
        (b'{"a": ' + DEEP.encode() + b"}", "not a JSON object"),
        (b'{"session_id": ' + b"9" * 5000 + b"}", "not a JSON object"),  # too long for an int
    ],
)
def test_any_stdin_is_logged_and_exits_zero(
    project: Path, monkeypatch: pytest.MonkeyPatch, hook: str, stdin: bytes, logged: str
) -> None:
    monkeypatch.chdir(project)
    assert _run(hook, stdin, monkeypatch) == 0
    assert logged in _log(project)


def test_oversized_stdin_is_logged_not_read_whole(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    monkeypatch.setattr(runner, "MAX_STDIN", 1000)
    stdin = json.dumps({"hook_event_name": "PostToolUse", "x": "a" * 5000}).encode()
    assert _run("post-tool-use", stdin, monkeypatch) == 0
    assert "ignored stdin larger than 1000 bytes" in _log(project)
    assert not (project / ".orkestra/events.jsonl").exists()


def test_huge_stdin_through_the_real_executable(project: Path) -> None:
    done = _hook("post-tool-use", b"[" * (runner.MAX_STDIN + 10), project)
    assert (done.returncode, done.stdout) == (0, b""), done.stderr[-500:]
    assert "larger than" in _log(project)


@pytest.mark.parametrize("hook", HOOKS)
def test_a_cwd_outside_any_project_creates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hook: str
) -> None:
    project, elsewhere = tmp_path / "proj", tmp_path / "elsewhere"
    (project / "registries").mkdir(parents=True)
    elsewhere.mkdir()
    event = {"hook_event_name": "Stop", "session_id": "s1", "stop_hook_active": False}
    for cwd in (str(elsewhere / "nonexistent" / "dir"), "/nonexistent/dir"):
        existed = Path(cwd).exists()
        payload = json.dumps({**event, "cwd": cwd, "tool_name": "Read"}).encode()
        monkeypatch.chdir(project)
        assert _run(hook, payload, monkeypatch) == 0
        assert Path(cwd).exists() == existed
    assert _tree(elsewhere) == set()
    assert not (project / ".orkestra").exists()  # the event's cwd decides, not the process's


@pytest.mark.parametrize("hook", HOOKS)
def test_a_run_outside_any_project_writes_nothing(tmp_path: Path, hook: str) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    for stdin in (
        json.dumps({"hook_event_name": "Stop", "session_id": "s", "cwd": str(plain)}),
        json.dumps({"hook_event_name": "Stop", "session_id": "s"}),  # no cwd: the process's
        "not json",
        DEEP,
    ):
        done = _hook(hook, stdin.encode(), plain)
        assert (done.returncode, done.stdout) == (0, b""), done.stderr
    assert _tree(tmp_path) == {"plain"}


def test_a_stop_from_tmp_creates_no_tmp_orkestra(tmp_path: Path) -> None:
    tmp = Path(tempfile.gettempdir())
    if (tmp / "registries").exists():
        pytest.skip("the temporary folder is itself a project here")
    state = tmp / ".orkestra"
    before = (state.exists(), _tree(state) if state.is_dir() else set())
    payload = {"hook_event_name": "Stop", "session_id": "s", "cwd": str(tmp)}
    done = _hook("stop", json.dumps(payload).encode(), tmp)
    assert done.returncode == 0
    assert (state.exists(), _tree(state) if state.is_dir() else set()) == before


def _read_payload(project: Path) -> bytes:
    event = {
        "hook_event_name": "PostToolUse",
        "session_id": "s1",
        "cwd": str(project),
        "tool_name": "Read",
        "tool_input": {"file_path": str(project / "knowledge/glossary/x.md")},
    }
    return json.dumps(event).encode()


def test_a_symlinked_events_log_is_not_followed(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (project / ".orkestra").mkdir()
    (project / ".orkestra/events.jsonl").symlink_to(victim)
    write(project, "knowledge/glossary/x.md", "x\n")
    (project / "knowledge/.usage.jsonl").symlink_to(victim)
    monkeypatch.chdir(project)
    assert _run("post-tool-use", _read_payload(project), monkeypatch) == 0
    assert victim.read_text() == "precious\n"
    assert (project / ".orkestra/events.jsonl").is_symlink()
    assert "symlink" in _log(project)


def test_a_symlinked_orkestra_folder_or_log_is_not_followed(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / ".orkestra").symlink_to(elsewhere)
    monkeypatch.chdir(project)
    assert _run("post-tool-use", _read_payload(project), monkeypatch) == 0
    assert _run("stop", b"garbage", monkeypatch) == 0
    assert list(elsewhere.iterdir()) == []
    (project / ".orkestra").unlink()
    victim = tmp_path / "victim.log"
    victim.write_text("precious\n")
    (project / ".orkestra/logs").mkdir(parents=True)
    (project / ".orkestra/logs/hooks.log").symlink_to(victim)
    assert _run("stop", b"garbage", monkeypatch) == 0
    assert victim.read_text() == "precious\n"


@given(stdin=st.binary(max_size=300))
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_any_bytes_exit_zero_and_stay_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stdin: bytes
) -> None:
    _stays_home(tmp_path, monkeypatch, stdin)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=15,
)
_PAYLOADS = st.fixed_dictionaries(
    {},
    optional={
        "cwd": st.sampled_from(["", ".", "..", "/", "relative/x", "/proc/self/nonexistent"])
        | st.text(max_size=30),
        "hook_event_name": st.sampled_from(["Stop", "PostToolUse", "SessionStart"]) | _JSON,
        "session_id": st.text(max_size=10) | _JSON,
        "stop_hook_active": st.booleans() | _JSON,
        "tool_name": st.sampled_from(["Read", "Bash", "Write", "mcp__a__b", "Task"]) | _JSON,
        "tool_input": st.dictionaries(
            st.sampled_from(["file_path", "path", "command", "subagent_type"]),
            st.text(max_size=30) | _JSON,
        )
        | _JSON,
        "tool_response": _JSON,
        "duration_ms": _JSON,
    },
)


@given(payload=_PAYLOADS)
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_any_event_object_exits_zero_and_stays_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, payload: dict[str, Any]
) -> None:
    _stays_home(tmp_path, monkeypatch, json.dumps(payload).encode())


def _stays_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stdin: bytes) -> None:
    outer = Path(tempfile.mkdtemp(dir=tmp_path))
    root = outer / "proj"
    (root / "registries").mkdir(parents=True)
    (root / "registries/orkestra.yaml").write_text("project: demo\n")
    (outer / "plain").mkdir()
    existed = Path("/nonexistent").exists()
    try:
        for where in (root, outer / "plain"):
            monkeypatch.chdir(where)
            for hook in HOOKS:
                assert _run(hook, stdin, monkeypatch) == 0
        outside = {p for p in _tree(outer) if not p.startswith("proj")}
        assert outside == {"plain"}
        assert Path("/nonexistent").exists() == existed
    finally:
        shutil.rmtree(outer)


@pytest.mark.parametrize("command", ["install", "uninstall"])
@pytest.mark.parametrize("linked", [".claude/settings.json", ".claude"])
def test_hooks_install_refuses_a_symlinked_settings_file(
    cli: Any, project: Path, tmp_path: Path, command: str, linked: str
) -> None:
    outside = tmp_path / "outside"
    write(outside, ".claude/settings.json", '{"permissions": {}}\n')
    target = outside / linked
    (project / linked).parent.mkdir(parents=True, exist_ok=True)
    (project / linked).symlink_to(target)
    r = cli("hooks", command, cwd=project)
    assert r.exit_code == 1
    assert "symlink" in r.stderr and ".claude" in r.stderr
    assert (project / linked).is_symlink() and (project / linked).resolve() == target
    assert (outside / ".claude/settings.json").read_text() == '{"permissions": {}}\n'
    assert sorted(p.name for p in (outside / ".claude").iterdir()) == ["settings.json"]


@pytest.mark.parametrize("linked", ["knowledge/INDEX.md", "knowledge"])
def test_session_start_never_reads_through_a_symlink(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, linked: str
) -> None:
    secret = tmp_path / "outside"
    write(secret, "INDEX.md", "SECRET\n")
    (project / linked).parent.mkdir(parents=True, exist_ok=True)
    (project / linked).symlink_to(secret / "INDEX.md" if linked.endswith(".md") else secret)
    payload = {"hook_event_name": "SessionStart", "session_id": "s", "cwd": str(project)}
    monkeypatch.chdir(project)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert _run("session-start", json.dumps(payload).encode(), monkeypatch) == 0
    assert "SECRET" not in out.getvalue()
    assert "symlink" in _log(project)


@pytest.mark.parametrize("hook", HOOKS)
def test_a_closed_stdin_is_logged_never_a_traceback(
    project: Path, monkeypatch: pytest.MonkeyPatch, hook: str
) -> None:
    """No standard input at all (`orkestra hook stop <&-`: Python's `sys.stdin` is None)."""
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "stdin", None)
    assert runner.run([hook]) == 0
    assert f"{hook}: cannot read stdin: no standard input" in _log(project)


def test_a_closed_stdin_through_the_real_executable(project: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "ORKESTRA_ROOT"}
    done = subprocess.run(
        [sys.executable, "-m", "orkestra", "hook", "post-tool-use"],
        stdin=subprocess.DEVNULL, capture_output=True, cwd=project, env=env, check=False,
        timeout=60, pass_fds=(), close_fds=True, preexec_fn=lambda: os.close(0),
    )  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert "post-tool-use: cannot read stdin: no standard input" in _log(project)


@pytest.mark.parametrize("hook", HOOKS)
def test_orkestra_root_in_the_environment_does_not_make_a_hook_act_outside_a_project(
    project: Path, tmp_path_factory: pytest.TempPathFactory, hook: str
) -> None:
    """ORKESTRA_ROOT exported for the CLI (a shell profile) named the project for every hook: a
    session in an unrelated folder was blocked at its stop and its events went to that other
    project's log. A hook acts only where its cwd is inside a project (§8.4)."""
    (project / "knowledge").mkdir()
    before = _tree(project)
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    payload = {
        "session_id": "3f1c2a9e", "cwd": str(elsewhere), "hook_event_name": "Stop",
        "stop_hook_active": False, "tool_name": "Read",
        "tool_input": {"file_path": str(project / "knowledge/glossary/case.md")},
    }  # fmt: skip
    env = {**os.environ, "ORKESTRA_ROOT": str(project)}
    done = subprocess.run(
        [sys.executable, "-m", "orkestra", "hook", hook],
        input=json.dumps(payload).encode(), capture_output=True, cwd=elsewhere, env=env,
        check=False, timeout=60,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, b""), done.stderr
    assert _tree(project) == before and _tree(elsewhere) == set()


def _read_event(project: Path, response: str) -> bytes:
    note = project / "knowledge/glossary/case.md"
    head = {
        "session_id": "3f1c2a9e-5b7d-4e21-9a0c-1d2e3f4a5b6c",
        "cwd": str(project),
        "hook_event_name": "PostToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": str(note)},
    }
    # the tool_response is spliced in as raw JSON text: what the client wrote, byte for byte
    return json.dumps(head)[:-1].encode() + b', "tool_response": ' + response.encode() + b"}"


@pytest.mark.parametrize(
    "response",
    [
        # a lone surrogate escape, as JSON.stringify writes one for a broken UTF-16 string
        '{"type": "text", "file": {"content": "caf\\ud800 au lait"}}',
        '{"type": "text", "file": {"content": "\\udfff"}}',
        '"\\ud83d"',
    ],
)
def test_a_lone_surrogate_in_the_payload_keeps_the_event_and_the_read(
    project: Path, response: str
) -> None:
    write(project, "knowledge/glossary/case.md", "---\ntype: glossary\n---\nx\n")
    done = _hook("post-tool-use", _read_event(project, response), project)
    assert (done.returncode, done.stderr) == (0, b"")
    usage = (project / "knowledge/.usage.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x)["path"] for x in usage] == ["glossary/case.md"]
    (event,) = [
        json.loads(x) for x in (project / ".orkestra/events.jsonl").read_text().splitlines()
    ]
    assert event["tool_name"] == "Read" and event["path"] == "knowledge/glossary/case.md"
    # what was written is valid UTF-8 JSON (the surrogate never reaches a file)
    (project / ".orkestra/events.jsonl").read_bytes().decode("utf-8")


def test_a_byte_that_is_not_utf8_in_the_payload_keeps_the_event(project: Path) -> None:
    write(project, "knowledge/glossary/case.md", "---\ntype: glossary\n---\nx\n")
    # a Latin-1 byte in a tool's output: the rest of the event is still good
    stdin = _read_event(project, '"cafX"').replace(b"cafX", b"caf\xe9")
    done = _hook("post-tool-use", stdin, project)
    assert done.returncode == 0
    usage = (project / "knowledge/.usage.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x)["path"] for x in usage] == ["glossary/case.md"]


def test_the_stop_hook_reads_the_events_log_in_bounded_pieces(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an events log grown for months, one line of it 3 MB (limits lowered to keep this small):
    # the stop hook reads only its recent end, in pieces, and still finds this session's block
    from orkestra.core import jsonio
    from orkestra.hooks import events

    monkeypatch.setattr(jsonio, "MAX_LINE_BYTES", 1000)
    monkeypatch.setattr(jsonio, "MAX_BYTES", 200_000)
    sid = "3f1c2a9e-5b7d-4e21-9a0c-1d2e3f4a5b6c"
    old = {"event": "PostToolUse", "tool_name": "Read", "knowledge_write": False}
    lines = [json.dumps({**old, "session_id": f"old-{i // 50}"}) for i in range(20_000)]
    lines.append(json.dumps({"session_id": sid, "event": "PostToolUse", "blob": "x" * 3_000_000}))
    lines.append(json.dumps({"session_id": sid, "event": "Stop", "blocked": True}))
    write(project, ".orkestra/events.jsonl", "\n".join(lines) + "\n")
    sizes: list[int] = []
    real = jsonio.open_regular

    def spy(path: str, **kw: bool) -> Any:
        handle = real(path, **kw)
        original = handle.read

        def bounded(size: int = -1) -> bytes:
            sizes.append(size)
            return original(size)

        handle.read = bounded  # type: ignore[method-assign]
        return handle

    monkeypatch.setattr(jsonio, "open_regular", spy)
    found = events.session_records(str(project), sid)
    assert found == [{"session_id": sid, "event": "Stop", "blocked": True}]
    assert sizes and all(0 < size <= 1 << 20 for size in sizes)
    assert sum(s for s in sizes) < 400_000  # its recent end, not the 4 MB file


@pytest.mark.parametrize("how", ["closed", "broken pipe"])
def test_a_stdout_that_cannot_be_written_is_logged_never_a_traceback(
    project: Path, how: str
) -> None:
    # the session-start answer (INDEX.md as context) has nowhere to go: still exit 0, logged
    write(project, "knowledge/INDEX.md", "# Knowledge index\n\n- [[case]]\n")
    stdin = json.dumps({"session_id": "s", "cwd": str(project), "hook_event_name": "SessionStart"})
    env = {k: v for k, v in os.environ.items() if k != "ORKESTRA_ROOT"}
    hook = [sys.executable, "-m", "orkestra", "hook", "session-start"]
    if how == "closed":
        done = subprocess.run(
            ["sh", "-c", '"$@" >&-', "sh", *hook], input=stdin.encode(), capture_output=True,
            cwd=project, env=env, check=False, timeout=60,
        )  # fmt: skip
        code, err = done.returncode, done.stderr
    else:
        child = subprocess.Popen(
            hook, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=project, env=env,
        )  # fmt: skip
        assert child.stdout is not None and child.stdin is not None
        child.stdout.close()  # the reader went away before the answer was written
        _, err = child.communicate(stdin.encode(), timeout=60)
        code = child.returncode
    assert (code, b"Traceback" in err) == (0, False), err.decode()
    assert "session-start: cannot write the answer" in _log(project)
