"""Each client loads what the targets render, offline, with zero errors (one test per client:
starting a client takes seconds). Skipped with the reason when a client is not installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from skills_ref.validator import validate as agentskills_validate

from tests.render.targets import clients as cl
from tests.render.targets.test_redteam2_edge_content import edge_project


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # with the red-team edge content (quotes, colons, `---`, unicode, long descriptions)
    root = edge_project(tmp_path_factory.mktemp("clientcheck") / "proj")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def _skills(root: Path) -> set[str]:
    return {p.name for p in (root / ".agents/skills").iterdir()}


def test_codex_loads_skills_agents_and_the_agents_md_block(project: Path, tmp_path: Path) -> None:
    exe = cl.binary("codex", "ORKESTRA_CODEX_BIN")
    home = tmp_path / "codex-home"
    home.mkdir()
    (home / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    from orkestra.hooks.install import install

    install(project, clients=("codex",))
    server = cl.AppServer(exe, project, home)
    try:
        listed = server.call("skills/list", {"cwds": [str(project)], "forceReload": True})
        hooks = server.call("hooks/list", {"cwds": [str(project)]})
    finally:
        server.close()
    (found,) = hooks["data"]
    assert found["errors"] == [] and found["warnings"] == []
    ours = {h["eventName"] for h in found["hooks"] if h["source"] == "project"}
    assert ours == {"sessionStart", "postToolUse", "stop"}
    assert all("ORKESTRA_AGENT_TOOL=codex-cli" in h["command"] for h in found["hooks"])
    (entry,) = listed["data"]
    assert entry.get("errors", []) == []
    repo = {s["name"] for s in entry["skills"] if s["scope"] == "repo"}
    assert repo == _skills(project)
    done = cl.run([exe, "debug", "prompt-input"], project, home, CODEX_HOME=str(home))
    assert done.returncode == 0, done.stderr
    assert "<!-- orkestra:begin" in done.stdout and "Simplicity first" in done.stdout
    roles = done.stdout.split("Available roles:", 1)[1]
    for path in (project / ".codex/agents").iterdir():
        assert f"{path.stem}: {{" in roles, path.stem


def test_copilot_lists_every_skill_once(project: Path, tmp_path: Path) -> None:
    exe = cl.binary("copilot", "ORKESTRA_COPILOT_BIN")
    done = cl.run([exe, "skill", "list"], project, tmp_path)
    assert done.returncode == 0, done.stderr
    section = done.stdout.split("Project skills:", 1)[1].split("\n\n", 1)[0]
    names = [line.split(" - ", 1)[0].strip() for line in section.strip().splitlines()]
    # each skill once, though both .claude/skills and .agents/skills hold it (Copilot lists
    # .claude/commands as skills too)
    assert len(names) == len(set(names)) and _skills(project) <= set(names)
    assert set(names) - _skills(project) == {
        p.stem for p in (project / ".claude/commands").iterdir()
    }
    assert "error" not in done.stdout.lower() + done.stderr.lower()
    listed = cl.run([exe, "instruction", "list"], project, tmp_path)
    assert ".github/copilot-instructions.md" in listed.stdout


def test_gemini_loads_every_agent_with_its_strict_schema(project: Path, tmp_path: Path) -> None:
    exe = cl.binary("gemini", "ORKESTRA_GEMINI_BIN")
    if shutil.which("node") is None:
        pytest.skip("node not found: gemini check skipped")
    result = cl.gemini_load_agents(exe, project / ".gemini/agents", project / ".agents/skills")
    assert result["errors"] == []
    assert sorted(result["skills"]) == sorted(_skills(project))
    assert sorted(result["agents"]) == sorted(
        p.stem for p in (project / ".gemini/agents").iterdir()
    )
    # the loader is strict: an unknown key is rejected (so the check can fail)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "x.md").write_text("---\nname: x\ndescription: d\ncolor: red\n---\nbody\n")
    assert "color" in " ".join(cl.gemini_load_agents(exe, bad)["errors"])


def test_agent_skills_reference_validator_accepts_every_skill_folder(project: Path) -> None:
    for base in (".agents/skills", ".claude/skills"):
        for folder in sorted((project / base).iterdir()):
            assert agentskills_validate(folder.resolve()) == [], folder
