"""`orkestra import` reads the MCP servers of every client's config (PRODUCT.md §4 Import): Cursor's
`.cursor/mcp.json`, VS Code's `.vscode/mcp.json` (`servers`), Gemini CLI's `.gemini/settings.json`
and Codex's `.codex/config.toml` (`[mcp_servers.<name>]`), into registries/mcp.yaml in its own
spelling, as it reads Claude Code's `.mcp.json`; one name defined differently by two of them is
refused at each one's line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.core import yamlio
from orkestra.importer.run import import_tree
from orkestra.registry.loader import load
from orkestra.render.targets import mcp_config
from tests.conftest import write

CURSOR = """{
  "mcpServers": {
    "linear": {
      "url": "https://mcp.linear.app/mcp",
      "headers": {"Authorization": "Bearer ${env:LINEAR_TOKEN}"}
    }
  }
}
"""
VSCODE = """{
  "inputs": [],
  "servers": {
    "playwright": {"type": "stdio", "command": "npx", "args": ["-y", "@playwright/mcp@latest"],
                   "env": {"DEBUG": "${env:DEBUG}"}}
  }
}
"""
GEMINI = """{
  "theme": "GitHub",
  "mcpServers": {
    "context7": {
      "httpUrl": "https://mcp.context7.com/mcp",
      "headers": {"CONTEXT7_API_KEY": "$CONTEXT7_API_KEY"},
      "timeout": 30000
    }
  }
}
"""
CODEX = """model = "gpt-5-codex"

[mcp_servers.github]
url = "https://api.githubcopilot.com/mcp/"
bearer_token_env_var = "GITHUB_PAT"
http_headers = { "X-Team" = "platform" }

