"""Run the real clients' validators on a rendered tree (skipped when a client is missing)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

INSTALL = "npm install --prefix DIR @anthropic-ai/claude-code; set ORKESTRA_CLAUDE_BIN=DIR/node_modules/.bin/claude"


def claude_binary() -> str | None:
    """ORKESTRA_CLAUDE_BIN, else `claude` on PATH."""
    return os.environ.get("ORKESTRA_CLAUDE_BIN") or shutil.which("claude")


def assert_claude_accepts(root: Path, tmp_path: Path) -> str:
    """Wrap root/.claude as a plugin (copies, not links) and run `claude plugin validate
    --strict`: zero errors and zero warnings. Returns the validator's output."""
    exe = claude_binary()
    if exe is None:
        pytest.skip(f"Claude Code CLI not found ({INSTALL})")
    plugin = tmp_path / "plugin"
    (plugin / ".claude-plugin").mkdir(parents=True)
    manifest = {
        "name": "rendered",
        "version": "0.1.0",
        "description": "Rendered by orkestra sync",
        "author": {"name": "Orkestra tests"},
    }
    (plugin / ".claude-plugin/plugin.json").write_text(json.dumps(manifest))
    for part in ("agents", "skills", "commands"):
        if (root / ".claude" / part).is_dir():
            shutil.copytree(root / ".claude" / part, plugin / part, symlinks=False)
    env = {**os.environ, "DISABLE_AUTOUPDATER": "1", "CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")}
    done = subprocess.run(
        [exe, "plugin", "validate", "--strict", str(plugin)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env=env,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "Validation passed" in out
    assert "warning" not in out.lower() and "error" not in out.lower(), out
    return out
