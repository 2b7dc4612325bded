"""`sync` writes each target's MCP config entry for `orkestra mcp serve`, keeping the user's own."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import anyio
import pytest

from orkestra.core.errors import InputError
from orkestra.render.sync import sync
from tests.conftest import write
from tests.mcpserver.conftest import call

FILES = {
    "claude": ".mcp.json",
    "codex": ".codex/config.toml",
    "copilot": ".vscode/mcp.json",
    "cursor": ".cursor/mcp.json",
    "gemini": ".gemini/settings.json",
}
TABLES = {"claude": "mcpServers", "codex": "mcp_servers", "copilot": "servers"}


def _configure(root: Path, serve: bool, extra: str = "") -> None:
    path = root / "registries/orkestra.yaml"
    text = path.read_text(encoding="utf-8").split("targets:")[0].split("mcp:")[0]
    targets = ", ".join(FILES)
    path.write_text(
        f"{text.rstrip()}\ntargets: [{targets}]\nmcp: {{serve: {str(serve).lower()}{extra}}}\n",
        encoding="utf-8",
    )


def _entry(root: Path, target: str) -> Any:
    path = root / FILES[target]
    table = TABLES.get(target, "mcpServers")
    if target == "codex":
        return tomllib.loads(path.read_text(encoding="utf-8-sig"))[table]["orkestra"]
    return json.loads(path.read_text(encoding="utf-8-sig"))[table]["orkestra"]


def test_every_target_gets_an_entry_that_starts_the_server(root: Path) -> None:
    from mcp import Client, StdioServerParameters

    _configure(root, serve=True)
    report = sync(root)
    assert set(FILES.values()) <= set(report.plan.created)
    claude = _entry(root, "claude")
    assert Path(claude["command"]).is_absolute()
    assert claude["args"][-4:] == ["--root", str(root), "mcp", "serve"]
    for target in FILES:
        entry = _entry(root, target)
        assert (entry["command"], entry["args"]) == (claude["command"], claude["args"]), target
    assert _entry(root, "copilot")["type"] == "stdio"

    params = StdioServerParameters(command=claude["command"], args=claude["args"], cwd="/")

    async def main() -> Any:
        async with Client(params) as client:
            return await call(client, "search", query="GT-PIPE-001")

    assert anyio.run(main)["results"][0]["id"] == "GT-PIPE-001"
    assert sync(root).written == 0  # a second sync changes nothing


def test_users_entries_and_keys_are_kept(root: Path) -> None:
    mine = {"mine": {"command": "npx", "args": ["-y", "thing"]}}
    write(root, ".mcp.json", json.dumps({"mcpServers": mine, "other": [1, 2]}))
    codex = '# my settings\nmodel = "o3"\n\n[mcp_servers.mine]\ncommand = "npx"  # mine\n'
    write(root, ".codex/config.toml", codex)
    _configure(root, serve=True)
    report = sync(root)
    assert {".mcp.json", ".codex/config.toml"} <= set(report.plan.updated)
    claude = json.loads((root / ".mcp.json").read_text())
    assert claude["other"] == [1, 2] and claude["mcpServers"]["mine"] == mine["mine"]
    text = (root / ".codex/config.toml").read_text()
    assert text.startswith(codex)  # the user's text, comments and all, byte for byte
    assert tomllib.loads(text)["mcp_servers"]["mine"] == {"command": "npx"}
    assert sync(root).written == 0


def test_a_changed_entry_is_replaced_in_place(root: Path) -> None:
    codex = (
        '[mcp_servers.orkestra]\ncommand = "old"\nargs = []\n[mcp_servers.orkestra.env]\n'
        'X = "1"\n\n[mcp_servers.mine]\ncommand = "npx"\n'
    )
    write(root, ".codex/config.toml", codex)
    _configure(root, serve=True)
    sync(root)
    data = tomllib.loads((root / ".codex/config.toml").read_text())
    assert data["mcp_servers"]["orkestra"] == _entry(root, "claude")
    assert data["mcp_servers"]["mine"] == {"command": "npx"}


def test_serve_false_removes_only_our_own_entry(root: Path) -> None:
    _configure(root, serve=True)
    sync(root)
    cursor = json.loads((root / ".cursor/mcp.json").read_text())
    cursor["mcpServers"]["mine"] = {"command": "x"}
    (root / ".cursor/mcp.json").write_text(json.dumps(cursor))
    theirs = {"mcpServers": {"orkestra": {"command": "/opt/their/orkestra", "args": []}}}
    (root / ".gemini/settings.json").write_text(json.dumps(theirs))
    _configure(root, serve=False)
    sync(root)
    assert json.loads((root / ".cursor/mcp.json").read_text()) == {
        "mcpServers": {"mine": {"command": "x"}}
    }
    assert json.loads((root / ".gemini/settings.json").read_text()) == theirs
    codex = tomllib.loads((root / ".codex/config.toml").read_text())
    assert "orkestra" not in codex.get("mcp_servers", {})


def test_no_entry_and_no_file_without_serve(root: Path) -> None:
    _configure(root, serve=False)
    sync(root)
    assert not any((root / p).exists() for p in FILES.values())


def test_the_configured_command_is_used(root: Path) -> None:
    _configure(root, serve=True, extra=", command: [uvx, orkestra]")
    sync(root)
    entry = _entry(root, "claude")
    assert entry["command"] == "uvx" and entry["args"][:1] == ["orkestra"]


@pytest.mark.parametrize(
    ("rel", "text", "message", "line"),
    [
        (".mcp.json", '{"mcpServers": {\n  "a": 1,\n}', "not valid JSON", 3),
        (".cursor/mcp.json", "[1]", "must hold a JSON object", 1),
        (".vscode/mcp.json", '{"servers": []}', "'servers' must be an object", None),
        (".cursor/mcp.json", '{"mcpServers": {},\n "mcpServers": {"a": {}}}', "twice", 2),
        (".codex/config.toml", "a = \n", "not valid TOML", 1),
        (".codex/config.toml", "mcp_servers = {mine = {command = 'x'}}\n", "cannot merge", None),
    ],
)
def test_a_file_that_cannot_be_merged_stops_sync_before_any_write(
    root: Path, rel: str, text: str, message: str, line: int | None
) -> None:
    write(root, rel, text)
    _configure(root, serve=True)
    with pytest.raises(InputError) as exc:
        sync(root)
    assert message in exc.value.message and exc.value.file == rel and exc.value.line == line
    assert (root / rel).read_text() == text
    assert not (root / ".claude").exists() and not (root / ".gemini/settings.json").exists()


def test_the_comments_above_the_next_table_survive_our_tables_rewrite(root: Path) -> None:
    note = "# db: keep the port in step with docker-compose.yml\n"
    tail = "# end of file note\n"
    codex = (
        'model = "o3"\n\n[mcp_servers.orkestra]\ncommand = "old"\nargs = []\n\n'
        f'{note}[mcp_servers.db]\ncommand = "db"\n\n[mcp_servers.orkestra.env]\nX = "1"\n{tail}'
    )
    write(root, ".codex/config.toml", codex)
    _configure(root, serve=True)
    sync(root)
    text = (root / ".codex/config.toml").read_text()
    assert f'model = "o3"\n\n{note}[mcp_servers.db]\ncommand = "db"\n\n{tail}' in text
    assert _entry(root, "codex") == _entry(root, "claude")
    assert sync(root).written == 0
    _configure(root, serve=False)  # taking our table out keeps them too
    sync(root)
    text = (root / ".codex/config.toml").read_text()
    assert note in text and tail in text and "orkestra" not in text


def test_a_json_config_keeps_its_indentation_and_line_endings(root: Path) -> None:
    """VS Code writes tabs (and CRLF on Windows): the merge re-indented every line by two
    spaces and dropped the CRs, so one added entry rewrote the whole file."""
    mine = '{\r\n\t"servers": {\r\n\t\t"github": {\r\n\t\t\t"url": "https://x/"\r\n\t\t}\r\n\t},\r\n\t"inputs": []\r\n}\r\n'
    write(root, ".vscode/mcp.json", mine)
    write(root, ".cursor/mcp.json", '{"mcpServers": {}}')  # one line stays one line
    write(root, ".mcp.json", '{\n    "mcpServers": {}\n}\n')  # four spaces stay four
    _configure(root, serve=True)
    sync(root)
    vscode = (root / ".vscode/mcp.json").read_bytes().decode("utf-8")
    head = mine.split("\t\t}\r\n\t},")[0]
    assert vscode.startswith(head + '\t\t},\r\n\t\t"orkestra": {\r\n\t\t\t"type": "stdio",\r\n')
    assert vscode.endswith('\t},\r\n\t"inputs": []\r\n}\r\n') and vscode.count(
        "\n"
    ) == vscode.count("\r\n")
    assert "\n" not in (root / ".cursor/mcp.json").read_text()
    assert (root / ".mcp.json").read_text().startswith('{\n    "mcpServers": {\n        "orkestra"')
    assert _entry(root, "copilot")["command"] == _entry(root, "claude")["command"]
    assert sync(root).written == 0


def test_a_config_with_a_byte_order_mark_keeps_it(root: Path) -> None:
    """A Windows editor's .mcp.json (or Codex's TOML) starts with a byte-order mark: the merge
    read past it and wrote the file back without it; it stays first, and the next sync is a
    no-op."""
    write(root, ".mcp.json", '\ufeff{\n  "mcpServers": {"mine": {"command": "x"}}\n}\n')
    write(root, ".codex/config.toml", '\ufeff# mine\nmodel = "o3"\n')
    _configure(root, serve=True)
    sync(root)
    for rel in (".mcp.json", ".codex/config.toml"):
        data = (root / rel).read_bytes()
        assert data.startswith(b"\xef\xbb\xbf") and data.count(b"\xef\xbb\xbf") == 1, rel
    assert _entry(root, "claude")["command"] and _entry(root, "codex")["command"]
    assert sync(root).written == 0
    _configure(root, serve=False)  # taken out again: the mark stays
    sync(root)
    assert (root / ".mcp.json").read_bytes().startswith(b"\xef\xbb\xbf{")
    assert "orkestra" not in (root / ".mcp.json").read_text(encoding="utf-8-sig")


def test_a_jsonc_config_with_nothing_of_ours_never_stops_sync(root: Path) -> None:
    """VS Code's mcp.json and Gemini CLI's settings.json take comments: with `serve: false`
    sync has nothing to write there, yet it parsed them to look for an entry to remove and
    refused the whole sync."""
    gemini = '{\n  // my theme\n  "theme": "Dracula",\n}\n'
    vscode = '{\n  /* team servers */\n  "servers": {"github": {"url": "https://x/"}},\n}\n'
    write(root, ".gemini/settings.json", gemini)
    write(root, ".vscode/mcp.json", vscode)
    _configure(root, serve=False)
    sync(root)
    assert (root / ".gemini/settings.json").read_text() == gemini
    assert (root / ".vscode/mcp.json").read_text() == vscode
    assert sync(root).written == 0
    _configure(root, serve=True)  # now there is something to write: refused, as before
    with pytest.raises(InputError, match="JSONC"):
        sync(root)
    assert (root / ".gemini/settings.json").read_text() == gemini


def test_a_crlf_codex_config_gets_a_crlf_table(root: Path) -> None:
    codex = '# mine\r\nmodel = "o3"\r\n\r\n[mcp_servers.db]\r\ncommand = "db"\r\n'
    write(root, ".codex/config.toml", codex)
    _configure(root, serve=True)
    sync(root)
    text = (root / ".codex/config.toml").read_bytes().decode("utf-8")
    assert text.startswith(codex + "\r\n[mcp_servers.orkestra]\r\n")
    assert text.count("\n") == text.count("\r\n") and _entry(root, "codex") == _entry(
        root, "claude"
    )
    assert sync(root).written == 0
