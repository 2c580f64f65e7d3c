"""Record golden responses: for every ``tests/golden/<system>/<name>.request.json`` write the exact
response body beside it as ``<name>.response.json`` (``make golden``; ``make golden SYSTEM=<id>``, or
``--system <id>`` here, records that system's alone). ``tests/golden/test_golden.py`` replays every
request and compares bytes, so any change of behaviour shows up as a diff to review.

A request file is ``{"path": "/dos/test", "body": {...}}``; its body must carry a ``seed`` (or script
every die) so the response is fixed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


def requests() -> list[Path]:
    return sorted(GOLDEN.glob("*/*.request.json"))


async def respond(path: str, body: object) -> tuple[int, bytes]:
    return (await respond_all([(path, body)]))[0]


async def respond_all(specs: list[tuple[str, object]]) -> list[tuple[int, bytes]]:
    sys.path.insert(0, str(ROOT))
    import httpx

    from service.app import create_app

    transport = httpx.ASGITransport(app=create_app())
    out = []
    async with httpx.AsyncClient(transport=transport, base_url="http://golden") as client:
        for path, body in specs:
            response = await client.post(path, json=body)
            out.append((response.status_code, response.content))
    return out


def response_file(request_file: Path) -> Path:
    return request_file.with_name(request_file.name.replace(".request.json", ".response.json"))


def chosen(systems: Sequence[str]) -> list[Path]:
    """The request files of ``systems`` (every system's when none is named); an id the registry
    does not serve is refused, naming those it does."""
    sys.path.insert(0, str(ROOT))
    from rules.registry import IDS

    unknown = sorted(set(systems) - set(IDS))
    if unknown:
        raise SystemExit(f"no system {', '.join(unknown)}: one of {', '.join(IDS)}")
    return [r for r in requests() if not systems or r.parent.name in systems]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--system", action="append", default=[], help="record this system's goldens only"
    )
    args = parser.parse_args(argv)
    for request_file in chosen(args.system):
        spec = json.loads(request_file.read_text(encoding="utf-8"))
        status, content = asyncio.run(respond(spec["path"], spec["body"]))
        if status != spec.get("status", 200):
            raise SystemExit(f"{request_file}: status {status}: {content[:300]!r}")
        response_file(request_file).write_bytes(content + b"\n")
        print(f"wrote {response_file(request_file).relative_to(ROOT)}")


if __name__ == "__main__":
    main()
