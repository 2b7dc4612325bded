"""The import-linter contracts of pyproject.toml hold for the package, and they catch a break.

`lint-imports` runs in a subprocess: once on the real sources, then on a copy of them with one
offending module added, to show that each rule is really checked (lazy imports included).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "orkestra"


def lint(src: Path) -> subprocess.CompletedProcess[str]:
    """`lint-imports` with the project's contracts, importing `orkestra` from `src`."""
    exe = Path(sys.executable).with_name("lint-imports")
    env = {**os.environ, "PYTHONPATH": str(src), "NO_COLOR": "1"}
    return subprocess.run(
        [str(exe), str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=src,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_package_keeps_every_contract() -> None:
    result = lint(ROOT / "src")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


BREAKS = {
    "a lower layer imports a higher one (inside a function)": (
        "registry/_probe.py",
        "def status() -> None:\n    from orkestra.render import sync  # noqa: F401\n",
        "orkestra.registry is not allowed to import orkestra.render",
    ),
    "a domain package imports the CLI": (
        "mining/_probe.py",
        "from orkestra.cli import entry  # noqa: F401\n",
        "orkestra.mining is not allowed to import orkestra.cli",
    ),
    "two domain packages import each other": (
        "knowledge/_probe.py",
        "from orkestra.search import document  # noqa: F401\n",
        "orkestra.knowledge is not allowed to import orkestra.search",
    ),
    "independent domain packages import each other": (
        "render/_probe.py",
        "from orkestra.importer import parse  # noqa: F401\n",
        "orkestra.render is not allowed to import orkestra.importer",
    ),
    "the hooks import a third-party package": (
        "hooks/_probe.py",
        "import yaml  # noqa: F401\n",
        "orkestra.hooks is not allowed to import yaml",
    ),
    "the hooks import the registry": (
        "hooks/_probe.py",
        "from orkestra.registry import loader  # noqa: F401\n",
        "orkestra.hooks is not allowed to import orkestra.registry",
    ),
    "a new top-level module is in no layer": (
        "extra.py",
        '"""Not placed in any layer."""\n',
        "orkestra.extra",
    ),
}


@pytest.mark.parametrize("case", sorted(BREAKS))
def test_a_break_is_reported(case: str, tmp_path: Path) -> None:
    rel, code, message = BREAKS[case]
    copy = tmp_path / "orkestra"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / rel).write_text(code, encoding="utf-8")
    result = lint(tmp_path)
    assert result.returncode != 0, result.stdout
    assert message in result.stdout, result.stdout
