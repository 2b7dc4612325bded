"""Code map tests need the optional `code` extra; without it they skip with the reason."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from orkestra.codemap import languages
from tests.conftest import write

needs_tree_sitter = pytest.mark.skipif(
    not languages.available(),
    reason=f"tree-sitter is not installed ({languages.INSTALL_HINT})",
)

FILES = {
    "src/app/core.py": '''"""The core."""


def load_config(path):
    return open(path).read()


class Engine:
    def start(self):
        return load_config("x")

    def stop(self):
        self.start()
''',
    "src/app/cli.py": """from app.core import Engine, load_config as read_conf


def main():
    engine = Engine()
    engine.start()
    return read_conf("y")
""",
    "src/app/extra.py": """from app import cli


def run_twice():
    cli.main()
    cli.main()
""",
    "vendor/lib/core.py": "def load_config(path):\n    return path\n",
    "notes.md": "# Notes\n\nThe engine reads its config with load_config.\n",
    "ignored.py": "def hidden():\n    pass\n",
    ".gitignore": "ignored.py\n",
}


def git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}  # fmt: skip
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


@pytest.fixture
def code_project(project: Path) -> Path:
    """A small git project with Python code, a vendored copy, a note and an ignored file."""
    for rel, text in FILES.items():
        write(project, rel, text)
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "init")
    return project
