"""The service with one more odds endpoint, ``POST /heavy/odds``, that burns CPU for ``seconds``
(a stand-in for the heaviest accepted odds or simulation): ``tests/service/test_server_limits.py``
serves it under uvicorn to measure the probes and SIGTERM while it runs. It is a system of its own,
served beside the registry's as any other (``create_app(systems=...)``)."""

from __future__ import annotations

import time
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field

from rules.budget import NO_DICE
from rules.registry import SYSTEMS
from rules.system import Odds, System
from service.app import create_app as create_service


class Burn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seconds: float = Field(ge=0, le=120)


def burn(req: Burn) -> dict[str, Any]:
    end = time.process_time() + req.seconds
    n = 0
    while time.process_time() < end:  # pure Python work, holding the GIL as odds code does
        n += sum(i * i for i in range(1000))
    return {"burnt": req.seconds}


class Burnt(BaseModel):
    burnt: float


HEAVY = System(
    id="heavy",
    name={"en": "Heavy"},
    rules_version="heavy-1",
    endpoints=(),
    texts=(),
    odds=(
        Odds(
            path="/odds",
            summary="burn",
            description="burn",
            result=Burnt,
            examples={},
            request=Burn,
            answer=burn,
            work=lambda req: NO_DICE,
        ),
    ),
    game=False,
)


def create_app() -> FastAPI:
    return create_service(systems=(*SYSTEMS, HEAVY))
