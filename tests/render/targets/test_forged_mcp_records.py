"""The lock's record of the MCP servers sync wrote (`mcp_servers`) never lets sync remove a server
entry the user wrote (PRODUCT.md §4 ownership, §13).

A JSON or TOML server entry has no room for Orkestra's mark, and anyone can commit the digest of a
committed entry into the lock (a hand edit, a lock copied from another project). So an entry a
committed lock records is removed — its server taken out of registries/mcp.yaml, or its client out
of `targets` — only while it is still as written **and** is what a server of registries/mcp.yaml
renders to: as the file declares it now, at HEAD, or at the commit that last wrote the lock. A
record no commit carried (no git, or a sync of this checkout since HEAD) is this checkout's own."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from orkestra.registry.render_lock import LOCK_PATH
from orkestra.render.sync import sync
from orkestra.render.targets import mcp_config
from tests.mining.gitrepo import GitRepo
from tests.render.targets.test_targets import set_targets

#: a server the user wrote by hand into their clients' config files
MINE = {"command": "docker", "args": ["run", "-i", "--rm", "mcp/postgres", "postgresql://db/prod"]}


def _add_mine(root: Path, rel: str, table: str) -> None:
    path = root / rel
    data = json.loads(path.read_text())
    data[table]["my-db"] = MINE
    path.write_text(json.dumps(data, indent=2) + "\n")


def _forge(root: Path, rel: str, entry: Any) -> None:
    """Claim the user's `my-db` entry of `rel` for Orkestra in the lock, with its right digest."""
    lock_path = root / LOCK_PATH
    lock = json.loads(lock_path.read_text())
    lock["mcp_servers"].setdefault(rel, {})["my-db"] = mcp_config.digest(entry)
    lock_path.write_text(json.dumps(lock, indent=2) + "\n")


def _servers(root: Path) -> dict[str, dict[str, str]]:
    return json.loads((root / LOCK_PATH).read_text()).get("mcp_servers", {})


def _commit(root: Path, repo: GitRepo | None = None) -> GitRepo:
    repo = repo or GitRepo(root)
    repo.git("add", "-A")
    repo.git("commit", "-qm", "chore: sync")
    return repo


def test_a_forged_record_never_removes_a_server_the_user_wrote(clients: Path) -> None:
    repo = _commit(clients)
    sync(clients)
    _add_mine(clients, ".mcp.json", "mcpServers")
    _forge(clients, ".mcp.json", MINE)
    _commit(clients, repo)  # the forged lock came with a commit
    sync(clients)
    assert json.loads((clients / ".mcp.json").read_text())["mcpServers"]["my-db"] == MINE
    assert "my-db" not in _servers(clients)[".mcp.json"]  # the lock forgets the claim
    assert sync(clients).written == 0


def test_a_forged_record_never_removes_a_server_of_a_removed_target(clients: Path) -> None:
    sync(clients)
    _add_mine(clients, ".cursor/mcp.json", "mcpServers")
    _forge(clients, ".cursor/mcp.json", MINE)
    _commit(clients)
    set_targets(clients, ["claude", "codex"])
    sync(clients)
    kept = json.loads((clients / ".cursor/mcp.json").read_text())["mcpServers"]
    assert kept == {"my-db": MINE}  # the registry's servers went; the user's stays
    assert ".cursor/mcp.json" not in _servers(clients)


def test_a_record_no_commit_carried_is_this_checkouts_own(clients: Path) -> None:
    """Outside git, or for a record a sync of this checkout made since HEAD, the digest is all
    there is: a server added, synced and taken out again before any commit leaves the files."""
    repo = _commit(clients)
    sync(clients)
    _commit(clients, repo)
    servers = clients / "registries/mcp.yaml"
    before = servers.read_text()
    servers.write_text(before + "scratch:\n  command: uvx\n  args: [scratch-server]\n")
    sync(clients)
    assert "scratch" in json.loads((clients / ".mcp.json").read_text())["mcpServers"]
    servers.write_text(before)
    sync(clients)
    assert "scratch" not in json.loads((clients / ".mcp.json").read_text())["mcpServers"]
    assert "scratch" not in _servers(clients)[".mcp.json"]


def test_a_server_taken_out_of_mcp_yaml_leaves_the_files_before_or_after_a_commit(
    clients: Path,
) -> None:
    """The server was in the registry when its entries were written: removed and synced before
    the commit (HEAD declares it), or committed first (the commit that wrote the lock did)."""
    repo = GitRepo(clients)
    sync(clients)
    repo.git("add", "-A")
    repo.git("commit", "-qm", "chore: sync")
    servers = clients / "registries/mcp.yaml"
    text = servers.read_text()
    servers.write_text("data_lake:" + text.split("data_lake:")[1])  # github taken out
    sync(clients)
    assert set(json.loads((clients / ".mcp.json").read_text())["mcpServers"]) == {"data_lake"}
    toml = tomllib.loads((clients / ".codex/config.toml").read_text())
    assert set(toml["mcp_servers"]) == {"data_lake"}
    repo.git("add", "-A")
    repo.git("commit", "-qm", "chore: drop github")
    lock = clients / LOCK_PATH
    before = lock.read_text()
    servers.unlink()
    repo.git("add", "-A")
    repo.git("commit", "-qm", "chore: drop the last server")  # committed before the sync
    assert lock.read_text() == before
    sync(clients)
    assert json.loads((clients / ".mcp.json").read_text())["mcpServers"] == {}
    assert json.loads((clients / ".gemini/settings.json").read_text())["mcpServers"] == {}
    assert _servers(clients) == {}
    assert sync(clients).written == 0


def test_the_cli_keeps_a_server_a_forged_record_claims(cli: Any, clients: Path) -> None:
    repo = _commit(clients)
    assert cli("sync", cwd=clients).exit_code == 0
    _add_mine(clients, ".gemini/settings.json", "mcpServers")
    _forge(clients, ".gemini/settings.json", MINE)
    _commit(clients, repo)
    done = cli("sync", cwd=clients)
    assert done.exit_code == 0, done.stderr
    assert (
        json.loads((clients / ".gemini/settings.json").read_text())["mcpServers"]["my-db"] == MINE
    )
    again = cli("sync", "--check", cwd=clients)
    assert again.exit_code == 0 and again.json()["updated"] == []
