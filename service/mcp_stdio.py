"""``dragonroll mcp``: the MCP server over stdio, in process (``service.mcp.make_server`` on the same
app), one JSON-RPC message a line, each read raw first (``service.mcp_wire``), logs on stderr
(docs/mcp.md). While it serves, file descriptor 1 points at stderr, so that a stray ``print`` cannot
reach the host's pipe: only the protocol does.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import AsyncIterator
from contextlib import contextmanager
from typing import Any, BinaryIO, cast

import anyio
from mcp.server.stdio import stdio_server

from service.mcp import make_server, quiet_sdk
from service.mcp_tools import Catalog
from service.mcp_wire import Refusal, Wire
from service.settings import Settings, load


class _Out:
    """The protocol's side of stdout: each line written whole."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream

    async def write(self, text: str) -> None:
        self.line(text.encode("utf-8"))

    def line(self, data: bytes) -> None:
        self.stream.write(data if data.endswith(b"\n") else data + b"\n")
        self.stream.flush()

    async def flush(self) -> None:
        return None


class _Lines:
    """stdin's lines, each taken by the wire before the SDK reads it (a refused one, a batch or a
    key twice, is answered here, and the SDK never sees it)."""

    def __init__(self, stream: BinaryIO, wire: Wire, out: _Out) -> None:
        self.stream = stream
        self.wire = wire
        self.out = out

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        while True:
            raw = await anyio.to_thread.run_sync(self.stream.readline, abandon_on_cancel=True)
            if not raw:
                return
            line = raw.decode("utf-8", errors="replace")
            if not line.strip():
                continue
            try:
                self.wire.take(line)
            except Refusal as refused:
                self.out.line(refused.message())
                continue
            yield line


@contextmanager
def _protocol_stdout() -> Any:
    """A private copy of fd 1 for the protocol; fd 1 itself pointed at stderr meanwhile."""
    sys.stdout.flush()
    private = os.dup(1)
    os.dup2(2, 1)
    try:
        with os.fdopen(private, "wb", buffering=0, closefd=False) as stream:
            yield stream
    finally:
        os.dup2(private, 1)
        os.close(private)


async def serve(settings: Settings, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Serve MCP on ``stdin``/``stdout`` until stdin ends, the app's lifespan around it."""
    from service.app import create_app  # noqa: PLC0415 - the app and its imports, when served

    app = create_app(settings)
    quiet_sdk()
    wire = Wire()
    server = make_server(app, Catalog(app), wire)
    out = _Out(stdout)
    async with (
        app.router.lifespan_context(app),
        stdio_server(stdin=cast(Any, _Lines(stdin, wire, out)), stdout=cast(Any, out)) as (
            read,
            write,
        ),
    ):
        await server.run(read, write, server.create_initialization_options())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="dragonroll mcp",
        description=(
            "Speak the Model Context Protocol on stdin and stdout (for a desktop MCP host); the"
            " settings are the service's DRAGONROLL_* variables, the logs go to stderr."
        ),
    )
    parser.parse_args(argv)
    settings = load()
    with _protocol_stdout() as stdout:
        anyio.run(serve, settings, sys.stdin.buffer, stdout)
