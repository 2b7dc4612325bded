"""`${VAR}` references of registries/mcp.yaml reach each client in a form it expands: Codex
expands none (checked with Codex 0.171: a server started from `env = { T = "${T}" }` gets the
characters `${T}`), so they become `env_vars`, `env_http_headers` and `bearer_token_env_var`;
Cursor and VS Code expand only `${env:VAR}`. What a client cannot express is a warning."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from orkestra.registry.loader import load
from orkestra.registry.validate import validate
from orkestra.render.sync import sync
from tests.render.conftest import put

SERVERS = {
    "github": {
        "command": "npx",
        "args": ["-y", "@modelcontextprotocol/server-github"],
        "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}", "LOG_LEVEL": "debug"},
    },
    "data_lake": {
        "url": "https://mcp.example.com/lake",
        "headers": {"Authorization": "Bearer ${LAKE_TOKEN}", "X-Team": "${LAKE_TEAM}",
                    "X-Client": "orkestra"},
    },
    "renamed": {
        "command": "srv",
        "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}", "DB": "pg://${USER}@h/db"},
    },
}  # fmt: skip


def _codex(root: Path) -> dict[str, dict[str, object]]:
    text = (root / ".codex/config.toml").read_text(encoding="utf-8")
    servers: dict[str, dict[str, object]] = tomllib.loads(text)["mcp_servers"]
    return servers


def test_codex_gets_env_references_in_the_keys_it_reads(clients: Path) -> None:
    put(clients, "registries/mcp.yaml", SERVERS)
    sync(clients)
    servers = _codex(clients)
    assert servers["github"] == {
        "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
        "env": {"LOG_LEVEL": "debug"}, "env_vars": ["GITHUB_TOKEN"],
    }  # fmt: skip
    assert servers["data_lake"] == {
        "url": "https://mcp.example.com/lake", "bearer_token_env_var": "LAKE_TOKEN",
        "http_headers": {"X-Client": "orkestra"}, "env_http_headers": {"X-Team": "LAKE_TEAM"},
    }  # fmt: skip
    # no Codex form: left out, never written as characters the server would get
    assert servers["renamed"] == {"command": "srv"}
    assert "${" not in (clients / ".codex/config.toml").read_text(encoding="utf-8")
    assert sync(clients).written == 0


def test_cursor_and_vscode_get_their_env_spelling_and_claude_gemini_keep_it(
    clients: Path,
) -> None:
    put(clients, "registries/mcp.yaml", SERVERS)
    sync(clients)
    for rel, table in ((".cursor/mcp.json", "mcpServers"), (".vscode/mcp.json", "servers")):
        servers = json.loads((clients / rel).read_text(encoding="utf-8"))[table]
        assert servers["github"]["env"]["GITHUB_TOKEN"] == "${env:GITHUB_TOKEN}", rel
        assert servers["data_lake"]["headers"]["Authorization"] == "Bearer ${env:LAKE_TOKEN}"
        assert servers["renamed"]["env"]["DB"] == "pg://${env:USER}@h/db", rel
    for rel in (".mcp.json", ".gemini/settings.json"):
        servers = json.loads((clients / rel).read_text(encoding="utf-8"))["mcpServers"]
        assert servers["github"]["env"]["GITHUB_TOKEN"] == "${GITHUB_TOKEN}", rel
    assert sync(clients).written == 0


def test_a_reference_codex_cannot_express_is_a_warning_naming_the_server(clients: Path) -> None:
    put(clients, "registries/mcp.yaml", SERVERS)
    found = [f for f in validate(load(clients)).findings if f.code == "ORK115"]
    assert {f.file for f in found} == {"registries/mcp.yaml"}
    text = " ".join(f.message for f in found)
    assert "'renamed'" in text and "GITHUB_PERSONAL_ACCESS_TOKEN" in text and "env DB" in text
    assert "'github'" not in text and "'data_lake'" not in text
    assert all(f.line > 1 for f in found)  # the server's own line
    put(clients, "registries/orkestra.yaml", {"project": "rich", "targets": ["claude"]})
    assert not [f for f in validate(load(clients)).findings if f.code == "ORK115"]


def test_the_cli_warns_and_writes_codexs_forms(clients: Path, cli: object) -> None:
    put(clients, "registries/mcp.yaml", SERVERS)
    run = cli  # the in-process `orkestra`
    done = run("validate", "--show-warnings", cwd=clients)  # type: ignore[operator]
    assert done.exit_code == 0
    assert "registries/mcp.yaml:" in done.stdout and "ORK115" in done.stdout
    done = run("sync", cwd=clients)  # type: ignore[operator]
    assert done.exit_code == 0, done.stderr
    assert _codex(clients)["github"]["env_vars"] == ["GITHUB_TOKEN"]


def test_a_users_entry_equal_to_a_registry_server_is_never_claimed(clients: Path) -> None:
    """The team's hand-written `.mcp.json` already held the `github` server, byte for byte as
    sync renders it, before it went into registries/mcp.yaml: sync left the file alone but
    recorded the entry as its own in the lock, and taking the server out of mcp.yaml later
    deleted the user's entry. Sync now claims only the entries it writes (or recorded before):
    the user's stays, the files sync wrote the server into lose it."""
    import json

    import yaml

    from orkestra.render import manifest
    from orkestra.render.sync import sync

    github = (
        '"github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], '
        '"env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}}'
    )
    (clients / ".mcp.json").write_text(f'{{\n  "mcpServers": {{\n    {github}\n  }}\n}}\n')
    sync(clients)
    assert f"    {github},\n" in (clients / ".mcp.json").read_text()  # already right: kept
    assert "github" not in manifest.load_servers(clients).get(".mcp.json", {})
    assert "github" in manifest.load_servers(clients)[".cursor/mcp.json"]  # written there
    assert sync(clients).written == 0
    mcp = clients / "registries/mcp.yaml"
    servers = yaml.safe_load(mcp.read_text())
    del servers["github"]
    mcp.write_text(yaml.safe_dump(servers))
    sync(clients)
    assert f"    {github},\n" in (clients / ".mcp.json").read_text()  # the user's entry, kept
    cursor = json.loads((clients / ".cursor/mcp.json").read_text())
    assert "github" not in cursor["mcpServers"] and "data_lake" in cursor["mcpServers"]
    assert sync(clients).written == 0
