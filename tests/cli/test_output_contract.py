"""The output contract of PRODUCT.md §5 end to end (issue 12, items 8-13).

JSON shapes the seed's `jq` pipelines rely on, `--format table|text` for people from every
command, reference findings at the reference's line, model warnings, INDEX.md refreshed by
`notes check`, contradicted notes marked and ranked last, and hooks that work outside the venv.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from orkestra.scaffold import init_project
from tests.conftest import write
from tests.knowledge.helpers import note

AGENT = "registries/agents/example-agent.yaml"
TRUTHS = "registries/truths/project.yaml"


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    """An `orkestra init` project: one opus agent, a truth tagged security, one note."""
    root = tmp_path / "proj"
    init_project(root)
    agent = root / AGENT
    agent.write_text(agent.read_text().replace("model: inherit", "model: opus"))
    truths = root / TRUTHS
    truths.write_text(
        truths.read_text().replace("- architecture", "- architecture\n      - security")
    )
    write(root, "app/widget.py", "class Widget:\n    pass\n")
    note(root, "widget", title="Widget", sources=["app/widget.py#class Widget"])
    return root


# --- item 8: JSON shapes -----------------------------------------------------------------------

LISTS = [
    (("agents", "list"), "agents"),
    (("skills", "list"), "skills"),
    (("scopes", "list"), "scopes"),
    (("truths", "list"), "truths"),
    (("decisions", "list"), "decisions"),
    (("notes", "list"), "notes"),
    (("learn", "list"), "claims"),
]


@pytest.mark.parametrize(("command", "kind"), LISTS)
def test_a_list_command_returns_an_envelope_named_after_its_kind(
    cli: Any, proj: Path, command: tuple[str, ...], kind: str
) -> None:
    data = cli(*command, cwd=proj).json()
    assert list(data) == [kind, "total"]
    assert isinstance(data[kind], list) and data["total"] == len(data[kind])


def test_no_command_prints_a_bare_array(cli: Any, proj: Path) -> None:
    commands = [c for c, _ in LISTS] + [
        ("search", "example"),
        ("agents", "search", "example"),
        ("truths", "search", "--tag", "security"),
        ("system", "status"),
        ("notes", "check"),
        ("truths", "verify"),
        ("events", "summary"),
    ]
    for command in commands:
        result = cli(*command, cwd=proj)
        assert isinstance(result.json(), dict), command


def test_search_returns_query_total_results(cli: Any, proj: Path) -> None:
    data = cli("search", "example", "--limit", "2", cwd=proj).json()
    assert list(data) == ["query", "total", "results"]
    assert data["query"] == "example" and len(data["results"]) == 2 and data["total"] > 2
    assert {"type", "id", "title", "score", "matched_fields", "path", "line"} <= set(
        data["results"][0]
    )


def test_system_status_puts_counts_at_the_top_level(cli: Any, proj: Path) -> None:
    data = cli("system", "status", cwd=proj).json()
    counts = ("agents", "skills_internal", "skills_vendor", "skills_total", "commands", "notes")
    assert {k: data[k] for k in counts} == dict.fromkeys(counts, 1) | {
        "skills_vendor": 0,
        "commands": 0,
    }
    assert "counts" not in data
    assert isinstance(data["validation"], dict) and isinstance(data["render"], dict)


def test_a_filter_alone_is_a_valid_query(cli: Any, proj: Path) -> None:
    found = cli("truths", "search", "--tag", "security", cwd=proj)
    assert found.exit_code == 0
    assert [h["id"] for h in found.json()["results"]] == ["GT-PRJ-001"]
    assert found.json()["total"] == 1 and found.json()["results"][0]["matched_fields"] == ["tags"]
    assert cli("truths", "search", "--tag", "nothing", cwd=proj).json()["results"] == []
    active = cli("decisions", "search", "--status", "active", cwd=proj).json()["results"]
    assert [h["id"] for h in active] == ["DEC-AR-001"]
    bare = cli("truths", "search", cwd=proj)
    assert bare.exit_code == 2 and "missing query" in bare.stderr


PIPELINES = [
    (
        "orkestra agents list | jq -r '.agents[] | select(.model == \"opus\") | .name'",
        "example-agent",
    ),
    ("orkestra system status | jq .skills_total", "1"),
    ("orkestra truths search --tag security | jq -r '.results[].id'", "GT-PRJ-001"),
    ("orkestra search example | jq -r '.results[0].id'", "example"),
]


@pytest.mark.parametrize(("pipeline", "expected"), PIPELINES)
def test_the_seeds_jq_pipelines(proj: Path, pipeline: str, expected: str) -> None:
    """The documented pipelines through the installed executable and the real `jq`."""
    exe = shutil.which("orkestra")
    assert exe, "orkestra is not installed on PATH"
    if shutil.which("jq") is None:
        pytest.skip("jq is not installed (.ci/run installs it); the shapes are checked above")
    command = pipeline.replace("orkestra ", f"{exe} ", 1)
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command}"],
        cwd=proj,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout.strip()) == (0, expected), done.stderr


# --- item 9: --format table and its alias text --------------------------------------------------

HUMAN = [
    (("agents", "list"), "example-agent"),
    (("skills", "list"), "example-skill"),
    (("scopes", "list"), "example"),
    (("truths", "list"), "GT-PRJ-001"),
    (("decisions", "list"), "DEC-AR-001"),
    (("notes", "list"), "widget"),
    (("system", "status"), "skills_total"),
    (("agents", "info", "example-agent"), "opus"),
    (("skills", "info", "example-skill"), "example-skill"),
    (("truths", "info", "GT-PRJ-001"), "GT-PRJ-001"),
    (("decisions", "info", "DEC-AR-001"), "DEC-AR-001"),
    (("search", "example"), "example-agent"),
    (("truths", "search", "--tag", "security"), "GT-PRJ-001"),
    (("validate",), "ok:"),
    (("truths", "verify"), "GT-PRJ-001"),
    (("events", "summary"), "total"),
    (("notes", "info", "widget"), "Widget"),
]


@pytest.mark.parametrize(("command", "needle"), HUMAN)
def test_text_is_table_and_reads_as_a_table_or_report(
    cli: Any, proj: Path, command: tuple[str, ...], needle: str
) -> None:
    table = cli(*command, "--format", "table", cwd=proj)
    text = cli(*command, "--format", "text", cwd=proj)
    assert (table.exit_code, text.exit_code) == (0, 0), (table.stderr, text.stderr)
    assert table.stdout == text.stdout
    assert needle in text.stdout
    with pytest.raises(json.JSONDecodeError):
        json.loads(text.stdout)


def test_list_tables_show_rows_and_total(cli: Any, proj: Path) -> None:
    out = cli("agents", "list", "-f", "text", cwd=proj).stdout
    header = next(line for line in out.splitlines() if "name" in line and "model" in line)
    assert "description" in header
    assert out.rstrip().splitlines()[-1].split() == ["total", "1"]


def test_notes_check_table_shows_sources_as_path_line_and_marks(cli: Any, proj: Path) -> None:
    note(proj, "gone", sources=["app/widget.py#class Gadget", "app/missing.py"])
    out = cli("notes", "check", "--format", "table", cwd=proj).stdout
    assert "app/widget.py:1 ✓" in out
    assert "app/widget.py ✗ (pattern 'class Gadget' not found)" in out
    assert "app/missing.py ✗ (file not found" in out
    assert "source=" not in out and "status=" not in out


# --- item 10: reference errors at their line, with the closest name -----------------------------


def test_validate_points_a_bad_reference_to_its_line_and_suggests(cli: Any, proj: Path) -> None:
    agent = proj / AGENT
    agent.write_text(agent.read_text().replace("- Grep", "- Grpe"))
    line = agent.read_text().splitlines().index("  - Grpe") + 1
    result = cli("validate", cwd=proj)
    assert result.exit_code == 1
    assert (
        f"{AGENT}:{line}: error ORK025: agent 'example-agent' refers to unknown tool 'Grpe'; "
        "did you mean Grep?"
    ) in result.stdout


# --- item 11: a model the target does not accept ------------------------------------------------


def test_an_unknown_model_is_a_warning_naming_the_accepted_values(cli: Any, proj: Path) -> None:
    agent = proj / AGENT
    agent.write_text(agent.read_text().replace("model: opus", "model: gpt-4"))
    line = agent.read_text().splitlines().index("model: gpt-4") + 1
    assert cli("validate", cwd=proj).exit_code == 0
    strict = cli("validate", "--strict", cwd=proj)
    assert strict.exit_code == 1
    assert (
        f"{AGENT}:{line}: warning ORK110: agent 'example-agent' has model 'gpt-4'" in strict.stdout
    )
    assert "use inherit, sonnet, opus, haiku" in strict.stdout


def test_a_commands_model_is_judged_too(cli: Any, proj: Path) -> None:
    write(
        proj,
        "registries/commands/review.yaml",
        "name: review\ndescription: Review the change.\nmodel: gemini-pro\nbody: Review it.\n",
    )
    out = cli("validate", "--strict", cwd=proj).stdout
    assert (
        "registries/commands/review.yaml:3: warning ORK110: command 'review' has model "
        "'gemini-pro'" in out
    )


@pytest.mark.parametrize("model", ["inherit", "sonnet", "haiku", "opus[1m]", "claude-opus-4-5"])
def test_models_claude_accepts_pass_strict(cli: Any, proj: Path, model: str) -> None:
    agent = proj / AGENT
    agent.write_text(agent.read_text().replace("model: opus", f"model: {model}"))
    assert cli("validate", "--strict", cwd=proj).exit_code == 0


def test_without_the_claude_target_a_model_is_not_judged(cli: Any, proj: Path) -> None:
    agent = proj / AGENT
    agent.write_text(agent.read_text().replace("model: opus", "model: gpt-4"))
    write(proj, "registries/orkestra.yaml", "project: proj\ntargets:\n  - codex\n")
    assert "ORK110" not in cli("validate", "--strict", cwd=proj).stdout


# --- item 12: INDEX.md refreshed; contradicted notes marked and ranked last --------------------


def test_notes_check_refreshes_index_only_when_it_changed(cli: Any, proj: Path) -> None:
    index = proj / "knowledge/INDEX.md"
    assert not index.exists()
    first = cli("notes", "check", cwd=proj).json()
    assert first["index"]["written"] is True and "glossary" in index.read_text()
    stamp = index.stat().st_mtime_ns
    assert cli("notes", "check", cwd=proj).json()["index"]["written"] is False
    assert index.stat().st_mtime_ns == stamp
    note(proj, "howto", kind="recipe")
    assert cli("notes", "check", cwd=proj).json()["index"]["written"] is True
    assert "recipes" in index.read_text()
    dry = cli("notes", "check", "--dry-run", cwd=proj).json()
    assert dry["index"] is None


def test_a_contradicted_note_is_marked_and_ranked_below_the_others(cli: Any, proj: Path) -> None:
    note(
        proj,
        "frobnicator",
        title="Frobnicator widget",
        sources=["app/frobnicator.py#class Frob"],
        body="The frobnicator.\n",
    )
    note(proj, "gadget", title="Gadget", sources=["app/widget.py"], body="Uses a frobnicator.\n")

    def hits() -> list[tuple[str, str]]:
        found = cli("search", "frobnicator", "--type", "notes", cwd=proj).json()["results"]
        return [(h["id"], h["status"]) for h in found]

    assert hits() == [("frobnicator", "unchecked"), ("gadget", "unchecked")]
    assert cli("notes", "check", cwd=proj).exit_code == 1  # contradicted
    assert hits() == [("gadget", "confirmed"), ("frobnicator", "contradicted")]
    index = (proj / "knowledge/INDEX.md").read_text()
    assert "**1 note(s) contradicted by the code** at the last check" in index
    text = cli("search", "frobnicator", "-f", "text", cwd=proj).stdout.splitlines()
    assert text[-2].endswith("[contradicted]") and "frobnicator" in text[-2]
    write(proj, "app/frobnicator.py", "class Frob:\n")
    cli("notes", "check", cwd=proj)
    assert hits() == [("frobnicator", "confirmed"), ("gadget", "confirmed")]
    assert "contradicted by the code" not in (proj / "knowledge/INDEX.md").read_text()


# --- item 13: hooks name the executable, never a bare `orkestra` ---------------------------------


def _bare_env() -> dict[str, str]:
    """An environment whose PATH holds no virtual environment (as in a client's shell)."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = "/usr/bin:/bin"
    return env


def _run_hooks(proj: Path) -> None:
    data = json.loads((proj / ".claude/settings.json").read_text())
    commands = [
        h["command"] for groups in data["hooks"].values() for g in groups for h in g["hooks"]
    ]
    assert len(commands) == 3
    for command in commands:
        assert not command.startswith("orkestra ")
        payload = json.dumps({"session_id": "s", "cwd": str(proj), "hook_event_name": "x"})
        done = subprocess.run(
            ["/bin/sh", "-c", command],
            cwd=proj,
            input=payload,
            env=_bare_env(),
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, (command, done.returncode, done.stderr)


def test_installed_hooks_run_outside_the_venv(proj: Path) -> None:
    exe = shutil.which("orkestra")
    assert exe, "orkestra is not installed on PATH"
    assert (
        subprocess.run(
            ["/bin/sh", "-c", "command -v orkestra"],
            env=_bare_env(),
            capture_output=True,
            check=False,
        ).returncode
        != 0
    )
    done = subprocess.run([exe, "hooks", "install"], cwd=proj, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    data = json.loads((proj / ".claude/settings.json").read_text())
    stop = data["hooks"]["Stop"][0]["hooks"][0]["command"]
    assert stop == f"{Path(exe).absolute()} hook stop"
    _run_hooks(proj)


def test_hooks_installed_in_process_use_python_m_orkestra(cli: Any, proj: Path) -> None:
    assert cli("hooks", "install", cwd=proj).exit_code == 0
    data = json.loads((proj / ".claude/settings.json").read_text())
    assert (
        data["hooks"]["Stop"][0]["hooks"][0]["command"] == f"{sys.executable} -m orkestra hook stop"
    )
    _run_hooks(proj)
    assert cli("hooks", "uninstall", cwd=proj).json()["removed"] == 3


def test_the_git_hook_names_the_executable_too(cli: Any, proj: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=proj, check=True)
    assert cli("hooks", "install", "--git", cwd=proj).exit_code == 0
    script = (proj / ".git/hooks/pre-commit").read_text()
    assert f"\n{sys.executable} -m orkestra notes check --no-sources --dry-run" in script
    done = subprocess.run(
        [str(proj / ".git/hooks/pre-commit")],
        cwd=proj,
        env=_bare_env(),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_search_watches_the_file_notes_check_records_outcomes_in() -> None:
    from orkestra.knowledge import outcomes
    from orkestra.search import freshness

    assert freshness._OUTCOMES == outcomes.PATH


def test_notes_check_without_a_knowledge_folder_starts_none(cli: Any, tmp_path: Path) -> None:
    root = tmp_path / "bare"
    init_project(root)
    report = cli("notes", "check", cwd=root).json()
    assert report["index"] is None and not (root / "knowledge").exists()
