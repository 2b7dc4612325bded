"""Red-team cases for `orkestra import` (PRODUCT.md §4 Import, §13): what the user is told to do
after a refusal must work, and entries of one source that clash are not dropped quietly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.importer.run import import_tree
from tests.conftest import write

SKILL = "plugins/alpha/skills/pdf-tools"
COPY = "registries/skills/project/pdf-tools"


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted((root / "registries").rglob("*"))
        if p.is_file()
    }


def test_the_rerun_after_fixing_a_refused_skill_file_adds_it(
    market: Path, target: Path, tmp_path: Path
) -> None:
    secret = write(tmp_path, "outside/extract.py", "print('secret')\n")
    (market / SKILL / "scripts/extract.py").symlink_to(secret)
    report = import_tree(target, market)
    refused = {r["path"]: r["reason"] for r in report.refused}
    assert "outside" in refused[f"{SKILL}/scripts/extract.py"]
    assert "pdf-tools" in {s["name"] for s in report.skills}
    assert not (target / COPY / "scripts/extract.py").exists()
    assert any("'pdf-tools' was imported without scripts/extract.py" in h for h in report.hints)
    yaml_before = (target / f"{COPY}.yaml").read_bytes()
    # the fix the message asks for, then the rerun the hint asks for: the file comes in
    (market / SKILL / "scripts/extract.py").unlink()
    write(market, f"{SKILL}/scripts/extract.py", "print('fixed')\n")
    again = import_tree(target, market)
    assert again.refused == []
    assert [(s["name"], s["completed"]) for s in again.skills] == [
        ("pdf-tools", ["scripts/extract.py"])
    ]
    assert (target / COPY / "scripts/extract.py").read_text() == "print('fixed')\n"
    assert (target / f"{COPY}.yaml").read_bytes() == yaml_before
    assert "pdf-tools" not in {c["name"] for c in again.collisions if c["kind"] == "skill"}
    # complete now: a third run changes nothing and reports the usual collision
    before = _tree(target)
    third = import_tree(target, market)
    assert third.skills == [] and "pdf-tools" in {c["name"] for c in third.collisions}
    assert _tree(target) == before


def test_a_partly_imported_skill_the_user_edited_is_not_completed(
    market: Path, target: Path, cli: Any
) -> None:
    write(market, f"{SKILL}/references/aux.md", "# aux\n")
    first = cli("import", str(market), cwd=target)
    assert first.exit_code == 1
    assert f"{SKILL}/references/aux.md: 'aux.md' is a Windows device name" in first.stderr
    assert any(
        "'pdf-tools' was imported without references/aux.md" in h for h in first.json()["hints"]
    )
    (market / SKILL / "references/aux.md").rename(market / SKILL / "references/auxiliary.md")
    edited = target / COPY / "references/REFERENCE.md"
    edited.write_text("# Reference, edited by the user\n")
    before = _tree(target)
    second = cli("import", str(market), cwd=target)
    assert second.exit_code == 0
    data = second.json()
    assert data["skills"] == []
    assert {"kind": "skill", "name": "pdf-tools", "from": f"{SKILL}/SKILL.md",
            "existing": f"{COPY}.yaml:1"} in data["collisions"]  # fmt: skip
    assert _tree(target) == before  # the user's edit kept, nothing added beside it


def test_a_partly_imported_skill_whose_yaml_the_user_edited_is_not_completed(
    market: Path, target: Path
) -> None:
    write(market, f"{SKILL}/scripts/con.sh", "echo\n")
    assert "pdf-tools" in {s["name"] for s in import_tree(target, market).skills}
    yaml = target / f"{COPY}.yaml"
    yaml.write_text(yaml.read_text() + "# reviewed by the team\n")
    (market / SKILL / "scripts/con.sh").rename(market / SKILL / "scripts/console.sh")
    before = _tree(target)
    again = import_tree(target, market)
    assert again.skills == [] and "pdf-tools" in {c["name"] for c in again.collisions}
    assert _tree(target) == before


COMPONENT = (
    "---\ndescription: Create a component\nallowed-tools: Read, Write\n---\nCreate $ARGUMENTS.\n"
)


def test_namespaced_commands_in_subfolders_are_imported_by_their_name(
    market: Path, target: Path, cli: Any
) -> None:
    # Claude Code reads `commands/frontend/component.md` as `/component` (project:frontend)
    write(market, ".claude/commands/frontend/component.md", COMPONENT)
    write(market, "plugins/alpha/commands/git/commit.md", "Commit the staged work.\n")
    write(market, ".rulesync/rules/overview.md", "# Overview\n")
    result = cli("import", str(market), cwd=target)
    assert result.exit_code == 0, result.stderr
    commands = {c["name"]: c["from"] for c in result.json()["commands"]}
    assert commands == {
        "component": ".claude/commands/frontend/component.md",
        "commit": "plugins/alpha/commands/git/commit.md",
    }
    assert cli("sync", cwd=target).exit_code == 0
    rendered = (target / ".claude/commands/component.md").read_text()
    assert 'description: "Create a component"' in rendered and "Create $ARGUMENTS." in rendered
    assert "Commit the staged work." in (target / ".claude/commands/commit.md").read_text()


NESTED = "---\nname: {name}\ndescription: Reviews {name}. Use when reviewing.\ntools: Read\n---\n{name} body.\n"


def test_agents_in_subfolders_of_an_agents_folder_are_imported(
    market: Path, target: Path, cli: Any
) -> None:
    # Claude Code finds `.claude/agents/review/x.md` too (its identity is `name`,
    # anthropics/claude-code#58950); a plugin's `agents/` is read the same way
    write(
        market,
        ".claude/agents/review/security-reviewer.md",
        NESTED.format(name="security-reviewer"),
    )
    write(market, "plugins/alpha/agents/team/alpha-lead.md", NESTED.format(name="alpha-lead"))
    write(market, "docs/agents/guide/page.md", "---\ntitle: A page of docs\n---\nText.\n")
    result = cli("import", str(market), cwd=target)
    assert result.exit_code == 0, result.stderr
    agents = {a["name"]: a for a in result.json()["agents"]}
    assert agents["security-reviewer"]["from"] == ".claude/agents/review/security-reviewer.md"
    assert agents["alpha-lead"]["from"] == "plugins/alpha/agents/team/alpha-lead.md"
    assert "page" not in agents
    lead = (target / "registries/agents/alpha-lead.yaml").read_text()
    assert "category: alpha" in lead and "scopes:\n  - alpha" in lead  # its plugin's scope
    assert cli("sync", cwd=target).exit_code == 0
    assert "security-reviewer body." in (target / ".claude/agents/security-reviewer.md").read_text()


def test_every_refusal_names_the_line_where_it_can_and_what_to_do(
    market: Path, target: Path, tmp_path: Path, cli: Any
) -> None:
    """Bad input gets the file, the line and the fix: an undecodable byte and a NUL byte are
    refused at their line, and every reason says what to do, on stderr as in the JSON."""
    import os

    agents = market / ".claude/agents"
    write(market, ".claude/agents/latin.md", "")
    (agents / "latin.md").write_bytes(b"---\nname: latin\ndescription: caf\xe9\n---\nx\n")
    (agents / "nul.md").write_bytes(b"---\nname: nul\ndescription: x\n---\n\nbody\x00\n")
    (agents / "out.md").symlink_to(write(tmp_path, "outside.md", "---\nname: o\n---\n"))
    os.mkfifo(agents / "pipe.md")
    (agents / "big.md").write_bytes(b"---\nname: big\n---\n" + b"x" * (1024 * 1024 + 1))
    write(market, ".codex/agents/c1.toml", 'name = "c1"\ndescription = "unterminated\n')
    (market / "plugins/alpha/skills/linked").symlink_to(tmp_path, target_is_directory=True)
    result = cli("import", str(market), cwd=target)
    assert result.exit_code == 1
    refused = {r["path"]: r for r in result.json()["refused"]}
    assert refused[".claude/agents/latin.md"]["line"] == 3
    assert "byte 0xe9" in refused[".claude/agents/latin.md"]["reason"]
    assert refused[".claude/agents/nul.md"]["line"] == 6
    assert refused[".codex/agents/c1.toml"]["line"] == 2
    fixes = ("import again", "import the folder", "put a regular file", "put a real folder",
             "shorten it")  # fmt: skip
    for path in (".claude/agents/latin.md", ".claude/agents/nul.md", ".claude/agents/out.md",
                 ".claude/agents/pipe.md", ".claude/agents/big.md", ".codex/agents/c1.toml",
                 "plugins/alpha/skills/linked"):  # fmt: skip
        assert any(fix in refused[path]["reason"] for fix in fixes), refused[path]
    assert ".claude/agents/latin.md:3: not UTF-8 text" in result.stderr
    assert result.stderr.rstrip().endswith(f"run `orkestra import {market}` again")


def test_a_rerun_that_changes_nothing_writes_nothing(market: Path, target: Path, cli: Any) -> None:
    """Every server of `.mcp.json` collides on the rerun: registries/mcp.yaml (planned again
    with the same text) is neither rewritten nor listed as written."""
    write(market, ".mcp.json", '{"mcpServers": {"github": {"command": "npx", "args": ["gh"]}}}')
    first = cli("import", str(market), cwd=target)
    assert "registries/mcp.yaml" in first.json()["written"], first.stderr
    marks = {p: p.stat().st_mtime_ns for p in (target / "registries").rglob("*") if p.is_file()}
    again = cli("import", str(market), cwd=target)
    assert again.json()["written"] == []
    assert "github" in {c["name"] for c in again.json()["collisions"] if c["kind"] == "mcp"}
    assert {p: p.stat().st_mtime_ns for p in marks} == marks
