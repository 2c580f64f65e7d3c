"""Record golden responses: for every ``tests/golden/<system>/<name>.request.json`` write the exact
response body beside it as ``<name>.response.json`` (``make golden``). ``tests/golden/test_golden.py``
replays every request and compares bytes, so any change of behaviour shows up as a diff to review.

A request file is ``{"path": "/dos/test", "body": {...}}``; its body must carry a ``seed`` (or script
every die) so the response is fixed.
"""

from __future__ import annotations

import asyncio
import json
import sys
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


def main() -> None:
    for request_file in requests():
        spec = json.loads(request_file.read_text(encoding="utf-8"))
        status, content = asyncio.run(respond(spec["path"], spec["body"]))
        if status != spec.get("status", 200):
            raise SystemExit(f"{request_file}: status {status}: {content[:300]!r}")
        response_file(request_file).write_bytes(content + b"\n")
        print(f"wrote {response_file(request_file).relative_to(ROOT)}")


if __name__ == "__main__":
    main()
