"""``python -m service``: serve dragonroll with uvicorn (127.0.0.1:8000 unless told otherwise).

Settings come from ``DRAGONROLL_*`` variables (``service.settings``); ``--host``/``--port``/
``--workers`` override them. A bad value stops start-up with one line naming the variable. On SIGTERM
uvicorn stops accepting connections and gives in-flight requests ``DRAGONROLL_GRACEFUL_TIMEOUT``
seconds to finish.
"""

from __future__ import annotations

import argparse

import uvicorn

from service.logs import uvicorn_log_config
from service.settings import load


def main(argv: list[str] | None = None) -> None:
    settings = load()
    parser = argparse.ArgumentParser(
        prog="dragonroll", description="Serve the dragonroll rules API."
    )
    parser.add_argument("--host", default=settings.host, help="address (DRAGONROLL_HOST)")
    parser.add_argument("--port", type=int, default=settings.port, help="port (DRAGONROLL_PORT)")
    parser.add_argument(
        "--workers", type=int, default=settings.workers, help="processes (DRAGONROLL_WORKERS)"
    )
    args = parser.parse_args(argv)
    uvicorn.run(
        "service.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_config=uvicorn_log_config(settings),
        log_level=settings.log_level,
        access_log=False,
        server_header=False,
        proxy_headers=False,
        timeout_graceful_shutdown=settings.graceful_timeout,
        timeout_keep_alive=5,
        limit_concurrency=None,
    )


if __name__ == "__main__":
    main()
