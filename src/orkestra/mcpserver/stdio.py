"""JSON-RPC error replies to the stdio lines that are no message (the official transport drops them).

The SDK's stdio transport (`mcp.server.stdio.stdio_server`) parses each line it reads and puts
the exception of a line that is not a JSON-RPC message on its read stream, where the server only
logs it: the client never hears back. JSON-RPC 2.0 wants a reply: `-32700 Parse error` for a line
that is not JSON, `-32600 Invalid Request` for JSON that is no message, the id null (it cannot be
known). `Replying` wraps the transport's read stream and sends that reply on its write
stream; the transport itself is the SDK's, unchanged.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError


def error_reply(exc: Exception) -> JSONRPCError | None:
    """The JSON-RPC error for a line the transport could not read as a message (None for a
    blank line, which is no message to answer, or an exception that is not a parse failure)."""
    if not isinstance(exc, ValidationError):
        return None
    errors = exc.errors()
    raw = errors[0].get("input") if errors else None
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
    """`MCPServer` whose stdio transport answers malformed lines (`Replying`); the rest is the
    SDK's `run_stdio_async`, which this overrides, line for line."""

    async def run_stdio_async(self) -> None:
        low = self._lowlevel_server  # what the SDK's own run_stdio_async serves
        async with stdio_server() as (read_stream, write_stream):
            options = low.create_initialization_options()
            await low.run(Replying(read_stream, write_stream), write_stream, options)
