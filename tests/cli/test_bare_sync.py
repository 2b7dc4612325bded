"""A bare `orkestra sync` runs before typer loads (`cli.bare`) and answers exactly as the typer
command does: the same output, exit code and error report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from orkestra.scaffold import init_project

NO_TYPER = (
    "import sys; from orkestra.cli.entry import main; code = main(sys.argv[1:]); "
    "print('typer' in sys.modules, file=sys.stderr); sys.exit(code)"
)


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    init_project(root)
    return root


def _both(cli: Any, root: Path) -> tuple[Any, Any]:
    """A bare `sync` (the shortcut) and `--root <root> sync` (typer), from inside `root`, each
    on its own copy of the project as it is now."""
    import shutil

    other = root.parent / f"{root.name}-typer"
    shutil.rmtree(other, ignore_errors=True)
    shutil.copytree(root, other, symlinks=True)
    bare = cli("sync", cwd=root)
    typed = cli("--root", str(other), "sync", cwd=other)
    return bare, typed


def test_a_bare_sync_answers_as_the_typer_command_writes_then_finds_nothing(
    cli: Any, proj: Path
) -> None:
    for _ in range(2):  # the first writes, the second is a no-op
        bare, typed = _both(cli, proj)
        assert (bare.exit_code, bare.stdout, bare.stderr) == (
            typed.exit_code,
            typed.stdout.replace(f"{proj.name}-typer", proj.name),
            typed.stderr,
        )
    assert json.loads(bare.stdout)["written"] == 0


def test_a_bare_sync_reports_errors_as_the_typer_command(cli: Any, proj: Path) -> None:
    agent = proj / "registries" / "agents" / "example-agent.yaml"
    agent.write_text(agent.read_text(encoding="utf-8") + "tools: [NoSuchTool\n", "utf-8")
    bare, typed = _both(cli, proj)
    assert bare.exit_code == typed.exit_code != 0
    assert bare.stderr == typed.stderr and "registries/agents/example-agent.yaml" in bare.stderr
    assert bare.stdout == typed.stdout == ""


def test_a_bare_sync_finds_a_conflict_as_the_typer_command(cli: Any, proj: Path) -> None:
    cli("sync", cwd=proj)
    out = proj / ".claude" / "agents" / "example-agent.md"
    out.write_text("mine\n", encoding="utf-8")
    agent = proj / "registries" / "agents" / "example-agent.yaml"
    agent.write_text(agent.read_text(encoding="utf-8").replace("Replace this", "Change"), "utf-8")
    bare, typed = _both(cli, proj)
    assert bare.exit_code == typed.exit_code != 0
    assert bare.stderr == typed.stderr and "example-agent.md" in bare.stderr
    assert out.read_text(encoding="utf-8") == "mine\n"


def test_outside_a_project_a_bare_sync_says_so(cli: Any, tmp_path: Path) -> None:
    result = cli("sync", cwd=tmp_path)
    assert result.exit_code != 0 and "no registries/ folder" in result.stderr


def test_a_bare_sync_does_not_load_typer_and_anything_more_does(proj: Path) -> None:
    def typer_loaded(*args: str, env: dict[str, str] | None = None) -> bool:
        done = subprocess.run([sys.executable, "-c", NO_TYPER, *args], cwd=proj, env=env,
                              capture_output=True, text=True, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stderr.strip().splitlines()[-1] == "True"

    import os

    assert not typer_loaded("sync")
    assert typer_loaded("sync", "--check")
    assert typer_loaded("--root", str(proj), "sync")
    assert typer_loaded("sync", env={**os.environ, "ORKESTRA_ROOT": str(proj)})
