"""What the ops tests share (``tests/service/test_ops*.py``): a body, an origin, the log and
metrics readers, a system that fails as a bug would."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
from fastapi import FastAPI

from rules.budget import NO_DICE
from rules.models import RollRequest
from rules.registry import SYSTEMS
from rules.system import Endpoint, System
from service.app import create_app
from service.settings import Settings
from tests.conftest import Api

ROLL = {"pool": 3, "seed": "ops"}


FOUNDRY = "http://localhost:30000"


def log_lines(err: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in err.splitlines() if line.startswith("{")]


def requests_logged(err: str) -> list[dict[str, Any]]:
    return [line for line in log_lines(err) if line.get("event") == "request"]


def metric(text: str, name: str, **labels: str) -> float:
    """The value of one sample of the Prometheus text ``text`` (0 when absent)."""
    for line in text.splitlines():
        if not line.startswith(name + "{") and not line.startswith(name + " "):
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', line.split("}")[0]))
        if found == labels:
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def run_in_lifespan(app: FastAPI, *calls: tuple[str, str]) -> list[httpx.Response]:
    """Requests made while the app's lifespan runs (httpx's transport does not run it)."""

    async def go() -> list[httpx.Response]:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                return [await client.request(m, p) for m, p in calls]

    return asyncio.run(go())


def chunks(total: int, size: int = 4096) -> Iterator[bytes]:
    yield b'{"pool": 3, "seed": "'
    sent = 0
    while sent < total:
        yield b"a" * size
        sent += size
    yield b'"}'


JSON = {"content-type": "application/json"}


class BrokenRequest(RollRequest):
    pool: int = 1


def broken(req: BrokenRequest, dice: Any) -> Any:
    raise RuntimeError("secret internals: /etc/passwd")


BROKEN = System(
    id="broken",
    name={"en": "Broken"},
    rules_version="broken-1",
    endpoints=(
        Endpoint(
            path="/roll",
            summary="broken",
            description="broken",
            request=BrokenRequest,
            result=dict,
            resolve=broken,
            slots=lambda req: {},
            slot_doc="none",
            work=lambda req: NO_DICE,
            examples={},
        ),
    ),
    texts=(),
)


def failing_app(**settings: Any) -> Api:
    """The service with the :data:`BROKEN` system beside the registry's."""
    api = Api(**settings)
    api.app = create_app(Settings(**settings), systems=(*SYSTEMS, BROKEN))
    return api


CHROME_PNA_PREFLIGHT = {
    "Origin": "https://owlbear.example",
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "content-type,accept-language",
    "Access-Control-Request-Private-Network": "true",
}


def _vary(response: httpx.Response) -> list[str]:
    """The names in a response's ``Vary`` headers, in order."""
    return [
        name.strip() for value in response.headers.get_list("vary") for name in value.split(",")
    ]


async def achunks(total: int) -> AsyncIterator[bytes]:
    for chunk in chunks(total):
        yield chunk


async def iter_bytes(data: bytes) -> AsyncIterator[bytes]:
    for i in range(0, len(data), 5):
        yield data[i : i + 5]
