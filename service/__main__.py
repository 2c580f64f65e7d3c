"""``python -m service``: serve dragonroll with uvicorn (127.0.0.1:8000 unless told otherwise)."""

from __future__ import annotations

import argparse

import uvicorn

from service.settings import Settings


def main(argv: list[str] | None = None) -> None:
    settings = Settings()
    parser = argparse.ArgumentParser(
        prog="dragonroll", description="Serve the dragonroll rules API."
    )
    parser.add_argument("--host", default=settings.host, help="address (DRAGONROLL_HOST)")
    parser.add_argument("--port", type=int, default=settings.port, help="port (DRAGONROLL_PORT)")
    args = parser.parse_args(argv)
    uvicorn.run("service.app:create_app", factory=True, host=args.host, port=args.port)


if __name__ == "__main__":
    main()
