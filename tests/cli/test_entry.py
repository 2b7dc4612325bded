"""The one parser: the command table, exit codes returned by every command, the error mapper."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest

from orkestra.cli import entry, errors, lazy
from orkestra.cli.clickcompat import click
from orkestra.cli.commands import COMMANDS, Entry
from orkestra.cli.root import RootGroup
from orkestra.core.errors import ExitCode, InputError, NotFound, UsageError
from tests.conftest import write
from tests.knowledge.helpers import note

SRC = Path(__file__).resolve().parents[2] / "src" / "orkestra"
FIXTURE = Path(__file__).resolve().parents[1] / "search" / "fixture"


@pytest.fixture
def registry(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(FIXTURE, root)
    return root


def _command_functions() -> list[tuple[str, Any]]:
    found = []
    for name, spec in COMMANDS.items():
        for module in spec.modules:
            app = lazy.load(module)
            found += [(f"{name} {c.name}", c.callback) for c in app.registered_commands]
    return found


def test_every_command_declares_exit_code_as_its_return_type() -> None:
    functions = _command_functions()
    assert len(functions) >= 45
    for label, function in functions:
        assert typing.get_type_hints(function)["return"] is ExitCode, label


def test_no_command_exits_by_raising() -> None:
    """Only the root's --version callback may raise typer.Exit (a group callback cannot return)."""
    raising = [
        f"{path.name}:{number}"
        for path in sorted((SRC / "cli").glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"typer\.Exit\(|sys\.exit\(|SystemExit", line)
    ]
    assert raising == ["root.py:47"]


def test_commands_return_their_exit_code_through_nested_groups(
    registry: Path, tmp_path: Path
) -> None:
    """Click hands back the leaf command's value through the root and the merged group."""
    ok = entry.build().main(["--root", str(registry), "agents", "list"], standalone_mode=False)
    assert ok is ExitCode.OK
    write(tmp_path / "k", "registries/orkestra.yaml", "project: k\n")
    note(tmp_path / "k", "gone", kind="gotcha", sources=["app/gone.py"])
    checked = entry.build().main(
        ["--root", str(tmp_path / "k"), "notes", "check", "--dry-run"], standalone_mode=False
    )
    assert checked is ExitCode.CHECK_FAILED


def test_the_table_drives_the_root_help(cli: Any) -> None:
    r = cli("--help")
    assert r.exit_code == 0
    listed = re.findall(r"^  (\w+) ", r.stdout.split("Commands:")[1], flags=re.M)
    assert listed == sorted(COMMANDS)
    assert RootGroup.spec is COMMANDS


