"""Record golden responses: for every ``tests/golden/<system>/<name>.request.json`` write the exact
response body beside it as ``<name>.response.json`` (``make golden``; ``make golden SYSTEM=<id>``, or
``--system <id>`` here, records that system's alone). ``tests/golden/test_golden.py`` replays every
request and compares bytes, so any change of behaviour shows up as a diff to review.

A request file is ``{"path": "/dos/test", "body": {...}}`` (and ``"status"`` when it is not 200),
under the directory of the system whose endpoint it calls; :func:`load` refuses one that breaks a
rule, saying what to do.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


def requests() -> list[Path]:
    return sorted(GOLDEN.glob("*/*.request.json"))


class Golden(NamedTuple):
    path: str
    body: Any
    status: int


def load(request_file: Path) -> Golden:
    """The golden request in ``request_file``, checked against the registry: it calls an endpoint of
    the system its directory names, and carries a ``seed`` where a 200 answer shows one (without it
    the service makes a new seed on every run, scripted ``dice`` or not, and the bytes change)."""
    sys.path.insert(0, str(ROOT))
    from rules.registry import IDS, find

    spec = json.loads(request_file.read_text(encoding="utf-8"))
    golden = Golden(spec["path"], spec["body"], spec.get("status", 200))
    where = request_file.relative_to(ROOT) if request_file.is_relative_to(ROOT) else request_file
    if request_file.parent.name not in IDS:
        raise ValueError(f"{where}: put it under tests/golden/<id>/, one of {', '.join(IDS)}")
    system = find(request_file.parent.name)
    entries = {system.prefix + entry.path: entry for entry in system.entries()}
    entry = entries.get(golden.path)
    if entry is None:
        raise ValueError(f"{where}: {golden.path} is not one of {', '.join(entries)}")
    if entry.seeded and golden.status == 200 and "seed" not in golden.body:
        raise ValueError(
            f'{where}: add a "seed" to its body: {golden.path} answers with the seed it used, '
            "and without one the service makes a new one on every run"
        )
    return golden


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
        try:
            golden = load(request_file)
        except ValueError as refused:
            raise SystemExit(str(refused)) from None
        status, content = asyncio.run(respond(golden.path, golden.body))
        if status != golden.status:
            raise SystemExit(f"{request_file}: status {status}: {content[:300]!r}")
        response_file(request_file).write_bytes(content + b"\n")
        print(f"wrote {response_file(request_file).relative_to(ROOT)}")


if __name__ == "__main__":
    main()
