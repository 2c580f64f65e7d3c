"""The service with one more odds endpoint, ``POST /heavy/odds``, that burns CPU for ``seconds``
(a stand-in for the heaviest accepted odds or simulation): ``tests/service/test_server_limits.py``
serves it under uvicorn to measure the probes and SIGTERM while it runs."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, FastAPI
from pydantic import BaseModel, ConfigDict, Field

from service.app import create_app as create_service
from service.odds import add_odds
from service.routing import include


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


def create_app() -> FastAPI:
    app = create_service()
    router = APIRouter(prefix="/heavy")
    add_odds(
        router,
        "/odds",
        answer=burn,
        request_model=Burn,  # type: ignore[arg-type]
        response_model=Burnt,
        summary="burn",
        description="burn",
        examples={},
    )
    include(app, router)
    return app