[mcp_servers.postgres]
command = "uvx"
args = ["postgres-mcp", "--access-mode=restricted"]
env = { "PGHOST" = "localhost" }
env_vars = ["DATABASE_URI"]
startup_timeout_sec = 20
"""


def _client_configs(source: Path) -> None:
    write(source, ".cursor/mcp.json", CURSOR)
    write(source, ".vscode/mcp.json", VSCODE)
    write(source, ".gemini/settings.json", GEMINI)
    write(source, ".codex/config.toml", CODEX)


def test_every_clients_mcp_servers_come_into_mcp_yaml_in_its_spelling(
    tmp_path: Path, target: Path
) -> None:
    source = tmp_path / "source"
    _client_configs(source)
    report = import_tree(target, source)
    assert report.refused == [], report.refused
    servers = yamlio.loads((target / "registries/mcp.yaml").read_text(), "mcp.yaml")
    assert servers == {
        "linear": {
            "url": "https://mcp.linear.app/mcp",
            "headers": {"Authorization": "Bearer ${LINEAR_TOKEN}"},
        },
        "playwright": {
            "command": "npx",
            "args": ["-y", "@playwright/mcp@latest"],
            "env": {"DEBUG": "${DEBUG}"},
        },
        "context7": {
            "url": "https://mcp.context7.com/mcp",
            "headers": {"CONTEXT7_API_KEY": "$CONTEXT7_API_KEY"},
        },
        "github": {
            "url": "https://api.githubcopilot.com/mcp/",
            "headers": {"X-Team": "platform", "Authorization": "Bearer ${GITHUB_PAT}"},
        },
        "postgres": {
            "command": "uvx",
            "args": ["postgres-mcp", "--access-mode=restricted"],
            "env": {"PGHOST": "localhost", "DATABASE_URI": "${DATABASE_URI}"},
        },
    }
    froms = {s["name"]: s["from"] for s in report.mcp_servers}
    assert froms == {"linear": ".cursor/mcp.json", "playwright": ".vscode/mcp.json",
                     "context7": ".gemini/settings.json", "github": ".codex/config.toml",
                     "postgres": ".codex/config.toml"}  # fmt: skip
    skipped = {(s["path"], s["reason"]) for s in report.skipped}
    assert (".gemini/settings.json", "MCP server 'context7': timeout: no registry field, "
            "left out") in skipped  # fmt: skip
    assert (".codex/config.toml", "MCP server 'postgres': startup_timeout_sec: no registry "
            "field, left out") in skipped  # fmt: skip
    # rendered back for the client it came from, each entry is what the client had
    reg = load(target)
    codex_github = mcp_config.server_entry(reg.mcp_servers["github"], "codex")
    assert codex_github == {"url": "https://api.githubcopilot.com/mcp/",
                            "bearer_token_env_var": "GITHUB_PAT",
                            "http_headers": {"X-Team": "platform"}}  # fmt: skip
    cursor_linear = mcp_config.server_entry(reg.mcp_servers["linear"], "cursor")
    assert cursor_linear["headers"] == {"Authorization": "Bearer ${env:LINEAR_TOKEN}"}
    gemini = mcp_config.server_entry(reg.mcp_servers["context7"], "gemini")
    assert gemini["httpUrl"] == "https://mcp.context7.com/mcp"


def test_one_server_defined_differently_by_two_clients_is_refused_at_each_line(
    tmp_path: Path, target: Path, cli: Any
) -> None:
    source = tmp_path / "source"
    write(source, ".cursor/mcp.json", '{\n  "mcpServers": {\n    "github": {"command": "npx", '
          '"args": ["-y", "@acme/gh-mcp"]},\n    "same": {"command": "same-mcp"}\n  }\n}\n')  # fmt: skip
    write(source, ".codex/config.toml", '# ours\n\n[mcp_servers.same]\ncommand = "same-mcp"\n\n'
          '[mcp_servers.github]\ncommand = "docker"\nargs = ["run", "gh-mcp"]\n')  # fmt: skip
    result = cli("import", str(source), cwd=target)
    assert result.exit_code == 1, result.stderr
    refused = {r["path"]: r for r in result.json()["refused"]}
    assert refused[".cursor/mcp.json"]["line"] == 3
    assert refused[".codex/config.toml"]["line"] == 6
    assert "also defined by .codex/config.toml" in refused[".cursor/mcp.json"]["reason"]
    assert ".cursor/mcp.json:3" in result.stderr and ".codex/config.toml:6" in result.stderr
    assert [s["name"] for s in result.json()["mcp_servers"]] == ["same"]
    assert "github" not in load(target).mcp_servers


def test_a_clash_is_told_at_the_servers_entry_not_at_the_name_written_earlier(
    tmp_path: Path, target: Path, cli: Any
) -> None:
    """The name also stands earlier as another server's env key: the line is the entry's in
    the servers table (`jsonio.line_at`), not the first `"github":` in the text."""
    source = tmp_path / "source"
    write(source, ".cursor/mcp.json", '{\n  "mcpServers": {\n    "docs": {"command": "d", '
          '"env": {"github": "1"}},\n    "github": {"command": "npx"}\n  }\n}\n')  # fmt: skip
    write(source, ".vscode/mcp.json", '{\n  "inputs": [],\n  "servers": {\n    "github": '
          '{"command": "docker"}\n  }\n}\n')  # fmt: skip
    result = cli("import", str(source), cwd=target)
    assert result.exit_code == 1, result.stderr
    refused = {r["path"]: r for r in result.json()["refused"]}
    assert refused[".cursor/mcp.json"]["line"] == 4
    assert refused[".vscode/mcp.json"]["line"] == 4


def test_a_gemini_url_server_is_sse_and_refused_at_its_line(tmp_path: Path, target: Path) -> None:
    """Gemini CLI's `url` is the SSE transport (`httpUrl` is streamable HTTP): sync would write
    it back as `httpUrl`, and it would stop connecting."""
    source = tmp_path / "source"
    write(source, ".gemini/settings.json", '{\n  "mcpServers": {\n    "events": '
          '{"url": "https://mcp.example.com/sse"}\n  }\n}\n')  # fmt: skip
    report = import_tree(target, source)
    assert [(r["path"], r["line"]) for r in report.refused] == [(".gemini/settings.json", 3)]
    assert "SSE" in report.refused[0]["reason"]
    assert "events" not in load(target).mcp_servers


def test_a_broken_codex_config_is_refused_at_its_line(tmp_path: Path, target: Path) -> None:
    source = tmp_path / "source"
    write(source, ".codex/config.toml", '[mcp_servers.x]\ncommand = "npx\n')
    report = import_tree(target, source)
    assert [(r["path"], r["line"]) for r in report.refused] == [(".codex/config.toml", 2)]


def test_orkestras_own_server_entry_is_not_imported(tmp_path: Path, target: Path, cli: Any) -> None:
    """The `orkestra` entry `mcp: {serve: true}` writes serves the source project (its
    `--root`): imported, the next sync would point every client of this one at that project."""
    source = tmp_path / "source"
    entry = {"command": "/opt/venv/bin/orkestra",
             "args": ["--root", str(source), "mcp", "serve"]}  # fmt: skip
    import json

    write(source, ".mcp.json", json.dumps({"mcpServers": {"orkestra": entry,
                                                          "docs": {"command": "docs-mcp"}}}))  # fmt: skip
    write(source, ".codex/config.toml", '[mcp_servers.orkestra]\ncommand = "orkestra"\n'
          'args = ["--root", "/src", "mcp", "serve"]\n')  # fmt: skip
    result = cli("import", str(source), cwd=target)
    assert result.exit_code == 0, result.stderr
    assert sorted(load(target).mcp_servers) == ["docs"]
    skipped = {s["path"]: s["reason"] for s in result.json()["skipped"]}
    for rel in (".mcp.json", ".codex/config.toml"):
        assert "Orkestra's own" in skipped[rel] and "serve: true" in skipped[rel], rel


def test_servers_of_a_shape_no_client_reads_are_refused_at_their_line_not_a_crash(
    tmp_path: Path, target: Path, cli: Any
) -> None:
    source = tmp_path / "source"
    write(source, ".mcp.json", '{\n  "mcpServers": {\n    "e": {"command": "e", "env": ["A=1"]},\n'
          '    "f": 5,\n    "g": {"command": "g", "args": "-y pkg"}\n  }\n}\n')  # fmt: skip
    write(source, ".codex/config.toml", 'model = "o3"\n[mcp_servers]\nplain = { command = "p" }\n'
          '[mcp_servers."my-srv"]\ncommand = "m"\nenv = ["bad"]\n')  # fmt: skip
    result = cli("import", str(source), cwd=target)
    assert result.exit_code == 1, result.stderr
    assert "internal error" not in result.stderr
    refused = {(r["path"], r["line"]): r["reason"] for r in result.json()["refused"]}
    assert "`env` that is not a table" in refused[(".mcp.json", 3)]
    assert "is not an object" in refused[(".mcp.json", 4)]
    assert "`args` that are not a list" in refused[(".mcp.json", 5)]
    assert "`env` that is not a table" in refused[(".codex/config.toml", 4)]
    assert [s["name"] for s in result.json()["mcp_servers"]] == ["plain"]


def test_a_vscode_config_with_comments_is_refused_at_its_line_with_what_to_do(
    tmp_path: Path, target: Path
) -> None:
    source = tmp_path / "source"
    write(source, ".vscode/mcp.json", '{\n  // ours\n  "servers": {"a": {"command": "a"}}\n}\n')
    report = import_tree(target, source)
    (refused,) = report.refused
    assert (refused["path"], refused["line"]) == (".vscode/mcp.json", 2)
    assert "comments and trailing commas" in refused["reason"]
    assert "nothing was written" not in refused["reason"]


def test_an_editor_only_variable_is_refused_at_its_line_not_imported_as_an_env_var(
    tmp_path: Path, target: Path, cli: Any
) -> None:
    """VS Code's `${input:id}` (a prompt) and `${workspaceFolder}` are no environment variables:
    imported as `${...}`, sync wrote `${env:workspaceFolder}` back into .vscode/mcp.json (empty
    to VS Code) and `Bearer ${input:github-token}` into every other client's config."""
    source = tmp_path / "source"
    write(source, ".vscode/mcp.json", (
        '{\n  "inputs": [{"type": "promptString", "id": "github-token", "password": true}],\n'
        '  "servers": {\n'
        '    "github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/",\n'
        '               "headers": {"Authorization": "Bearer ${input:github-token}"}},\n'
        '    "files": {"command": "npx", "args": ["-y", "mcp-fs", "${workspaceFolder}"]},\n'
        '    "fetch": {"command": "uvx", "args": ["mcp-server-fetch"],\n'
        '              "env": {"TOKEN": "${env:FETCH_TOKEN}"}}\n'
        '  }\n}\n'
    ))  # fmt: skip
    result = cli("import", str(source), cwd=target)
    assert result.exit_code == 1, result.stderr
    refused = sorted((r["line"], r["reason"]) for r in result.json()["refused"])
    assert [line for line, _ in refused] == [4, 6]
    assert "${input:github-token}" in refused[0][1] and "${env:GITHUB_TOKEN}" in refused[0][1]
    assert "${workspaceFolder}" in refused[1][1]
    assert ".vscode/mcp.json:4" in result.stderr
    assert sorted(load(target).mcp_servers) == ["fetch"]
    # Cursor's `${userHome}` likewise; its `${env:X}` is imported as `${X}`
    write(source, ".cursor/mcp.json", '{"mcpServers": {"notes": {"command": "notes-mcp", '
          '"args": ["${userHome}/notes"]}}}\n')  # fmt: skip
    report = import_tree(target, source, dry_run=True)
    assert any("${userHome}" in r["reason"] for r in report.refused)
