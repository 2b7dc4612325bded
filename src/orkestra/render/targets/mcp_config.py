"""Each client's MCP config entry for `orkestra mcp serve` (PRODUCT.md §4, §11).

With `mcp: {serve: true}` in orkestra.yaml, `sync` writes an `orkestra` server entry into the MCP
config file of each configured target. These files belong to the user: only the `orkestra` key of
the servers table is Orkestra's, every other entry and key is kept (a file already holding the same
entry is left byte for byte). With `serve: false`, an `orkestra` entry equal to the one Orkestra
would write is removed again; any other `orkestra` entry is the user's and is left alone.
The servers of registries/mcp.yaml are owned as files are (the lock records each entry's digest
as written): an entry of that name the user wrote, or edited since, is a conflict (`Output.conflict`).
An entry has no room for Orkestra's mark, and anyone can write the digest of a committed entry into
the lock: so one the lock records is removed (its server out of mcp.yaml, its client out of
`targets`) only when it is also what a server of mcp.yaml renders to, as the file declares it now,
at HEAD, or at the commit that last wrote the lock (`Declared`); any other is kept.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from orkestra.core import jsonio, safewrite
from orkestra.core.errors import InputError
from orkestra.registry import client_rules
from orkestra.registry.registry import Registry
from orkestra.render.plan import Output

if TYPE_CHECKING:
    from orkestra.registry.models.mcp import McpServer

SERVER = "orkestra"


class ConfigFile(NamedTuple):
    """Where a client reads project MCP servers: the file and the table holding them."""

    path: str
    table: str
    toml: bool = False


FILES: dict[str, ConfigFile] = {
    "claude": ConfigFile(".mcp.json", "mcpServers"),
    "codex": ConfigFile(".codex/config.toml", "mcp_servers", toml=True),
    "copilot": ConfigFile(".vscode/mcp.json", "servers"),
    "cursor": ConfigFile(".cursor/mcp.json", "mcpServers"),
    "gemini": ConfigFile(".gemini/settings.json", "mcpServers"),
}


def command(reg: Registry) -> list[str]:
    """The configured command, else this installation's `orkestra` by absolute path, else
    `<this python> -m orkestra`."""
    if reg.config.mcp.command:
        return list(reg.config.mcp.command)
    beside = Path(sys.executable).parent / "orkestra"
    if beside.is_file():
        return [str(beside)]
    return [sys.executable, "-m", "orkestra"]


def entry(reg: Registry, target: str) -> dict[str, Any]:
    """The server entry for one client (VS Code wants the transport type spelled out)."""
    cmd = command(reg)
    out: dict[str, Any] = {"command": cmd[0], "args": [*cmd[1:], "--root", str(reg.root)]}
    out["args"] += ["mcp", "serve"]
    return {"type": "stdio", **out} if target == "copilot" else out


def outputs(
    reg: Registry, targets: list[str], previous: dict[str, dict[str, str]] | None = None
) -> Iterator[Output]:
    """The merged config file of every target in `targets` that has one (shared files).
    `previous` (the lock's record of the entries the last sync wrote) lets a server removed
    from registries/mcp.yaml leave the files too, when its entry is still what was written
    and what the server rendered to (`Declared`)."""
    declared: Declared | None = None
    for target in targets:
        spec = FILES.get(target)
        if spec is None:
            continue
        keep, drop = wanted(reg, target)
        declared = declared or Declared(reg)
        base = _base(reg, spec)  # before the merges read it: a later edit is not lost
        written = (previous or {}).get(spec.path, {})
        data: bytes | None = None
        theirs: list[str] = []
        for name, ours in [*((n, (e, True)) for n, e in keep.items()),
                           *((n, (e, False)) for n, e in drop.items())]:  # fmt: skip
            registry = name != SERVER or name in reg.mcp_servers  # not the built-in entry
            if ours[1] and registry and _theirs(reg, spec, name, ours[0], data, written):
                theirs.append(name)
            data = merged(reg, spec, ours[0], keep=ours[1], name=name, current=data)
        for name, sha in sorted(written.items()):
            if name in keep or name == SERVER:
                continue
            found = _entry_in(reg, spec, name, data)
            if found is not None and declared.wrote(target, name, found, sha):
                data = merged(reg, spec, found, keep=False, name=name, current=data)
        if data is not None:
            clash = _clash(spec, theirs) if theirs else None
            yield Output(spec.path, data, target=target, shared=True, base=base, conflict=clash)


def _theirs(
    reg: Registry,
    spec: ConfigFile,
    name: str,
    ours: dict[str, Any],
    current: bytes | None,
    written: dict[str, str],
) -> bool:
    """Server `name` is in the file, is not the entry Orkestra would write, and is not the one
    the last sync wrote (the lock's `written`: name -> digest): the user's own entry of that
    name, or ours edited by hand since. Writing ours would lose it, as a file would be."""
    found = _entry_in(reg, spec, name, current)
    return found is not None and found != ours and digest(found) != written.get(name)


def _clash(spec: ConfigFile, names: list[str]) -> str:
    listed = ", ".join(f"'{name}'" for name in names)
    return (
        f"the MCP server(s) {listed} in {spec.path} are not the ones Orkestra wrote (written by "
        f"hand, or edited since): rename the server in registries/mcp.yaml, or remove or rename "
        f"the entry in {spec.path}, or run `orkestra sync --force` to write Orkestra's over it"
    )


def withdrawn(
    reg: Registry, targets: list[str], previous: dict[str, dict[str, str]]
) -> Iterator[Output]:
    """The config files of targets no longer configured, without what Orkestra put there: each
    server the lock recorded (`previous`) whose entry is still what was written, and an
    `orkestra` entry equal to the one Orkestra would write. An entry the user changed since is
    theirs and stays, as does one no server of registries/mcp.yaml renders to (`Declared`); a
    file with nothing of ours is not touched."""
    declared = Declared(reg)
    for target in targets:
        spec = FILES.get(target)
        if spec is None:
            continue
        base = _base(reg, spec)
        data: bytes | None = None
        ours = [(name, sha) for name, sha in sorted(previous.get(spec.path, {}).items())]
        for name, sha in ours:
            found = _entry_in(reg, spec, name, data)
            if found is not None and declared.wrote(target, name, found, sha):
                data = merged(reg, spec, found, keep=False, name=name, current=data)
        data = merged(reg, spec, entry(reg, target), keep=False, current=data)
        if data is not None:
            yield Output(spec.path, data, target=target, shared=True, base=base)


class Declared:
    """What proves an entry the lock records, which sync is about to remove, is one sync wrote.

    The lock's digest alone does not: an entry has no room for Orkestra's mark, and anyone can
    commit the digest of a committed entry into the lock (a hand edit, a lock copied from
    another project). An entry still as recorded is sync's when server `name` of mcp.yaml
    renders to it now, or the record is this checkout's own (no commit carried it: the lock is
    not in git, or HEAD's lock does not hold it), or mcp.yaml declared it so at HEAD or at the
    commit that last changed the lock (removed and synced before the commit, or committed
    first). Git is read once, and only when the registry alone does not prove a removal."""

    def __init__(self, reg: Registry) -> None:
        self.reg = reg
        self._committed: tuple[dict[str, dict[str, str]] | None, list[dict[str, McpServer]]]
        self._committed = ({}, [])
        self._read = False

    def wrote(self, target: str, name: str, found: Any, sha: str) -> bool:
        """True when `found`, server `name`'s entry in `target`'s config file, is still the one
        the lock records (`sha`) and one sync wrote there (above)."""
        if digest(found) != sha:  # edited since it was written: the user's now
            return False
        now = self.reg.mcp_servers.get(name)
        if now is not None and _renders(now, target, sha):
            return True
        if not self._read:
            self._committed, self._read = _committed(self.reg.root), True
        carried, declared = self._committed
        if carried is None or carried.get(FILES[target].path, {}).get(name) != sha:
            return True  # recorded by a sync in this checkout, not carried by a commit
        return any(name in d and _renders(d[name], target, sha) for d in declared)


def _renders(server: McpServer, target: str, sha: str) -> bool:
    return digest(server_entry(server, target)) == sha


def _committed(root: Path) -> tuple[dict[str, dict[str, str]] | None, list[dict[str, McpServer]]]:
    """(the MCP servers HEAD's render lock records, None when git holds no lock here: no
    repository, no commit, no git; the servers of registries/mcp.yaml at HEAD and at the
    commit that last changed the lock, where the file is there and loads)."""
    from pydantic import ValidationError

    from orkestra.core import git, jsonio, yamlio
    from orkestra.registry.models import McpFile
    from orkestra.registry.render_lock import LOCK_PATH

    def show(rev: str, rel: str) -> str | None:
        done = git.run(root, "show", *git.LOG_SAFETY, f"{rev}:./{rel}", check=False)
        return done.stdout if done.ok else None

    if not git.in_work_tree(root):
        return None, []  # in no repository: no git run (a sync that ran none can be recorded)
    try:
        lock = show("HEAD", LOCK_PATH)
        if lock is None:
            return None, []
        try:
            data = jsonio.loads(lock, source=f"HEAD:{LOCK_PATH}")
        except InputError:
            data = {}
        found = data.get("mcp_servers") if isinstance(data, dict) else None
        carried = {
            str(rel): {str(n): sha for n, sha in names.items() if isinstance(sha, str)}
            for rel, names in (found if isinstance(found, dict) else {}).items()
            if isinstance(names, dict)
        }
        last = git.run(root, "log", "-1", "--format=%H", *git.LOG_SAFETY, "--", LOCK_PATH,
                       check=False)  # fmt: skip
        declared = []
        for rev in dict.fromkeys(["HEAD", *(last.stdout.split()[:1] if last.ok else [])]):
            text = show(rev, "registries/mcp.yaml")
            if text is None:
                continue
            try:
                servers = McpFile.model_validate(yamlio.loads(text, f"{rev}:mcp.yaml") or {})
            except (InputError, ValidationError):
                continue
            declared.append(dict(servers.root))
        return carried, declared
    except InputError:  # no git to run
        return None, []


def _base(reg: Registry, spec: ConfigFile) -> str | None:
    """The sha256 of the config file's bytes as the merge starts ("" when there is none; None
    when it cannot be read: the writer then checks what the plan found)."""
    import hashlib

    from orkestra.core.readfile import open_regular

    path = reg.root / safewrite.check_target(reg.root, spec.path)
    try:
        with open_regular(path, follow=False) as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except FileNotFoundError:
        return ""
    except OSError:
        return None


def managed(
    reg: Registry, targets: list[str], previous: dict[str, dict[str, str]] | None = None
) -> dict[str, dict[str, str]]:
    """The registry servers each target's config file holds after a sync that Orkestra wrote
    there (path -> name -> digest of the entry), for the lock: those the last sync recorded
    (`previous`) and those this one writes. An entry the file already held, byte for byte the
    one sync would write, before any sync recorded it, is the user's (written by hand before
    the server went into registries/mcp.yaml): sync leaves it as it is and never claims it, so
    taking the server out of mcp.yaml later does not remove it."""
    out: dict[str, dict[str, str]] = {}
    for target in targets:
        spec = FILES.get(target)
        if spec is None or not reg.mcp_servers:
            continue
        before = (previous or {}).get(spec.path, {})
        claimed: dict[str, str] = {}
        for name, server in reg.mcp_servers.items():
            ours = server_entry(server, target)
            if name in before or _entry_in(reg, spec, name, None) != ours:
                claimed[name] = digest(ours)
        if claimed:
            out[spec.path] = claimed
    return out


def digest(entry: Any) -> str:
    """A server entry's fingerprint (key order does not matter)."""
    import hashlib

    text = json.dumps(entry, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _entry_in(reg: Registry, spec: ConfigFile, name: str, current: bytes | None) -> Any:
    """Server `name` as the file (or its planned bytes) holds it now, or None."""
    if current is not None:
        text = current.decode("utf-8").removeprefix("\ufeff")
    else:
        path = reg.root / safewrite.check_target(reg.root, spec.path)
        if not path.exists():
            return None
        text = jsonio.read_text(path)
    if not spec.toml and _absent(text, name):
        return None
    data = _parse_toml(text, spec.path) if spec.toml else _load_json(text, spec)
    table = data.get(spec.table) if isinstance(data, dict) else None
    return table.get(name) if isinstance(table, dict) else None


def _absent(text: str, name: str) -> bool:
    """Whether a JSON file's text cannot hold a server `name` (its quoted name is nowhere in
    it): then there is nothing of Orkestra's to find or take out, and the file is not parsed, so
    one with comments (JSONC, which VS Code and Gemini CLI accept) never stops a sync that has
    nothing to write there."""
    return json.dumps(name, ensure_ascii=False) not in text and json.dumps(name) not in text


def wanted(reg: Registry, target: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(entries to set, entries to remove when unchanged) in `target`'s config: the `orkestra`
    server per `mcp.serve`, and every server of registries/mcp.yaml."""
    keep: dict[str, Any] = {}
    drop: dict[str, Any] = {}
    (keep if reg.config.mcp.serve else drop)[SERVER] = entry(reg, target)
    for name, server in sorted(reg.mcp_servers.items()):
        keep[name] = server_entry(server, target)
    return keep, drop


def server_entry(server: McpServer, target: str) -> dict[str, Any]:
    """A registry server in `target`'s spelling (empty fields left out). Its `${VAR}`
    references are Claude Code's spelling, which Gemini CLI reads too; Cursor and VS Code read
    `${env:VAR}`, and Codex reads none (`client_rules.codex_server`)."""
    if target == "codex":
        return client_rules.codex_server(server)[0]
    refs = client_rules.editor_refs if target in ("copilot", "cursor") else str
    if server.command is not None:
        out: dict[str, Any] = {"command": refs(server.command)}
        if server.args:
            out["args"] = [refs(arg) for arg in server.args]
        if server.env:
            out["env"] = {key: refs(value) for key, value in server.env.items()}
        return {"type": "stdio", **out} if target == "copilot" else out
    assert server.url is not None
    url_key = {"gemini": "httpUrl"}.get(target, "url")
    remote: dict[str, Any] = {url_key: refs(server.url)}
    if server.headers:
        remote["headers"] = {key: refs(value) for key, value in server.headers.items()}
    return {"type": "http", **remote} if target in ("claude", "copilot") else remote


def merged(
    reg: Registry,
    spec: ConfigFile,
    ours: dict[str, Any],
    *,
    keep: bool,
    name: str = SERVER,
    current: bytes | None = None,
) -> bytes | None:
    """The file's new bytes: our entry `name` set (`keep`) or removed; None when there is
    nothing to do (no file and nothing to add). An unchanged entry gives back the file's own
    bytes. `current` is the file's content as planned so far (several entries, one file)."""
    if current is not None:
        text = current.decode("utf-8")
    else:
        path = reg.root / safewrite.check_target(reg.root, spec.path)
        if not path.exists():
            return _fresh(spec, ours, name) if keep else None
        text = jsonio.read_text(path, bom=True)
    # a byte-order mark (a Windows editor's) stays first: the rest is merged without it
    bom = b"\xef\xbb\xbf" if text.startswith("\ufeff") else b""
    text = text.removeprefix("\ufeff")
    if spec.toml:
        made = _toml(text, spec, ours, keep=keep, name=name)
    else:
        made = _json(text, spec, ours, keep=keep, name=name)
    return None if made is None else bom + made


def _fresh(spec: ConfigFile, ours: dict[str, Any], name: str) -> bytes:
    if spec.toml:
        return _toml_table(spec.table, ours, name).lstrip("\n").encode("utf-8")
    return _dump({spec.table: {name: ours}})


def _dump(data: dict[str, Any], like: str | None = None) -> bytes:
    """`data` as the file's bytes, laid out as the user's file `like` was (`jsonio.dumps_like`)."""
    return jsonio.dumps_like(data, like).encode("utf-8")


def _load_json(text: str, spec: ConfigFile) -> Any:
    """The config file's JSON. VS Code and Cursor also accept comments and trailing commas
    (JSONC); such a file is refused with what to do, since rewriting it would drop them."""
    try:
        return jsonio.loads(text, source=spec.path, rewrite=True)
    except InputError as exc:
        client = next((t for t, f in FILES.items() if f == spec), "this client")
        fix = f"take {client} out of `targets` in orkestra.yaml"
        raise jsonio.unmergeable(exc, text, jsonc_fix=fix) from None


def _json(
    text: str, spec: ConfigFile, ours: dict[str, Any], *, keep: bool, name: str
) -> bytes | None:
    if not keep and _absent(text, name):
        return text.encode("utf-8")  # nothing of ours to take out
    data = _load_json(text, spec)
    if not isinstance(data, dict):
        raise InputError("an MCP config file must hold a JSON object", file=spec.path, line=1)
    table = data.get(spec.table, {})
    if not isinstance(table, dict):
        raise InputError(f"'{spec.table}' must be an object of servers", file=spec.path)
    if keep and table.get(name) == ours:
        return text.encode("utf-8")
    if not keep:
        if table.get(name) != ours:
            return text.encode("utf-8")  # absent, or the user's own entry
        del table[name]
    else:
        table[name] = ours
    data[spec.table] = table
    return _dump(data, text)


# --- TOML (Codex): the file's text is kept; only our table is cut out and written again --------

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def _toml(
    text: str, spec: ConfigFile, ours: dict[str, Any], *, keep: bool, name: str
) -> bytes | None:
    before = _parse_toml(text, spec.path)
    current = before.get(spec.table, {}).get(name) if isinstance(before, dict) else None
    if (keep and current == ours) or (not keep and current != ours):
        return text.encode("utf-8")
    rest = _without_table(text, [spec.table, name])
    newline = "\r\n" if "\r\n" in text else "\n"  # a CRLF file gets a CRLF table
    table = _toml_table(spec.table, ours, name).replace("\n", newline)
    new = rest.rstrip("\r\n") + newline + table if keep else rest
    try:
        after = tomllib.loads(new)
    except tomllib.TOMLDecodeError:  # our table clashes with how the file spells its servers
        after = {}
    if _others(after, spec.table, name) != _others(before, spec.table, name) or (
        keep and after.get(spec.table, {}).get(name) != ours
    ):
        raise InputError(
            f"cannot merge the '{name}' server into this file: write it as a "
            f"[{spec.table}.{name}] table (not inline or dotted keys), or remove it",
            file=spec.path,
        )
    return new.lstrip("\r\n").encode("utf-8")


def _parse_toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"line (\d+)", str(exc))
        line = int(found.group(1)) if found else None
        raise InputError(f"not valid TOML ({exc})", file=source, line=line) from None


def _others(data: dict[str, Any], table: str, name: str) -> dict[str, Any]:
    """Everything but our server entry."""
    servers = {k: v for k, v in data.get(table, {}).items() if k != name}
    return {**{k: v for k, v in data.items() if k != table}, table: servers}


def _without_table(text: str, name: list[str]) -> str:
    """`text` without the table whose key is `name` (its parts) and its sub-tables, up to the
    next other header. A user's `[mcp_servers."db.replica"]` is one key, not `db`'s sub-table.
    The comments and blank lines that end the table are kept: they stand above the next table
    (or at the file's end), the user's note about what follows, not part of our entry."""
    out: list[str] = []
    skipped: list[str] = []  # the lines of the table being cut out, since its header
    for line in text.splitlines(keepends=True):
        header = _HEADER.match(line)
        if header is not None:
            out += _trailing_comments(skipped)
            skipped = []
            if _key_parts(header.group(1))[: len(name)] == name:
                skipped.append(line)
                continue
        if skipped:
            skipped.append(line)
        else:
            out.append(line)
    return "".join(out + _trailing_comments(skipped))


def _trailing_comments(lines: list[str]) -> list[str]:
    """The comments (and blank lines among and after them) that end `lines`, a table cut out
    from its header on: kept in the file. Blank lines before them went with the table."""
    at = len(lines)
    while at > 1 and (not lines[at - 1].strip() or lines[at - 1].lstrip().startswith("#")):
        at -= 1
    while at < len(lines) and not lines[at].strip():
        at += 1
    return lines[at:]


#: one part of a dotted TOML key: a basic string, a literal string or a bare key
_KEY_PART = re.compile(r"""\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(\.|$)""")


def _key_parts(key: str) -> list[str]:
    """The parts of a table header's key (`a."b.c"` is ["a", "b.c"]); a key this does not read
    is split at its dots, quotes dropped (the merge's own check refuses what that cuts wrong)."""
    parts: list[str] = []
    at = 0
    while at < len(key):
        found = _KEY_PART.match(key, at)
        if found is None or found.end() == at:
            return re.sub(r"\s*\.\s*", ".", key).replace('"', "").split(".")
        basic, literal, bare, _dot = found.groups()
        if basic is not None:  # its escapes read as TOML reads them
            try:
                parts.append(str(tomllib.loads(f'k = "{basic}"')["k"]))
            except tomllib.TOMLDecodeError:
                parts.append(basic)
        else:
            parts.append(literal if literal is not None else bare)
        at = found.end()
    return parts


def _toml_table(table: str, ours: dict[str, Any], name: str) -> str:
    from orkestra.render.targets import toml_out

    return "\n" + toml_out.table(f"{table}.{toml_out.key(name)}", ours)
