"""`orkestra mcp serve`: open the workspace, build the server, serve stdio or streamable HTTP."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

from orkestra.core.errors import UsageError

DEFAULT_PATH = "/mcp"
NO_AUTH_WARNING = (
    "warning: serving MCP on {host}, which is not a loopback address: the server has no "
    "authentication of its own; anyone who can reach {host}:{port} can read the registries "
    "(put it behind your own authenticating proxy)"
)


def parse_address(value: str) -> tuple[str, int]:
    """`HOST:PORT` (or `[v6]:PORT`, or `:PORT` for loopback) -> (host, port); else a usage error."""
    host, sep, port_text = value.rpartition(":")
    if not sep or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise UsageError(f"--http wants HOST:PORT (e.g. 127.0.0.1:8765), got '{value}'")
    host = host.strip("[]") or "127.0.0.1"
    return host, int(port_text)


def is_loopback(host: str) -> bool:
    """True for localhost and loopback addresses (a name is resolved; unresolvable: False)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        try:
            infos = socket.getaddrinfo(host, None)
        except OSError:  # an unknown name is not proven loopback: treated as remote
            return False
        return bool(infos) and all(ipaddress.ip_address(i[4][0]).is_loopback for i in infos)


def check_http(value: str, allow_remote: bool) -> tuple[str, int, str | None]:
    """(host, port, warning): a non-loopback host needs `allow_remote`, and is warned about."""
    host, port = parse_address(value)
    if is_loopback(host):
        return host, port, None
    if not allow_remote:
        raise UsageError(
            f"--http {value}: {host} is not a loopback address; the server has no "
            "authentication of its own. Pass --allow-remote to serve it anyway (behind your "
            "own proxy), or use 127.0.0.1"
        )
    return host, port, NO_AUTH_WARNING.format(host=host, port=port)


def check_free(host: str, port: int) -> None:
    """Refuse (`ConflictError`, exit 1) an address the server could not listen on (a port in
    use, an address not on this machine), before anything starts: uvicorn would print its own
    error and exit 3, the code of an internal error."""
    from orkestra.core.errors import ConflictError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, kind, proto, _, where = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            probe.bind(where)
    except OSError as exc:
        raise ConflictError(
            f"--http {host}:{port}: cannot listen there ({exc.strerror or exc}); "
            "pick another port or address"
        ) from None


def serve(root: Path, http: tuple[str, int] | None = None) -> None:
    """Load the project and serve until the client disconnects (stdio) or the process stops."""
    from orkestra.mcpserver.server import build
    from orkestra.mcpserver.workspace import Workspace

    ws = Workspace.open(root)
    try:
        server = build(ws)
        if http is None:
            server.run("stdio")
        else:
            host, port = http
            try:
                server.run(
                    "streamable-http", host=host, port=port, streamable_http_path=DEFAULT_PATH
                )
            except SystemExit as exc:  # uvicorn failed to start (taken since `check_free`)
                from orkestra.core.errors import ConflictError

                raise ConflictError(
                    f"--http {host}:{port}: the server could not start (exit {exc.code}, "
                    "see the message above); pick another port or address"
                ) from None
    finally:
        ws.close()
