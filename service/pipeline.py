"""The one request pipeline: every surface (HTTP, MCP over HTTP or stdio) answers a POST body here.

:func:`answer` admits the body (``Endpoint.admit``: validation, duplicate keys, the work budget)
on the event loop, and answers a small resolver's request there at once; everything else (odds,
simulations, larger requests, and any body over :data:`LIGHT_BODY` bytes, whose refusal's cost
grows with its errors) goes to the heavy lane's workers (``service.lanes``), within its client's
share (``service.clients``), which run ``Endpoint.resolve`` on the same body (shared/DESIGN.md,
"Two lanes"). Errors are raised for the surface to answer (``service.problems``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from starlette.types import Scope

from rules import budget
from service.clients import ANONYMOUS
from service.endpoints import Endpoint
from service.lanes import HeavyLane, WorkerFailed
from service.problems import Refused, as_problem

#: The most base dice a request answered on the event loop may roll (measured: docs/hardening.md,
#: "Two lanes"); one over it goes to the heavy lane.
LIGHT_DICE = 60
#: The largest answer (as the work function counts it) answered on the event loop, in bytes.
LIGHT_ANSWER = 64 * 1024
#: The largest body answered on the event loop, in bytes (names and declarations grow the events).
LIGHT_BODY = 8 * 1024

#: ``(path, body, dice budget, Accept-Language)``: a heavy job as the lane sends it to a worker.
Job = tuple[str, bytes, int, bytes]


def is_light(work: budget.Work, body_size: int) -> bool:
    """A resolver's request small enough for the event loop: a few milliseconds at most."""
    return (
        work.unit == budget.BASE_DICE
        and work.dice <= LIGHT_DICE
        and work.answer <= LIGHT_ANSWER
        and body_size <= LIGHT_BODY
    )


async def answer(
    state: Any,
    endpoint: Endpoint,
    body: bytes,
    accept_language: bytes = b"",
    gone: Callable[[], Awaitable[Any]] | None = None,
    *,
    scope: Scope | None = None,
) -> tuple[bytes, str | None]:
    """The answer to ``body`` at ``endpoint``: its bytes and the language of their texts (``None``
    for none), whichever surface calls.

    ``state`` is the app's state (``app.state``: ``settings`` for the dice budget, ``lane`` the
    heavy lane); ``accept_language`` the caller's ``Accept-Language`` header (``lang`` in the body
    wins); ``gone``, when given, an awaitable function that returns once the caller has gone away
    (its job is then dropped, or finished with its answer dropped, and
    :class:`~service.lanes.Abandoned` raised); ``scope``, the request's: heavy work is admitted
    within the share of the client it names (``state.clients.of(scope)``, ``service.clients``;
    read only then), or of the anonymous client without one.

    Raises, for the surface to answer (HTTP: the app's handlers; ``problems.as_problem`` gives the
    problem body): the request's own errors (``ValidationError``, ``RulesError``, ``DuplicateKey``,
    or :class:`~service.problems.Refused` from a worker) and the lanes' (``CpuLimit``,
    ``Overloaded``, ``Draining``, ``Abandoned``; ``WorkerFailed`` is a bug)."""
    dice_budget: int = state.settings.max_dice
    # A body over the light lane's is not even validated on the loop: a refusal's cost grows with
    # its errors (a 63 KB body of 31,500 errors took 0.07-0.2 s to validate), so the worker does it.
    if len(body) <= LIGHT_BODY:
        req, work = endpoint.admit(body, dice_budget)
        if not endpoint.heavy and is_light(work, len(body)):
            return endpoint.finish(req, accept_language)
    lane: HeavyLane = state.lane
    job: Job = (endpoint.path, body, dice_budget, accept_language)
    client = ANONYMOUS if scope is None else state.clients.of(scope)
    kind, value = await lane.run(job, gone, client)
    if kind == "problem":
        raise Refused(value)
    payload, lang = value
    return payload, lang


def run_job(endpoints: Callable[[], Mapping[str, Endpoint]], job: Job) -> tuple[str, Any]:
    """A heavy job, in a worker: the whole synchronous path (``Endpoint.resolve``); a request's own
    error comes back as its problem's body (exceptions are not sent between processes)."""
    path, body, dice_budget, accept_language = job
    endpoint = endpoints().get(path)
    if endpoint is None:
        raise WorkerFailed(f"no endpoint at {path} in the worker")
    try:
        return "answer", endpoint.resolve(body, dice_budget, accept_language)
    except Exception as exc:
        problem = as_problem(exc)
        if problem is None:
            raise
        return "problem", problem
