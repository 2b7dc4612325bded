"""JSON-RPC error replies to the stdio lines that are no message (the official transport drops them).

The SDK's stdio transport (`mcp.server.stdio.stdio_server`) parses each line it reads and puts
the exception of a line that is not a JSON-RPC message on its read stream, where the server only
logs it: the client never hears back. JSON-RPC 2.0 wants a reply: `-32700 Parse error` for a line
that is not JSON, `-32600 Invalid Request` for JSON that is no message, the id null (it cannot be
known). `Replying` wraps the transport's read stream and sends that reply on its write
stream; the transport itself is the SDK's, unchanged.

The transport reads whole lines, however long: an endless line (a client's bug, or a stream that
never sends a newline) would take every byte of memory. Its stdin is therefore `BoundedLines`
(PRODUCT.md §13: JSON read from stdin has a size limit): a line longer than `MAX_LINE` characters
is read past in pieces and answered -32600, never held whole.

A read blocked on stdin cannot be cancelled, and the SDK reads it in a worker thread it waits
for: Ctrl-C (SIGINT) with the client's stdin still open hung the server until stdin closed.
`DaemonLines` reads the lines in a daemon thread instead, so an interrupt ends the server at
once (exit 130, PRODUCT.md §5) and the process does not wait for the blocked read.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import sys
import threading
from collections.abc import AsyncIterator
from types import TracebackType
from typing import Any, BinaryIO

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError

from orkestra.core.jsonio import MAX_BYTES

#: the longest line (one JSON-RPC message) read from stdin, in characters: the JSON reader's limit
MAX_LINE = MAX_BYTES
#: what a longer line reads as (not JSON: the transport hands its parse failure to `Replying`)
TOO_LONG = "\x00orkestra: line over the size limit\n"
_PIECE = 1 << 16


class BoundedLines:
    """A binary stream's lines as UTF-8 text (undecodable bytes replaced, as the SDK reads
    them), none longer than `limit` characters: a longer line is read past in pieces of
    `_PIECE` characters and stands as `TOO_LONG`. Closing it leaves the stream open (it is the
    transport's, as the SDK's own wrapper leaves it)."""

    def __init__(self, buffer: BinaryIO, limit: int = MAX_LINE) -> None:
        self._text = io.TextIOWrapper(buffer, encoding="utf-8", errors="replace")
        self._limit = limit

    def readline(self) -> str:
        line = self._text.readline(self._limit + 1)
        if len(line) <= self._limit or line.endswith("\n"):
            return line
        while True:  # the rest of the line, read and dropped
            piece = self._text.readline(_PIECE)
            if not piece or piece.endswith("\n"):
                return TOO_LONG

    def close(self) -> None:
        with contextlib.suppress(ValueError):  # already detached
            self._text.detach()


def error_reply(exc: Exception) -> JSONRPCError | None:
    """The JSON-RPC error for a line the transport could not read as a message (None for a
    blank line, which is no message to answer, or an exception that is not a parse failure)."""
    if not isinstance(exc, ValidationError):
        return None
    errors = exc.errors()
    raw = errors[0].get("input") if errors else None
    if raw == TOO_LONG:
        why = f"a message longer than {MAX_LINE:,} characters: not read"
        error = ErrorData(code=INVALID_REQUEST, message="Invalid Request", data=why)
        return JSONRPCError(jsonrpc="2.0", id=None, error=error)
    if isinstance(raw, str | bytes) and not raw.strip():
        return None
    if errors and errors[0]["type"] == "json_invalid":
        detail = errors[0]["msg"]
        return JSONRPCError(
            jsonrpc="2.0",
            id=None,
            error=ErrorData(code=PARSE_ERROR, message="Parse error", data=detail),
        )
    # the id of a message that failed validation is not known to be one: null, as JSON-RPC says
    error = ErrorData(
        code=INVALID_REQUEST, message="Invalid Request", data="not a JSON-RPC 2.0 message"
    )
    return JSONRPCError(jsonrpc="2.0", id=None, error=error)


class DaemonLines:
    """The lines of `source` (its `readline`, the last one empty at its end) for `async for`,
    read by a daemon thread one line ahead: awaiting a line can be cancelled, and nothing waits
    for the thread, which may stay blocked in a read until the process ends."""

    def __init__(self, source: Any) -> None:
        self._source = source
        self._lines: asyncio.Queue[str] | None = None

    def _start(self) -> asyncio.Queue[str]:
        loop = asyncio.get_running_loop()
        lines: asyncio.Queue[str] = asyncio.Queue(maxsize=1)

        def pump() -> None:
            while True:
                line = self._source.readline()
                try:  # one line ahead at most: waits while the server has not taken the last
                    asyncio.run_coroutine_threadsafe(lines.put(line), loop).result()
                except (RuntimeError, asyncio.CancelledError):  # the loop is gone: stop
                    return
                if not line:
                    return

        threading.Thread(target=pump, name="orkestra stdin", daemon=True).start()
        return lines

    async def readline(self) -> str:
        if self._lines is None:
            self._lines = self._start()
        return await self._lines.get()

    async def __aiter__(self) -> AsyncIterator[str]:
        while line := await self.readline():
            yield line


class Replying:
    """The transport's read stream, less the parse failures, each answered on `write`."""

    def __init__(self, read: Any, write: Any) -> None:
        self._read = read
        self._write = write

    @property
    def last_context(self) -> Any:  # the sender's context, as the SDK's runner reads it
        return getattr(self._read, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        while True:
            item: SessionMessage | Exception = await self._read.receive()
            if not isinstance(item, Exception):
                return item
            reply = error_reply(item)
            if reply is None:
                return item  # not ours to answer: the server handles it as before
            await self._write.send(SessionMessage(reply))

    async def aclose(self) -> None:
        await self._read.aclose()

    def __aiter__(self) -> Replying:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def __aenter__(self) -> Replying:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        await self.aclose()
        return None


class Server(MCPServer):
    """`MCPServer` whose stdio transport answers malformed lines (`Replying`) and reads stdin
    through `BoundedLines`; the rest is the SDK's `run_stdio_async`, which this overrides."""

    async def run_stdio_async(self) -> None:
        from mcp.server import stdio as sdk

        low = self._lowlevel_server  # what the SDK's own run_stdio_async serves
        # fd 0 claimed as the SDK claims it (diverted to the null device while serving, so a
        # child process never reads the wire), read through `BoundedLines`
        buffer, restore = sdk._claim_fd(0, sys.stdin, "rb", sdk._open_stdin_diversion)
        try:
            stdin = DaemonLines(BoundedLines(buffer))  # what `async for` reads, as an AsyncFile
            async with stdio_server(stdin=stdin) as (read_stream, write_stream):  # type: ignore[arg-type]
                options = low.create_initialization_options()
                await low.run(Replying(read_stream, write_stream), write_stream, options)
        finally:
            if restore is not None:
                restore()
