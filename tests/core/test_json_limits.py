"""Every JSON read goes through `core.jsonio` (issue 10 item 3, issue 11 case 8).

A deeply nested document (one `[[[…]]]` line) in a file a command reads is a clean error naming
file:line (exit 1), or, in a derived cache, a miss that is recomputed — never a `RecursionError`
and exit 3. `src/` holds no other `json.load`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write
from tests.mining.conftest import CONFIG
from tests.mining.gitrepo import GitRepo

DEEP = "[" * 5000 + "]" * 5000
SRC = Path(__file__).parents[2] / "src" / "orkestra"


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-06-01")
    monkeypatch.delenv("ORKESTRA_ROOT", raising=False)


def _clean(r: Any, where: str) -> None:
    """Exit 1, one line naming `where` (file:line), no traceback."""
    assert r.exit_code == 1, (r.exit_code, r.stderr)
    assert where in r.stderr and "nested deeper" in r.stderr, r.stderr
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr


def test_no_json_reader_outside_core_jsonio() -> None:
    found = [
        f"{path.relative_to(SRC)}:{n}"
        for path in sorted(SRC.rglob("*.py"))
        if path.name != "jsonio.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"\bjson\.loads?\(", line)
    ]
    assert found == [], "read JSON with orkestra.core.jsonio (loads/read_json/iter_jsonl)"


def test_deep_claims_file_is_an_error_with_file_and_line(cli: Any, project: Path) -> None:
    write(project, "knowledge/claims/2026-01-01-deep.json", '{"insights":\n' + DEEP + "}\n")
    _clean(cli("learn", "list", cwd=project), "claims/2026-01-01-deep.json:2")


def test_deep_settings_json_is_an_error_with_file_and_line(cli: Any, project: Path) -> None:
    write(project, ".claude/settings.json", DEEP + "\n")
    _clean(cli("hooks", "install", cwd=project), ".claude/settings.json:1")
    assert (project / ".claude/settings.json").read_text() == DEEP + "\n"


def test_deep_events_line_is_an_unreadable_line_not_a_crash(cli: Any, project: Path) -> None:
    good = {"ts": "2026-05-01T00:00:00Z", "event": "Stop", "session_id": "s"}
    write(project, ".orkestra/events.jsonl", json.dumps(good) + "\n" + DEEP + "\n")
    r = cli("events", "summary", cwd=project)
    assert r.exit_code == 0, r.stderr
    assert (r.json()["total"], r.json()["unreadable_lines"]) == (1, 1)


def test_deep_events_line_never_breaks_the_stop_hook(cli: Any, project: Path) -> None:
    write(project, ".orkestra/events.jsonl", '{"session_id": "s1", "x": ' + DEEP + "}\n")
    stdin = json.dumps(
        {"hook_event_name": "Stop", "session_id": "s1", "cwd": str(project),
         "stop_hook_active": False}
    )  # fmt: skip
    r = cli("hook", "stop", stdin=stdin, cwd=project)
    assert r.exit_code == 0 and "block" in r.stdout  # the history line is skipped, not raised
    logged = (project / ".orkestra/logs/hooks.log").read_text()
    assert "events.jsonl:1: JSON nested deeper than 64 levels" in logged


def test_deep_usage_log_line_is_skipped(cli: Any, project: Path) -> None:
    from orkestra.knowledge import usage

    write(project, "knowledge/.usage.jsonl", DEEP + '\n{"ts": "2026-05-01", "path": "a.md"}\n')
    assert usage.read(project / "knowledge") == [{"ts": "2026-05-01", "path": "a.md"}]


@pytest.mark.parametrize(
    "cache", [".orkestra/cache/notes-check.json", ".orkestra/mining/stats.json"]
)
def test_deep_derived_caches_are_recomputed(cli: Any, project: Path, cache: str) -> None:
    from orkestra.knowledge.cache import CheckCache
    from orkestra.mining import index

    write(project, cache, DEEP)
    assert CheckCache(project).notes == {}
    assert index.read_stats(project) == {}
    assert cli("system", "status", cwd=project).exit_code == 0


def test_deep_claims_file_does_not_break_status(cli: Any, project: Path) -> None:
    write(project, "knowledge/claims/2026-01-01-deep.json", DEEP)
    r = cli("system", "status", cwd=project)
    assert r.exit_code == 0, r.stderr


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    """A git project with packages (as tests/mining's fixture)."""
    write(tmp_path, "registries/orkestra.yaml", CONFIG)
    write(tmp_path, ".gitignore", ".orkestra/\n")
    git = GitRepo(tmp_path)
    git.git("add", ".")
    git.commit("chore: set up the project")
    return git


def _damage_last_record(root: Path) -> int:
    """Replace the last record of commits.idx with deep JSON of the same size; its line."""
    path = root / ".orkestra/mining/commits.idx"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    body = len(lines[-1]) - 42  # sha, tab ... newline
    lines[-1] = lines[-1][:41] + "[" * (body // 2) + "]" * (body - body // 2) + "\n"
    path.write_text("".join(lines), encoding="utf-8")
    return len(lines)


def test_a_damaged_commit_index_is_an_error_then_rebuilt(cli: Any, repo: GitRepo) -> None:
    root = repo.path
    for n in range(3):
        repo.commit(f"feat(core): change {n}", {f"packages/core/f{n}.py": "x = 1\n" * 40})
    assert cli("mine", "sync", cwd=root).exit_code == 0
    line = _damage_last_record(root)
    r = cli("mine", "candidates", "--limit", "5", cwd=root)
    assert r.exit_code == 1, r.stderr
    assert f".orkestra/mining/commits.idx:{line}" in r.stderr and "rebuild" in r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    again = cli("mine", "candidates", "--limit", "5", cwd=root)  # the index is rebuilt
    assert again.exit_code == 0, again.stderr
    assert len(again.json()["candidates"]) == again.json()["total"] == 4


def test_a_damaged_commit_index_is_rebuilt_by_a_config_change(cli: Any, repo: GitRepo) -> None:
    root = repo.path
    repo.commit("feat(core): one", {"packages/core/a.py": "x = 1\n" * 40})
    assert cli("mine", "sync", cwd=root).exit_code == 0
    _damage_last_record(root)
    config = root / "registries/orkestra.yaml"
    config.write_text(config.read_text() + '    "packages/cli/**": cli\n')
    r = cli("mine", "sync", cwd=root)  # re-signalling reads every record: rebuilt from git
    assert r.exit_code == 0, r.stderr
    assert r.json()["sync"] == "full"


def test_loads_many_parses_each_text_alone_and_names_the_bad_line() -> None:
    from orkestra.core import jsonio
    from orkestra.core.errors import InputError

    assert jsonio.loads_many(['{"a": 1}', "[2]", '"[["'], source="f") == [{"a": 1}, [2], "[["]
    for texts, line in ((["1,2", "[3", "4]"], 1), (["{}", DEEP], 2), (["{}", "{}", "{"], 3)):
        with pytest.raises(InputError) as caught:
            jsonio.loads_many(texts, source="f.jsonl")
        assert (caught.value.file, caught.value.line) == ("f.jsonl", line)


@pytest.mark.parametrize(
    "text", ['{"x": "\\ud800"}', '["a\\udfffb"]', '{"\\uDBFF": 1}', '["\\ud800\\u0041"]']
)
def test_a_lone_surrogate_escape_is_an_input_error(text: str) -> None:
    # found by the hostile review: `hooks install` on such a settings.json exited 3
    # (UnicodeEncodeError when writing it back); no text with one can ever be written as UTF-8
    from orkestra.core import jsonio
    from orkestra.core.errors import InputError

    with pytest.raises(InputError, match="surrogate") as caught:
        jsonio.loads("\n" + text, source="f.json")
    assert caught.value.line == 2
    assert jsonio.loads('["\\ud83d\\ude00", "\\\\ud800"]', source="f") == ["\U0001f600", "\\ud800"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"x": "\\ud800"}', {"x": "\ufffd"}),
        ('["a\\udfffb"]', ["a\ufffdb"]),
        ('{"\\uDBFF": [{"k": "\\ud83d\\ude00\\ud83d"}]}', {"\ufffd": [{"k": "\U0001f600\ufffd"}]}),
    ],
)
def test_lone_surrogates_replace_gives_utf8_text(text: str, expected: object) -> None:
    # a hook event (what a client sends, only observed) keeps its other fields
    from orkestra.core import jsonio

    value = jsonio.loads(text, source="<stdin>", lone_surrogates="replace")
    assert value == expected
    json.dumps(value, ensure_ascii=False).encode("utf-8")  # writable as UTF-8


def test_a_lone_surrogate_in_settings_json_is_a_clean_error(cli: Any, project: Path) -> None:
    write(project, ".claude/settings.json", '{"x": "\\ud800"}\n')
    r = cli("hooks", "install", cwd=project)
    assert r.exit_code == 1 and ".claude/settings.json:1" in r.stderr, r.stderr
    assert (project / ".claude/settings.json").read_text() == '{"x": "\\ud800"}\n'


def test_a_number_too_long_in_settings_json_is_a_clean_error(cli: Any, project: Path) -> None:
    text = '{"hooks": {},\n "x": ' + "9" * 5000 + "}\n"
    write(project, ".claude/settings.json", text)
    r = cli("hooks", "install", cwd=project)
    assert r.exit_code == 1, r.stderr
    assert ".claude/settings.json:2: a number with 5000 digits is too long to read" in r.stderr
    assert "internal error" not in r.stderr
    assert (project / ".claude/settings.json").read_text() == text
