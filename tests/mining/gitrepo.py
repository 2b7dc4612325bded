"""Real git repositories for mining tests: pinned identity and dates, isolated from user config."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

BASE = 1_767_225_600  # 2026-01-01T00:00:00Z


def git_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="Ada Tester",
        GIT_AUTHOR_EMAIL="ada@example.com",
        GIT_COMMITTER_NAME="Ada Tester",
        GIT_COMMITTER_EMAIL="ada@example.com",
    )
    return env


class GitRepo:
    """A repository at `path` whose commits get dates one hour apart from 2026-01-01."""

    def __init__(self, path: Path, *, init: bool = True) -> None:
        self.path = path
        self.tick = 0
        if init:
            path.mkdir(parents=True, exist_ok=True)
            self.git("init", "-q", "-b", "main")

    def git(self, *args: str, date: int | None = None) -> str:
        env = git_env()
        stamp = f"@{date if date is not None else BASE + 3600 * self.tick} +0000"
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = stamp
        out = subprocess.run(
            ["git", *args], cwd=self.path, env=env, capture_output=True, text=True, check=False
        )
        if out.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed: {out.stderr}")
        return out.stdout

    def commit(self, message: str, files: dict[str, str] | None = None) -> str:
        """Write `files` (path -> content; default: one file named after the tick), commit."""
        self.tick += 1
        for rel, text in (files or {f"file{self.tick}.txt": f"{self.tick}\n"}).items():
            target = self.path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            self.git("add", "--", rel)
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.head()

    def head(self) -> str:
        return self.git("rev-parse", "HEAD").strip()

    def tag(self, name: str, rev: str = "HEAD", *, message: str | None = None) -> None:
        self.tick += 1
        if message:
            self.git("tag", "-a", name, "-m", message, rev)
        else:
            self.git("tag", name, rev)
