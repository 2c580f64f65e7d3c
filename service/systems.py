"""``GET /systems``: the registry as the service serves it, built once per app from the
descriptors (each system's names, rules version, languages, capabilities and endpoints)."""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import FastAPI
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from rules.narration import LANGUAGES
from rules.system import Capability, Odds, System
from service.encoding import encode

PATH = "/systems"


class EndpointInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    path: str = Field(description="The resolving endpoint, as served (`POST`).")
    summary: str
    outcome: list[str] = Field(
        description="The event codes that tell its outcome: an answer's events with one of these "
        "codes, in order, are the outcome in one line (their `text` in the answer's language)."
    )
    odds: str | None = Field(
        default=None, description="Its odds endpoint (no die drawn), where it has one."
    )
    simulate: str | None = Field(
        default=None, description="Its simulation endpoint (whole fights), where it has one."
    )
    foundry: bool = Field(
        description="Whether its requests take `foundry: true` (its answer then adds the dice as "
        "Foundry VTT rolls); without it, `foundry` in a request is a 422."
    )


class SystemInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="The system's id and path prefix (`/<id>`).")
    name: dict[str, str] = Field(
        description="Display name by language code, one for every language the service speaks "
        "(English where the system has no name of its own in that language)."
    )
    rules_version: str = Field(
        description="The version its answers carry in `rules_version` (docs/dice.md)."
    )
    languages: list[str] = Field(
        description="The languages its texts are all translated into; another language is "
        "answered, with those texts in English."
    )
    game: bool = Field(description="false for an entry without a game (the dice roller).")
    capabilities: list[Capability] = Field(
        description="What it has beyond resolving, in this order: `foundry` (Foundry VTT rolls: "
        "the requests of its endpoints marked `foundry` take `foundry`), `odds` (odds endpoints), `simulate` (simulations), "
        "`counted` (counted phrases in its texts), `gendered` (its requests take a participant's "
        "grammatical `gender`). A capability it lacks is not listed."
    )
    endpoints: list[EndpointInfo]


def describe(system: System) -> SystemInfo:
    """One system as ``GET /systems`` shows it."""
    odds = {o.of: system.prefix + o.path for o in system.odds if isinstance(o, Odds) and o.of}
    simulate = {o.of: system.prefix + o.path for o in system.simulations if o.of}
    return SystemInfo(
        id=system.id,
        name={lang: system.display_name(lang) for lang in LANGUAGES},
        rules_version=system.rules_version,
        languages=list(system.languages()),
        game=system.game,
        capabilities=[c for c in Capability if c in system.capabilities],
        endpoints=[
            EndpointInfo(
                path=system.prefix + e.path,
                summary=e.summary,
                outcome=list(e.outcome),
                odds=odds.get(e.path),
                simulate=simulate.get(e.path),
                foundry=e.foundry,
            )
            for e in system.endpoints
        ],
    )


def add_systems_route(app: FastAPI, systems: Sequence[System]) -> None:
    """``GET /systems``, its answer built now: the descriptors do not change while the app runs."""
    answer = [describe(s).model_dump(exclude_none=True) for s in systems]
    body = encode(answer)

    async def list_systems() -> Response:
        return Response(body, media_type="application/json")

    app.add_api_route(
        PATH,
        list_systems,
        methods=["GET"],
        response_model=list[SystemInfo],
        # The answer itself is the document's example: a client can read the systems from the
        # committed document too (the Owlbear extension's tests do).
        responses={200: {"content": {"application/json": {"example": answer}}}},
        summary="The systems served, their versions, languages and endpoints",
        description=(
            "The registry: every system in the order of this document, with its display name "
            "in each language, its `rules_version`, the languages its texts are translated into, "
            "its capabilities, and its resolving endpoints with their odds and simulation paths where they exist. "
            "An endpoint without odds or a simulation has no `odds` or `simulate` key."
        ),
        tags=["Service"],
        operation_id="list_systems",
    )