def test_a_missing_command_module_is_an_error_not_a_hidden_command(
    cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ghost = Entry("A command whose module is gone.", ("orkestra.cli.no_such_module",))
    with pytest.raises(ModuleNotFoundError, match=r"orkestra\.cli\.no_such_module"):
        lazy.build_command("ghost", ghost)
    monkeypatch.setitem(COMMANDS, "ghost", ghost)
    r = cli("ghost", "run")
    assert r.exit_code == 3
    assert "internal error: ModuleNotFoundError: No module named 'orkestra.cli.no_such_module'" in (
        r.stderr
    )
    with pytest.raises(TypeError, match="is not a typer app"):
        lazy.load("orkestra.cli.commands:COMMANDS")


@pytest.mark.parametrize(
    ("args", "wanted"),
    [
        (["x", "-f", "json"], True),
        (["x", "--format", "json"], True),
        (["x", "--format=json"], True),
        (["x", "-f=json"], True),
        (["x", "-fjson"], True),
        (["x", "-f", "table"], False),
        (["x", "--format"], False),
        (["json"], False),
    ],
)
def test_wants_json(args: list[str], wanted: bool) -> None:
    assert errors.wants_json(args) is wanted


def test_report_orkestra_error_as_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    error = InputError("bad value", file="registries/orkestra.yaml", line=3)
    assert errors.report(error) is ExitCode.CHECK_FAILED
    assert capsys.readouterr().err == "orkestra: registries/orkestra.yaml:3: bad value\n"
    assert errors.report(error, json_errors=True) is ExitCode.CHECK_FAILED
    assert capsys.readouterr().err == (
        '{"error": {"code": "input", "message": "bad value", '
        '"file": "registries/orkestra.yaml", "line": 3}}\n'
    )
    assert errors.report(UsageError("no such type")) is ExitCode.USAGE
    assert capsys.readouterr().err == "orkestra: no such type\n"
    assert errors.report(NotFound("é missing"), json_errors=True) is ExitCode.CHECK_FAILED
    assert json.loads(capsys.readouterr().err)["error"]["message"] == "é missing"


@pytest.mark.parametrize("json_errors", [False, True])
def test_report_unexpected_error_writes_a_crash_log(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    json_errors: bool,
) -> None:
    (tmp_path / "registries").mkdir()  # a project: its crash logs stay in it
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ORKESTRA_ROOT", raising=False)
    try:
        raise RuntimeError("boom")
    except RuntimeError as exc:
        assert errors.report(exc, json_errors=json_errors) is ExitCode.INTERNAL
    err = capsys.readouterr().err
    message = json.loads(err)["error"]["message"] if json_errors else err
    found = re.search(r"internal error: RuntimeError: boom \(traceback in (.+?)\)", message)
    assert found is not None, err
    log = Path(found.group(1))  # where it goes is the log helper's business (PRODUCT.md §13)
    assert "RuntimeError: boom" in log.read_text(encoding="utf-8")
    assert "Traceback" not in err


def test_report_usage_error_and_interrupt(capsys: pytest.CaptureFixture[str]) -> None:
    assert errors.report(click.exceptions.UsageError("no such option: --x")) is ExitCode.USAGE
    assert "Error: no such option: --x" in capsys.readouterr().err
    assert errors.report(KeyboardInterrupt()) is ExitCode.INTERRUPTED
    assert capsys.readouterr().err == "\norkestra: interrupted\n"


@pytest.mark.parametrize(
    ("raised", "code"),
    [(KeyboardInterrupt(), 130), (RuntimeError("boom"), 3), (InputError("bad", file="f"), 1)],
)
def test_errors_inside_a_command_map_to_exit_codes(
    cli: Any, registry: Path, monkeypatch: pytest.MonkeyPatch, raised: BaseException, code: int
) -> None:
    def explode(*args: Any, **kwargs: Any) -> Any:
        raise raised

    monkeypatch.setattr("orkestra.search.service.find", explode)
    monkeypatch.chdir(registry)  # a crash log lands in this copy, not in the repository
    r = cli("search", "x", "-f", "json", cwd=registry)
    assert (r.exit_code, r.stdout) == (code, "")
    if code != 130:
        assert json.loads(r.stderr)["error"]["code"] == ("internal" if code == 3 else "input")


def test_notes_check_with_root_from_elsewhere(cli: Any, tmp_path: Path) -> None:
    """The form the Stop hook runs: `orkestra --root X notes check`."""
    project = tmp_path / "k"
    write(project, "registries/orkestra.yaml", "project: k\n")
    write(project, "app/task.py", "class Task:\n")
    note(project, "case", sources=["app/task.py#class Task"])
    r = cli("--root", str(project), "notes", "check", "--no-sources", cwd=tmp_path)
    assert r.exit_code == 0, r.stderr
    assert r.json()["checked"] == 1 and r.json()["errors"] == 0


@pytest.mark.parametrize("fmt", [[], ["-f", "json"], ["--format", "json"], ["--format=json"]])
def test_notes_check_config_errors_name_file_and_line(
    cli: Any, tmp_path: Path, fmt: list[str]
) -> None:
    write(tmp_path, "registries/orkestra.yaml", "knowledge:\n  verified_max_age_days: nope\n")
    r = cli("notes", "check", *fmt, cwd=tmp_path)
    assert (r.exit_code, r.stdout) == (1, "")
    if fmt:
        error = json.loads(r.stderr)["error"]
        assert (error["file"], error["line"]) == ("registries/orkestra.yaml", 2)
    else:
        assert r.stderr.startswith("orkestra: registries/orkestra.yaml:2: ")


def _fresh(code: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


RUN = (
    "import sys; from orkestra.cli.entry import main; code = main(sys.argv[1:]); "
    "print(sorted(m for m in ('typer', 'pydantic') if m in sys.modules), file=sys.stderr); "
    "sys.exit(code)"
)


def test_version_answers_before_typer_loads(tmp_path: Path) -> None:
    for flag in ("--version", "-V"):
        done = _fresh(RUN, flag, cwd=tmp_path)
        assert done.returncode == 0
        assert re.fullmatch(r"orkestra \S+\n", done.stdout)
        assert done.stderr == "[]\n"
    bare = (
        "import sys; from orkestra.cli.entry import main; main(['-V']); print(sorted(sys.modules))"
    )
    assert "'typing'" not in _fresh(bare, cwd=tmp_path).stdout  # startup: not even typing


@pytest.mark.parametrize(
    "args",
    [["search", "kubernetes"], ["search", "--help"], ["mine", "--help"], ["notes", "check"]],
)
def test_plain_commands_do_not_import_pydantic(registry: Path, args: list[str]) -> None:
    """typer's pydantic adapters are not built for plain values (cli/params.py)."""
    _fresh(RUN, *args, cwd=registry)  # the first search builds its index (which may need more)
    done = _fresh(RUN, *args, cwd=registry)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == "['typer']"
