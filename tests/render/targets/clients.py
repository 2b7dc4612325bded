"""The real clients, run offline on a rendered tree (each test skips with the reason when its
client is not installed; `.ci/run` installs them pinned under .ci-cache/)."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

CACHE = Path(__file__).resolve().parents[3] / ".ci-cache"


def binary(client: str, env: str) -> str:
    """The client's executable: $ENV, else .ci-cache/<client>, else PATH; skip when absent."""
    found = os.environ.get(env)
    cached = CACHE / client / "node_modules/.bin" / client
    if not found and cached.exists():
        found = str(cached)
    found = found or shutil.which(client)
    if not found:
        pytest.skip(f"{client} CLI not installed (run .ci/run, or set {env}): client check skipped")
    return found


def run(
    args: list[str], cwd: Path, home: Path, **extra_env: str
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "NO_COLOR": "1", **extra_env}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
                          check=False)  # fmt: skip


class AppServer:
    """`codex app-server` over JSON-RPC (stdio, one JSON message a line)."""

    def __init__(self, exe: str, cwd: Path, codex_home: Path) -> None:
        env = {**os.environ, "CODEX_HOME": str(codex_home), "HOME": str(codex_home)}
        self.proc = subprocess.Popen(
            [exe, "app-server"], cwd=cwd, env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.next_id = 0
        self.call("initialize", {"clientInfo": {"name": "orkestra-tests", "version": "1"}})
        self.send({"method": "initialized"})

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def call(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            message = json.loads(line)
            if message.get("id") == self.next_id:
                assert "error" not in message, message
                return message["result"]
        raise AssertionError(f"codex app-server closed before answering {method}")

    def close(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.proc.stdout.close()


@functools.lru_cache(maxsize=2)
def gemini_loader(exe: str) -> Path:
    """The gemini-cli bundle chunk exporting `loadAgentsFromDirectory` (the client's own agent
    loader, strict schema included)."""
    bundle = Path(os.path.realpath(exe)).parent
    for chunk in sorted(bundle.glob("*.js")):
        text = chunk.read_text(encoding="utf-8", errors="replace")
        if "async function loadAgentsFromDirectory(" in text and "loadAgentsFromDirectory," in text:
            return chunk
    pytest.skip(f"gemini-cli bundle in {bundle} has no loadAgentsFromDirectory export")


GEMINI_SCRIPT = """
const m = await import(process.argv[1]);
const r = await m.loadAgentsFromDirectory(process.argv[2]);
const skills = await m.loadSkillsFromDir(process.argv[3]);
console.log(JSON.stringify({agents: r.agents.map(a => a.name),
                            errors: r.errors.map(e => String(e.message)),
                            skills: skills.map(s => s.name)}));
process.exit(0);
"""


def gemini_load_agents(exe: str, folder: Path, skills: Path | None = None) -> dict[str, list[str]]:
    """Load every agent of `folder` (and the skills of `skills`) with gemini-cli's own loaders:
    {agents, errors, skills}."""
    chunk = gemini_loader(exe)
    where = str(skills or folder / "no-skills")
    done = subprocess.run(
        ["node", "--input-type=module", "-e", GEMINI_SCRIPT, str(chunk), str(folder), where],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: dict[str, list[str]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result
