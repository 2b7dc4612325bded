"""Special files where a file is expected (PRODUCT.md §8.4, §13; found by the issue 11 review).

A FIFO, or a committed symlink to `/dev/zero`, in place of `orkestra.yaml`, the events log, the
knowledge INDEX, a ledger, the render lock or `.claude/settings.json` must never hang a command or
a hook (a hung hook freezes the agent's session) nor make it read forever: hooks log and exit 0,
commands fail with a clear error naming the file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from orkestra.core import jsonio, project, yamlio
from orkestra.core.errors import InputError
from orkestra.scaffold import init_project

pytestmark = [
    pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs"),
    pytest.mark.usefixtures("alarm"),  # a blocked open() fails instead of hanging the run
]


@pytest.fixture
def root(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "proj"
    init_project(path)
    (path / "knowledge").mkdir()
    yield path


def _special(path: Path, kind: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() or path.is_symlink():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")


def _run(root: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "ORKESTRA_ROOT"}
    return subprocess.run(
        [sys.executable, "-m", "orkestra", *args],
        input=stdin, capture_output=True, cwd=root, env=env, check=False, timeout=30,
    )  # fmt: skip


READERS: dict[str, Callable[[Path], object]] = {
    "jsonio.read_json": jsonio.read_json,
    "jsonio.iter_jsonl": lambda p: list(jsonio.iter_jsonl(p)),
    "jsonio.records": jsonio.records,
    "yamlio.read_text": yamlio.read_text,
}


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
@pytest.mark.parametrize("reader", sorted(READERS))
def test_the_core_readers_refuse_a_special_file(tmp_path: Path, reader: str, kind: str) -> None:
    path = tmp_path / "data.json"
    _special(path, kind)
    with pytest.raises(InputError, match="not a regular file") as caught:
        READERS[reader](path)
    assert caught.value.file == str(path)


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_the_light_config_reader_refuses_a_special_orkestra_yaml(root: Path, kind: str) -> None:
    _special(project.config_path(root), kind)
    with pytest.raises(InputError, match="regular file"):
        project.read_light(root)


STOP = {"hook_event_name": "Stop", "session_id": "s1", "stop_hook_active": False}
START = {"hook_event_name": "SessionStart", "session_id": "s1"}
READ = {"hook_event_name": "PostToolUse", "session_id": "s1", "tool_name": "Read"}


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
@pytest.mark.parametrize(
    ("hook", "payload", "rel"),
    [
        ("stop", STOP, ".orkestra/events.jsonl"),
        ("session-start", START, "knowledge/INDEX.md"),
        ("post-tool-use", READ, "registries/orkestra.yaml"),
        ("stop", STOP, "registries/orkestra.yaml"),
    ],
)
def test_a_hook_never_hangs_on_a_special_file(
    root: Path, hook: str, payload: dict[str, object], rel: str, kind: str
) -> None:
    _special(root / rel, kind)
    done = _run(root, "hook", hook, stdin=json.dumps({**payload, "cwd": str(root)}).encode())
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
@pytest.mark.parametrize(
    ("args", "rel"),
    [
        (("mine", "validate", "--quick"), "registries/changelog/release_notes.jsonl"),
        (("hooks", "install"), ".claude/settings.json"),
    ],
)
def test_a_command_fails_cleanly_on_a_special_file(
    root: Path, args: tuple[str, ...], rel: str, kind: str
) -> None:
    _special(root / rel, kind)
    done = _run(root, *args)
    assert done.returncode == 1, done.stderr
    assert rel.encode() in done.stderr + done.stdout


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_a_special_usage_log_never_hangs_notes_index(root: Path, kind: str) -> None:
    # red team 2: knowledge/.usage.jsonl (a committed, union-merged file) as a symlink to
    # /dev/zero made `notes index` read forever; a FIFO there blocked it
    _special(root / "knowledge/.usage.jsonl", kind)
    done = _run(root, "notes", "index")
    assert done.returncode == 1, done.stderr
    assert b"knowledge/.usage.jsonl" in done.stderr and b"not a regular file" in done.stderr


def test_a_fifo_where_a_command_writes_is_named_as_such(root: Path) -> None:
    # red team 2: `notes index` (and `changelog render --into-existing`) said the FIFO at their
    # output "changed on disk since it was read; run the command again", which never helps
    _special(root / "knowledge/INDEX.md", "fifo")
    done = _run(root, "notes", "index")
    assert done.returncode == 1, done.stderr
    assert b"knowledge/INDEX.md" in done.stderr and b"not a regular file" in done.stderr
    assert (root / "knowledge/INDEX.md").is_fifo()


@pytest.mark.parametrize(
    "args", [("notes", "list"), ("notes", "check"), ("search", "alpha")], ids=" ".join
)
def test_a_fifo_among_the_notes_never_hangs(root: Path, args: tuple[str, ...]) -> None:
    # red team 2: a FIFO named like a note blocked every command that loads the notes
    _special(root / "knowledge/glossary/beta.md", "fifo")
    done = _run(root, *args)
    assert done.returncode in (0, 1) and b"Traceback" not in done.stderr, done.stderr
    if args[-1] == "check":  # the check names the file it could not read
        assert done.returncode == 1 and b"knowledge/glossary/beta.md" in done.stdout


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_a_special_render_lock_never_hangs_validate_or_sync(root: Path, kind: str) -> None:
    _special(root / "registries/.render-lock.json", kind)
    for args in (("validate",), ("sync", "--check")):
        done = _run(root, *args)
        assert done.returncode in (0, 1), done.stderr  # read as "no lock yet", or refused
        assert b"Traceback" not in done.stderr


@pytest.mark.parametrize("kind", ["fifo", "devzero", "folder"])
def test_hooks_install_git_never_hangs_on_a_special_pre_commit(root: Path, kind: str) -> None:
    # found by the hostile review: a FIFO at .git/hooks/pre-commit hung `hooks install --git`
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, capture_output=True)
    hook = root / ".git/hooks/pre-commit"
    if kind == "folder":
        hook.mkdir(parents=True)
    else:
        _special(hook, kind)
    done = _run(root, "hooks", "install", "--git")
    assert done.returncode == 1, done.stderr
    assert b"pre-commit" in done.stderr and b"internal error" not in done.stderr
    assert hook.is_dir() if kind == "folder" else hook.is_symlink() or hook.is_fifo()


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_other_clients_hook_files_never_hang(root: Path, kind: str, command: str) -> None:
    # found by the hostile review: a FIFO at .codex/hooks.json hung `hooks install --client codex`
    _special(root / ".codex/hooks.json", kind)
    args = ("hooks", command, "--client", "codex") if command == "install" else ("hooks", command)
    done = _run(root, *args)
    assert done.returncode == 1, done.stderr
    assert b".codex/hooks.json" in done.stderr and b"internal error" not in done.stderr


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_a_special_notes_outcomes_file_never_hangs_search_or_notes_check(
    root: Path, kind: str
) -> None:
    """`.orkestra/notes-outcomes.json` (derived, watched by the search index) as a FIFO or a
    link to /dev/zero: `search` blocked hashing it for the index and `notes check` blocked
    reading it before its write. Search reads it as "never checked"; the check, which must
    write it, refuses naming it; neither hangs nor puts anything in its place."""
    (root / "knowledge/glossary").mkdir(parents=True)
    (root / "knowledge/glossary/alpha.md").write_text(
        "---\ntype: concept\ntitle: Alpha\n---\nAlpha is the first letter.\n", encoding="utf-8"
    )
    assert _run(root, "notes", "check").returncode in (0, 1)
    assert _run(root, "search", "alpha").returncode == 0
    rel = ".orkestra/notes-outcomes.json"
    _special(root / rel, kind)
    searched = _run(root, "search", "alpha")
    assert searched.returncode == 0, searched.stderr
    assert b"alpha" in searched.stdout
    checked = _run(root, "notes", "check")
    assert checked.returncode == 1, checked.stderr
    assert rel.encode() in checked.stderr and b"Traceback" not in checked.stderr
    assert (root / rel).is_fifo() if kind == "fifo" else (root / rel).is_symlink()


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_hook_never_hangs_on_a_special_hooks_log(root: Path, kind: str) -> None:
    """A FIFO at `.orkestra/logs/hooks.log` blocked the hook's append until a reader came
    (forever: the agent's session froze on a malformed event); a folder there is no file
    either. The line goes to stderr instead, the hook exits 0, the thing there is left."""
    log = root / ".orkestra/logs/hooks.log"
    log.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(log)
    else:
        log.mkdir()
    done = _run(root, "hook", "stop", stdin=b"not json")
    assert done.returncode == 0, done.stderr
    assert b"orkestra hook: stop: ignored stdin" in done.stderr and b"Traceback" not in done.stderr
    assert log.is_fifo() if kind == "fifo" else log.is_dir()
