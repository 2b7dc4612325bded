"""`orkestra mcp serve`: the registries and knowledge as an MCP server (PRODUCT.md §11).

The `mcp` SDK is imported by `orkestra.mcpserver.server` only, when the server starts: no other
command pays for it.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from orkestra.cli.common import new_app, project_root
from orkestra.core.errors import ExitCode

app = new_app("Serve the registries and knowledge over the Model Context Protocol.")


@app.callback()
def mcp() -> None:
    """The Model Context Protocol server (a group, so `serve` stays a subcommand)."""


@app.command("serve")
def serve(
    http: Annotated[
        str | None,
        typer.Option(
            "--http",
            metavar="HOST:PORT",
            help="Streamable HTTP on this address (loopback unless --allow-remote); "
            "default: stdio.",
        ),
    ] = None,
    allow_remote: Annotated[
        bool,
        typer.Option(
            "--allow-remote",
            help="Allow a non-loopback --http address (the server has no authentication).",
        ),
    ] = False,
) -> ExitCode:
    """Serve search, get, list, context_for, check_notes, verify_truths and mine_candidates
    (and the orkestra:// resources) from a warm index, refreshed when files change."""
    from orkestra.mcpserver.run import check_free, check_http
    from orkestra.mcpserver.run import serve as run

    address = None
    if http is not None:
        host, port, warning = check_http(http, allow_remote)
        check_free(host, port)
        if warning:
            sys.stderr.write(warning + "\n")
        shown = f"[{host}]" if ":" in host else host
        sys.stderr.write(f"orkestra mcp: serving http://{shown}:{port}/mcp\n")
        address = (host, port)
    run(project_root(), address)
    return ExitCode.OK
