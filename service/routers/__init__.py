"""The systems' routes, built from their descriptors (``rules.registry``; STYLE 21).

One generic builder for every system: its resolving endpoints through ``service.routing.add_resolver``,
its odds and simulations through ``service.odds.add_odds`` / ``add_shaped_odds``, under the system's
prefix and tag. Nothing here names a system: a path a system does not have is the app's 404.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from fastapi import APIRouter

from rules.narration import Texts, texts_of
from rules.system import Odds, System
from service.odds import Shape, add_odds, add_shaped_odds
from service.routing import add_resolver


def routers(systems: Iterable[System]) -> list[APIRouter]:
    """Every system's resolving routes, then every system's odds and simulations (the OpenAPI
    document lists them in this order). Built once per tuple of systems: every app that serves
    them includes the same routers (including copies their routes), as a module-level router is."""
    return list(_routers(tuple(systems)))


@cache
def _routers(systems: tuple[System, ...]) -> tuple[APIRouter, ...]:
    texts = texts_of(systems)
    return (*[resolvers(s, texts) for s in systems], *[odds(s) for s in systems])


def resolvers(system: System, texts: Texts) -> APIRouter:
    """``POST /<system><path>`` for each of the system's endpoints."""
    router = APIRouter(prefix=system.prefix, tags=[system.title])
    for endpoint in system.endpoints:
        add_resolver(
            router,
            endpoint.path,
            resolver=endpoint.resolve,
            slots=endpoint.slots,
            work=endpoint.work,
            request_model=endpoint.request,
            response_model=endpoint.result,
            summary=endpoint.summary,
            description=endpoint.description,
            system=system.id,
            slot_doc=endpoint.slot_doc,
            foundry=system.foundry,
            texts=texts,
            rules_version=system.rules_version,
        )
    return router


def odds(system: System) -> APIRouter:
    """The system's odds endpoints, then its simulations (none for a system without them)."""
    router = APIRouter(prefix=system.prefix, tags=[system.title])
    for entry in (*system.odds, *system.simulations):
        if entry.shapes:
            add_shaped(router, system, entry)
            continue
        assert entry.answer is not None and entry.request is not None, entry.path
        add_odds(
            router,
            entry.path,
            answer=entry.answer,
            request_model=entry.request,
            response_model=entry.result,
            summary=entry.summary,
            description=entry.description,
            system=system.id,
            examples=dict(entry.examples),
            seeded=entry.seeded,
            slot_doc=entry.slot_doc,
            work=entry.work,
        )
    return router


def add_shaped(router: APIRouter, system: System, entry: Odds) -> None:
    """An odds endpoint that answers whichever of its shapes the body is."""
    add_shaped_odds(
        router,
        entry.path,
        shapes=[Shape(s.name, s.keys, s.request, s.answer, s.work) for s in entry.shapes],
        response_model=entry.result,
        summary=entry.summary,
        description=entry.description,
        system=system.id,
        examples=dict(entry.examples),
    )
