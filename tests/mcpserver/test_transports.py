"""The real `orkestra mcp serve`: over stdio as a subprocess, and over streamable HTTP."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.mcpserver.conftest import call

ORKESTRA = str(Path(sys.executable).parent / "orkestra")
#: a client's first message, as a raw stdio line
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"},
    },
}


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "ORKESTRA_ROOT"}


def test_stdio_subprocess_answers_search(root: Path) -> None:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=ORKESTRA, args=["mcp", "serve"], cwd=str(root), env=_env()
    )

    async def main() -> Any:
        async with Client(params) as client:
            return await call(client, "search", query="DEC-PL-142")

    data = anyio.run(main)
    assert data["results"][0]["cite"] == "registries/decisions/records/DEC-PL-142.yaml:1"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for(port: int, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited: {proc.stderr.read() if proc.stderr else ''!r}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("the HTTP server did not start listening")


def test_http_on_a_loopback_port_answers_a_tool(root: Path) -> None:
    from mcp import Client

    port = _free_port()
    proc = subprocess.Popen(
        [ORKESTRA, "--root", str(root), "mcp", "serve", "--http", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=_env(),
    )
    try:
        _wait_for(port, proc)

        async def main() -> Any:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                return await call(client, "get", kind="truth", id="GT-PIPE-001")

        data = anyio.run(main)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)  # waits, and closes the pipes
    assert data["cite"] == "registries/truths/pipeline.yaml:5"
    assert f"serving http://127.0.0.1:{port}/mcp" in err.decode()


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("0.0.0.0:8765", "is not a loopback address"),
        ("localhost", "--http wants HOST:PORT"),
        ("127.0.0.1:99999", "--http wants HOST:PORT"),
    ],
)
def test_http_refuses_bad_or_remote_addresses(
    cli: Any, root: Path, address: str, message: str
) -> None:
    result = cli("mcp", "serve", "--http", address, cwd=root)
    assert result.exit_code == 2 and message in result.stderr


def test_a_remote_address_needs_the_flag_and_gets_a_warning() -> None:
    from orkestra.mcpserver.run import check_http

    host, port, warning = check_http("0.0.0.0:8765", allow_remote=True)
    assert (host, port) == ("0.0.0.0", 8765)
    assert warning is not None and "no authentication of its own" in warning
    assert check_http("[::1]:9000", allow_remote=False) == ("::1", 9000, None)
    assert check_http("localhost:9000", allow_remote=False)[2] is None


def test_a_port_in_use_is_a_clean_error_not_uvicorns_exit_3(cli: Any, root: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = cli("mcp", "serve", "--http", f"127.0.0.1:{port}", cwd=root)
    assert result.exit_code == 1, result.stderr
    assert f"--http 127.0.0.1:{port}: cannot listen there" in result.stderr
    assert "serving" not in result.stderr and "internal error" not in result.stderr


def test_a_server_that_fails_to_start_is_a_clean_error(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.core.errors import ConflictError
    from orkestra.mcpserver import run, server

    class Failing:
        def run(self, *args: Any, **kwargs: Any) -> None:
            raise SystemExit(3)  # what uvicorn does when it cannot bind

    monkeypatch.setattr(server, "build", lambda ws: Failing())
    with pytest.raises(ConflictError, match="the server could not start"):
        run.serve(root, ("127.0.0.1", 9))


def test_the_cli_does_not_import_the_sdk_for_other_commands() -> None:
    code = (
        "import sys, io, contextlib\n"
        "import orkestra.cli.entry as e\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    e.main(['--help'])\n"
        "    e.main(['mcp', '--help'])\n"
        "bad = sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'mcp_types')))\n"
        "print(bad)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=_env()
    )
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_serve_outside_a_project_is_an_error(cli: Any, tmp_path: Path) -> None:
    result = cli("mcp", "serve", cwd=tmp_path)
    assert result.exit_code == 1 and "no registries/ folder" in result.stderr


def test_stdio_answers_a_malformed_line_with_a_json_rpc_error_and_goes_on(root: Path) -> None:
    """JSON-RPC 2.0: a line that is not JSON gets -32700 Parse error, JSON that is no message
    -32600 Invalid Request, both with id null; a blank line gets nothing; the server serves on."""
    lines = ["{not json", "", '{"jsonrpc": "2.0", "id": 7, "method": 5}', json.dumps(INIT)]
    proc = subprocess.run(
        [ORKESTRA, "mcp", "serve"],
        input=("\n".join(lines) + "\n").encode(),
        capture_output=True,
        cwd=root,
        env=_env(),
        timeout=60,
        check=False,
    )
    replies = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert [(r.get("id"), r.get("error", {}).get("code")) for r in replies] == [
        (None, -32700),
        (None, -32600),
        (1, None),
    ], proc.stderr
    assert replies[0]["error"]["message"] == "Parse error"
    assert replies[2]["result"]["serverInfo"]["name"] == "orkestra"


def test_a_stdio_line_over_the_size_limit_is_refused_unread_and_the_server_goes_on(
    root: Path,
) -> None:
    """PRODUCT.md §13: JSON read from stdin has a size limit. A line (one message) longer than
    it is read past in pieces, never held whole (an endless line took every byte of memory
    until the kernel killed the server), answered -32600 with id null; the next line is served."""
    from orkestra.core import jsonio

    huge = '{"jsonrpc": "2.0", "id": 9, "method": "ping", "params": {"x": "' + "x" * (
        jsonio.MAX_BYTES
    )
    proc = subprocess.run(
        [ORKESTRA, "mcp", "serve"],
        input=(huge + '"}}\n' + json.dumps(INIT) + "\n").encode(),
        capture_output=True,
        cwd=root,
        env=_env(),
        timeout=120,
        check=False,
    )
    replies = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert [(r.get("id"), r.get("error", {}).get("code")) for r in replies] == [
        (None, -32600),
        (1, None),
    ], proc.stderr[-2000:]
    assert f"longer than {jsonio.MAX_BYTES:,} characters" in replies[0]["error"]["data"]


def test_bounded_lines_reads_a_long_line_in_pieces() -> None:
    import io

    from orkestra.mcpserver.stdio import TOO_LONG, BoundedLines, error_reply

    lines = BoundedLines(io.BytesIO(b"12345\n" + b"y" * 100 + b"\n123456\nend"), limit=6)
    assert [lines.readline() for _ in range(5)] == ["12345\n", TOO_LONG, "123456\n", "end", ""]
    from mcp_types import jsonrpc_message_adapter

    try:
        jsonrpc_message_adapter.validate_json(TOO_LONG, by_name=False)
    except Exception as exc:
        reply = error_reply(exc)
    assert reply is not None and reply.error.code == -32600


def test_ctrl_c_ends_the_stdio_server_while_its_client_keeps_stdin_open(root: Path) -> None:
    """PRODUCT.md §5: 130 interrupted. The SDK read stdin in a worker thread it waited for, so
    SIGINT hung the server until the client closed stdin; it now ends at once."""
    import signal

    with subprocess.Popen(
        [ORKESTRA, "mcp", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=root,
        env=_env(),
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write((json.dumps(INIT) + "\n").encode())
            proc.stdin.flush()
            assert json.loads(proc.stdout.readline())["id"] == 1  # serving, stdin open
            proc.send_signal(signal.SIGINT)
            try:
                code = proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                code = None
            assert code == 130, "the server did not end on SIGINT while stdin stayed open"
        finally:
            proc.kill()


def test_daemon_lines_reads_every_line_then_the_end() -> None:
    import io

    from orkestra.mcpserver.stdio import DaemonLines

    async def read() -> list[str]:
        return [line async for line in DaemonLines(io.StringIO("a\nb\nlast"))]

    assert anyio.run(read) == ["a\n", "b\n", "last"]
