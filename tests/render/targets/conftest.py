"""A registry for every client target: every kind, MCP servers and tools, per-client models, a
per-agent client list and a tool no client but Claude and Copilot can express."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.render.conftest import TODAY, build_rich, put

ALL = ["claude", "agents-md", "codex", "copilot", "cursor", "gemini"]


def build_clients(root: Path) -> Path:
    """`build_rich` with all six targets, registries/mcp.yaml and two client-aware agents."""
    build_rich(root)
    reg = "registries"
    config = {
        "project": "rich",
        "targets": ALL,
        "vendor_roots": [
            {"path": "vendor/linked", "provider": "acme", "default_scopes": ["database"]},
            {"path": "vendor/copied", "provider": "other", "default_scopes": ["database"],
             "link": "copy"},
        ],
        "render": {"claude_md": True},
    }  # fmt: skip
    put(root, f"{reg}/orkestra.yaml", config)
    put(
        root,
        f"{reg}/tools.yaml",
        {
            "builtin": ["Read", "Write", "Edit", "Grep", "Glob", "Bash", "Agent", "TodoWrite",
                        "NotebookEdit", "WebFetch"],
            "mcp": {"github": ["get_pr", "list_issues"], "data_lake": ["query"]},
            "guides": {"Bash": "Quote paths. Prefer `rg` over grep.\n"},
        },
    )  # fmt: skip
    put(
        root,
        f"{reg}/mcp.yaml",
        {
            "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
                       "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}},
            "data_lake": {"url": "https://mcp.example.com/lake",
                          "headers": {"Authorization": "Bearer ${LAKE_TOKEN}"}},
        },
    )  # fmt: skip
    put(
        root,
        f"{reg}/agents/notebook-analyst.yaml",
        {
            "name": "notebook-analyst",
            "description": "Analyses data notebooks. Use when a notebook or the data lake is involved.",
            "tools": ["Read", "Grep", "NotebookEdit", "WebFetch"],
            "mcp_tools": ["mcp__github__get_pr", "mcp__data_lake__query"],
            "models": {"codex": "gpt-5-codex", "gemini": "gemini-2.5-pro", "copilot": "sonnet"},
            "prompt": "Explain every number you report.\n",
        },
    )
    put(
        root,
        f"{reg}/agents/codex-reviewer.yaml",
        {
            "name": "codex-reviewer",
            "description": "Reviews diffs read-only.",
            "tools": ["Read", "Grep", "Glob"],
            "clients": ["claude", "codex"],
            "models": {"codex": "gpt-5-codex"},
            "prompt": "Review; never edit.\n",
        },
    )
    return root


@pytest.fixture
def clients(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ORKESTRA_TODAY", TODAY)
    return build_clients(tmp_path / "clients")
