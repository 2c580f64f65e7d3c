"""``python -m service``: serve dragonroll with uvicorn (127.0.0.1:8000 unless told otherwise).

Settings come from ``DRAGONROLL_*`` variables (``service.settings``), ``--host``/``--port``/
``--workers`` override them. A bad value, or a port another process listens on, stops start-up
with one line naming the setting to change, before anything is built, bound or spawned.
"""

from __future__ import annotations

import argparse
import errno
import socket
import sys

import uvicorn

from service.logs import uvicorn_log_config
from service.server import server_options
from service.settings import load

#: setting -> its flag
FLAGS = {"host": "--host", "port": "--port", "workers": "--workers"}


def main(argv: list[str] | None = None) -> None:
    args_given = sys.argv[1:] if argv is None else argv
    if args_given[:1] == ["mcp"]:  # `dragonroll mcp`: the MCP server over stdio (service.mcp_stdio)
        from service.mcp_stdio import main as mcp_main  # noqa: PLC0415 - only for this command

        mcp_main(args_given[1:])
        return
    parser = argparse.ArgumentParser(
        prog="dragonroll", description="Serve the dragonroll rules API."
    )
    parser.add_argument("--host", help="address (DRAGONROLL_HOST, default 127.0.0.1)")
    parser.add_argument("--port", help="port, 1-65535 (DRAGONROLL_PORT, default 8000)")
    parser.add_argument("--workers", help="processes, 1-64 (DRAGONROLL_WORKERS, default 1)")
    args = parser.parse_args(argv)
    given = {name: value for name in FLAGS if (value := getattr(args, name)) is not None}
    settings = load(given, {name: FLAGS[name] for name in given})
    if port_taken(settings.host, settings.port):
        raise SystemExit(
            f"dragonroll: port {settings.port} on {settings.host} is taken: choose a free one with "
            "--port or DRAGONROLL_PORT"
        )
    uvicorn.run(
        "service.app:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        log_level=settings.log_level,
        **server_options(settings.graceful_timeout, uvicorn_log_config(settings)),
    )


def port_taken(host: str, port: int) -> bool:
    """Whether another socket listens on ``port`` of ``host``: bound here as uvicorn binds it
    (``SO_REUSEADDR``: a port left in TIME_WAIT is free), then let go."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    for family, kind, proto, _, address in found:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as refused:
                if refused.errno == errno.EADDRINUSE:
                    return True
                raise
    return False


if __name__ == "__main__":
    main()
