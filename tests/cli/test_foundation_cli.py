"""The real CLI for validate, init, system status and the inventory levels."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write


@pytest.fixture
def proj(tmp_path: Path, cli: Any) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    assert cli("init", str(root)).exit_code == 0
    return root


def test_init_appends_to_git_files_in_their_own_style(tmp_path: Path, cli: Any) -> None:
    """A Windows .gitignore (byte-order mark, CRLF) lost its mark and got LF lines appended."""
    root = tmp_path / "win"
    root.mkdir()
    (root / ".gitignore").write_bytes(b"\xef\xbb\xbfnode_modules/\r\n*.log\r\n")
    (root / ".gitattributes").write_bytes(b"* text=auto")  # no final newline, LF
    assert cli("init", str(root)).exit_code == 0
    ignore = (root / ".gitignore").read_bytes()
    assert ignore == b"\xef\xbb\xbfnode_modules/\r\n*.log\r\n# orkestra\r\n.orkestra/\r\n"
    attributes = (root / ".gitattributes").read_bytes()
    assert attributes.startswith(b"* text=auto\n# orkestra\n") and b"\r" not in attributes


def test_init_creates_a_valid_project_and_refuses_to_overwrite(tmp_path: Path, cli: Any) -> None:
    root = tmp_path / "new"
    result = cli("init", str(root))
    assert result.exit_code == 0
    created = result.json()["created"]
    assert "registries/agents/example-agent.yaml" in created
    assert ".orkestra/" in (root / ".gitignore").read_text(encoding="utf-8")
    assert "merge=union" in (root / ".gitattributes").read_text(encoding="utf-8")
    assert cli("validate", "--strict", cwd=root).exit_code == 0

    (root / "registries/values.yaml").write_text("values: []\n", encoding="utf-8")
    again = cli("init", str(root))
    assert again.exit_code == 1 and "refusing to overwrite" in again.stderr
    assert "registries/values.yaml" in again.stderr and "--force" in again.stderr
    assert (root / "registries/values.yaml").read_text(encoding="utf-8") == "values: []\n"

    forced = cli("init", str(root), "--force")
    assert forced.exit_code == 0 and "registries/values.yaml" in forced.json()["kept"]
    assert (root / "registries/values.yaml").read_text(encoding="utf-8") == "values: []\n"
    assert (root / ".gitignore").read_text(encoding="utf-8").count(".orkestra/") == 1


def test_init_keeps_user_gitignore_lines(tmp_path: Path, cli: Any) -> None:
    write(tmp_path, ".gitignore", "node_modules/")
    assert cli("init", str(tmp_path)).exit_code == 0
    text = (tmp_path / ".gitignore").read_text(encoding="utf-8")
    assert text.startswith("node_modules/\n") and ".orkestra/" in text


def _tree(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))


def test_init_refuses_odd_targets_cleanly_and_writes_nothing(tmp_path: Path, cli: Any) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    cases = {
        "symlinked-registries": lambda r: (r / "registries").symlink_to(outside),
        "bad-gitignore": lambda r: (r / ".gitignore").write_bytes(b"\xff\xfe"),
        "folder-gitattributes": lambda r: (r / ".gitattributes").mkdir(),
        "linked-gitignore": lambda r: (r / ".gitignore").symlink_to(outside / "gi"),
        "file-for-folder": lambda r: write(r, "registries/agents", "x"),
    }
    expected = {
        "symlinked-registries": "registries: refusing to write below 'registries': it is a symlink",
        "bad-gitignore": ".gitignore:1: invalid UTF-8",
        "folder-gitattributes": ".gitattributes: cannot read file",
        "linked-gitignore": ".gitignore: refusing to rewrite '.gitignore': it is a symlink",
        "file-for-folder": "registries/agents: 'registries/agents' is a file",
    }
    for name, make in cases.items():
        root = tmp_path / name
        root.mkdir()
        make(root)
        before = _tree(root)
        result = cli("init", str(root))
        assert result.exit_code == 1, name
        assert expected[name] in result.stderr, (name, result.stderr)
        assert _tree(root) == before, name
    assert list(outside.iterdir()) == []
    write(tmp_path, "a-file", "x")
    result = cli("init", str(tmp_path / "a-file"))
    assert result.exit_code == 1 and "is not a folder" in result.stderr


def test_validate_text_json_and_strict(proj: Path, cli: Any) -> None:
    ok = cli("validate", cwd=proj)
    assert ok.exit_code == 0 and ok.stdout.startswith("ok: 0 error(s)")

    skill = proj / "registries/skills/project/example-skill.yaml"
    text = skill.read_text(encoding="utf-8").replace("- title: Recovery", "- title: Afterwards")
    skill.write_text(text, encoding="utf-8")
    warn = cli("validate", cwd=proj)
    assert warn.exit_code == 0 and "ORK103" not in warn.stdout and "--show-warnings" in warn.stdout
    shown = cli("validate", "--show-warnings", cwd=proj)
    assert shown.exit_code == 0
    assert "registries/skills/project/example-skill.yaml:1: warning ORK103:" in shown.stdout
    strict = cli("validate", "--strict", cwd=proj)
    assert (
        strict.exit_code == 1
        and "ORK103" in strict.stdout
        and strict.stdout.rstrip().splitlines()[-1].startswith("failed")
    )

    data = cli("validate", "--strict", "--format", "json", cwd=proj).json()
    assert data["ok"] is False and data["warnings"] == 1
    assert data["findings"][0] == {
        "file": "registries/skills/project/example-skill.yaml",
        "line": 1,
        "severity": "warning",
        "code": "ORK103",
        "message": "skill 'example-skill' (workflow) lacks the section 'Recovery'",
    }


def test_validate_reports_errors_with_file_line(proj: Path, cli: Any) -> None:
    write(proj, "registries/agents/dup.yaml", "name: dup\ndescription: x\nname: dup\n")
    result = cli("validate", cwd=proj)
    assert result.exit_code == 1
    assert "registries/agents/dup.yaml:3: error ORK001: duplicate key 'name'" in result.stdout


def test_validate_outside_a_project(tmp_path: Path, cli: Any) -> None:
    result = cli("validate", cwd=tmp_path)
    assert result.exit_code == 1 and "orkestra init" in result.stderr


def test_root_option(proj: Path, tmp_path: Path, cli: Any, monkeypatch: Any) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    here = cli("agents", "list", cwd=proj)
    there = cli("--root", str(proj), "agents", "list", cwd=elsewhere)
    assert there.exit_code == 0, there.stderr
    assert there.stdout == here.stdout
    assert [a["name"] for a in there.json()["agents"]] == ["example-agent"]
    status = cli("--root", str(proj), "system", "status", cwd=elsewhere).json()
    assert status["root"] == str(proj.resolve())
    assert cli("agents", "list", cwd=elsewhere).exit_code == 1  # without --root: no project here
    monkeypatch.setenv("ORKESTRA_ROOT", str(proj))
    assert cli("agents", "list", cwd=elsewhere).stdout == here.stdout


@pytest.mark.parametrize(
    "command",
    [
        ("agents", "list"),
        ("notes", "check"),
        ("events", "summary"),
        ("mine", "status"),
        ("search", "x"),
    ],
)
@pytest.mark.parametrize("how", ["option", "env"])
def test_a_named_root_without_registries_is_refused_by_every_group(
    tmp_path: Path, cli: Any, monkeypatch: Any, command: tuple[str, ...], how: str
) -> None:
    """One root finder: --root / ORKESTRA_ROOT naming a folder without registries/ is exit 1."""
    bare = tmp_path / "bare"
    bare.mkdir()
    if how == "env":
        monkeypatch.setenv("ORKESTRA_ROOT", str(bare))
        result = cli(*command, cwd=bare)
    else:
        result = cli("--root", str(bare), *command, cwd=bare)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert f"no registries/ folder in {bare}" in result.stderr
    assert not (bare / ".orkestra").exists()


def test_system_status(proj: Path, cli: Any) -> None:
    data = cli("system", "status", cwd=proj).json()
    assert data["healthy"] is True
    counts = data  # the counts sit at the top level (§5), beside the nested sections
    assert list(counts)[3:8] == [
        "agents",
        "skills_internal",
        "skills_vendor",
        "skills_total",
        "dormant_skills",
    ]
    assert counts["agents"] == 1 and counts["skills_total"] == 1 and counts["truths"] == 1
    assert counts["decisions"] == 1 and counts["notes"] == 0
    table = cli("system", "status", "--format", "table", cwd=proj)
    assert (
        table.exit_code == 0 and "skills_total" in table.stdout and "render.drift" in table.stdout
    )


def test_agents_list_and_info(proj: Path, cli: Any) -> None:
    rows = cli("agents", "list", cwd=proj).json()["agents"]
    assert [r["name"] for r in rows] == ["example-agent"]
    info = cli("agents", "info", "example-agent", cwd=proj).json()
    assert info["tools"] == ["Read", "Grep", "Glob"]
    assert info["skills"] == [
        {
            "name": "example-skill",
            "from": ["scope:example"],
            "layer": "K4",
            "description": "Example workflow skill. Use when you want to see the shape of a skill before writing one.",
            "exists": True,
        }
    ]
    assert info["domains"][0]["files"] == [
        "decisions.md",
        "patterns.md",
        "anti-patterns.md",
        "evolution.md",
    ]
    assert (
        info["identity"][0]["name"] == "architect"
        and info["path"] == "registries/agents/example-agent.yaml"
    )
    missing = cli("agents", "info", "example-agnet", cwd=proj)
    assert missing.exit_code == 1 and "did you mean example-agent" in missing.stderr
    as_json = cli("agents", "info", "nope", "--format", "json", cwd=proj)
    assert json.loads(as_json.stderr)["error"]["code"] == "not_found"


def test_skills_scopes_truths_decisions(proj: Path, cli: Any) -> None:
    assert [
        s["name"] for s in cli("skills", "list", "--layer", "K4", cwd=proj).json()["skills"]
    ] == ["example-skill"]
    assert cli("skills", "list", "--layer", "K3", cwd=proj).json() == {"skills": [], "total": 0}
    assert cli("skills", "list", "--layer", "K9", cwd=proj).exit_code == 2
    info = cli("skills", "info", "example-skill", cwd=proj).json()
    assert info["sections"] == ["When to use", "Steps", "Success criteria", "Recovery"] and info[
        "agents"
    ] == ["example-agent"]
    scope = cli("scopes", "info", "example", cwd=proj).json()
    assert scope["agents"] == ["example-agent"] and scope["skills"][0]["via"] == "primary_skills"
    assert cli("scopes", "list", cwd=proj).json()["scopes"][0]["dormant"] is False
    assert [
        t["id"] for t in cli("truths", "list", "--status", "current", cwd=proj).json()["truths"]
    ] == ["GT-PRJ-001"]
    assert cli("truths", "list", "--status", "deprecated", cwd=proj).json()["truths"] == []
    assert cli("truths", "list", "--status", "nope", cwd=proj).exit_code == 2
    assert cli("truths", "info", "GT-PRJ-001", cwd=proj).json()["line"] == 7
    assert len(cli("decisions", "list", "--limit", "1", cwd=proj).json()["decisions"]) == 1
    assert cli("decisions", "list", "--limit", "0", cwd=proj).exit_code == 2
    assert cli("decisions", "info", "DEC-AR-001", cwd=proj).json()["domain"] == "architecture"
    table = cli("decisions", "list", "--format", "table", cwd=proj)
    assert "DEC-AR-001" in table.stdout


def test_usage_errors_exit_2(proj: Path, cli: Any) -> None:
    assert cli("nosuch", cwd=proj).exit_code == 2
    assert cli("agents", "list", "--format", "xml", cwd=proj).exit_code == 2


def test_unexpected_error_exit_3_with_log(
    proj: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.registry import inventory

    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(inventory, "agents_list", boom)
    result = cli("agents", "list", cwd=proj)
    assert result.exit_code == 3
    assert len(result.stderr.strip().splitlines()) == 1 and "kaboom" in result.stderr
    log = Path(result.stderr.split("traceback in ")[1].rstrip(")\n"))
    assert "Traceback" in log.read_text(encoding="utf-8")


def test_version_and_help(cli: Any) -> None:
    version = cli("--version")
    assert version.exit_code == 0 and version.stdout.startswith("orkestra ")
    helped = cli("--help")
    assert helped.exit_code == 0 and "validate" in helped.stdout and "system" in helped.stdout


def test_installed_executable(proj: Path) -> None:
    exe = shutil.which("orkestra")
    assert exe, "orkestra is not installed on PATH"
    result = subprocess.run(
        [exe, "system", "status"], cwd=proj, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["agents"] == 1
    bad = subprocess.run(
        [exe, "agents", "info", "x"], cwd=proj, capture_output=True, text=True, check=False
    )
    assert bad.returncode == 1 and bad.stderr.startswith("orkestra: ")


def test_system_status_reports_render_drift(proj: Path, cli: Any) -> None:
    before = cli("system", "status", cwd=proj).json()["render"]
    assert before["drift"] is True and before["created"] > 0 and before["last_sync"] is None
    assert cli("sync", cwd=proj).exit_code == 0
    after = cli("system", "status", cwd=proj).json()["render"]
    assert after["drift"] is False and after["last_sync"] is not None
    write(proj, "registries/agents/broken.yaml", "name: broken\n")
    unhealthy = cli("system", "status", cwd=proj)
    broken = unhealthy.json()  # the whole report, as on a healthy project
    assert broken["healthy"] is False and broken["render"]["drift"] is None
    assert unhealthy.exit_code == 1  # as `validate`: `system status && ...` stops here
    (proj / "registries/agents/broken.yaml").unlink()
    assert cli("system", "status", cwd=proj).exit_code == 0


@pytest.mark.parametrize("flags", [["--format", "json"], ["-f", "json"], ["--format=json"]])
def test_json_errors_for_every_spelling(proj: Path, cli: Any, flags: list[str]) -> None:
    result = cli("agents", "info", "nope", *flags, cwd=proj)
    assert result.exit_code == 1 and json.loads(result.stderr)["error"]["code"] == "not_found"


def test_init_marks_the_usage_log_of_the_configured_knowledge_folder(
    tmp_path: Path, cli: Any
) -> None:
    """`init --force` in a project whose knowledge lives in docs/kb wrote the union-merge line
    for knowledge/.usage.jsonl, a file that never exists there: the real usage log conflicted
    at every merge of two branches' reads."""
    root = tmp_path / "kb"
    write(root, "registries/orkestra.yaml", "project: kb\nknowledge:\n  path: docs/kb/\n")
    assert cli("init", str(root), "--force").exit_code == 0
    lines = (root / ".gitattributes").read_text(encoding="utf-8").splitlines()
    assert "docs/kb/.usage.jsonl merge=union" in lines
    assert "knowledge/.usage.jsonl merge=union" not in lines
