"""The one request pipeline: every surface (HTTP, MCP over HTTP or stdio) answers a POST body here.

:func:`answer` takes an endpoint (``service.routing.Endpoint``) and a raw body and gives the bytes of
the answer, in this order (shared/DESIGN.md, "Two lanes"):

1. **admit**, on the event loop for a body of at most :data:`LIGHT_BODY` bytes (a larger one is
   admitted in the worker: a refusal's cost grows with its errors): validate the JSON with the
   request model, refuse a duplicate key, count the work (the endpoint's work function) and refuse
   what is over its budget: a cheap early refusal, a few milliseconds at most (docs/hardening.md);
2. **choose the lane**: a resolver whose work is small (:func:`is_light`: at most
   :data:`LIGHT_DICE` base dice, an answer of at most :data:`LIGHT_ANSWER` bytes, a body of at most
   :data:`LIGHT_BODY` bytes) is answered on the loop, at once; odds, simulations and everything
   else go to the heavy lane (``service.lanes``), whose workers hold each job within its CPU limit;
3. **answer**: resolve with a fresh dice source, narrate, encode, and refuse an answer over 4 MiB
   (``Endpoint.finish``, in a worker for the heavy lane: the worker runs the whole synchronous path,
   ``Endpoint.resolve``, on the same body).

The errors are the app's to answer (``service.problems``): a request's own (``ValidationError``,
``RulesError``, ``DuplicateKey``, or :class:`~service.problems.Refused` from a worker), and the lanes'
(``CpuLimit`` 422, ``Overloaded`` and ``Draining`` 503, ``Abandoned`` 499; ``WorkerFailed`` is a bug,
a 500). The Content-Type check is the HTTP surface's (``service.routing.check_json``): JSON is the
only thing another surface hands in.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from rules import budget
from service.clients import ANONYMOUS
from service.lanes import HeavyLane, WorkerFailed
from service.problems import Refused, as_problem

if TYPE_CHECKING:
    from service.routing import Endpoint

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
    client: str = ANONYMOUS,
) -> tuple[bytes, str | None]:
    """The answer to ``body`` at ``endpoint``: its bytes and the language of their texts (``None``
    for none), whichever surface calls.

    ``state`` is the app's state (``app.state``: ``settings`` for the dice budget, ``lane`` the
    heavy lane); ``accept_language`` the caller's ``Accept-Language`` header (``lang`` in the body
    wins); ``gone``, when given, an awaitable function that returns once the caller has gone away
    (its job is then dropped, or finished with its answer dropped, and
    :class:`~service.lanes.Abandoned` raised); ``client``, who asks (``app.state.clients.of(scope)``,
    ``service.clients``): heavy work is admitted within that client's share. Raises the
    errors the module docstring lists, for the surface to answer (HTTP: the app's handlers;
    ``problems.as_problem`` gives a refusal's problem body)."""
    dice_budget: int = state.settings.max_dice
    # A body over the light lane's is not even validated on the loop: a refusal's cost grows with
    # its errors (a 63 KB body of 31,500 errors took 0.07-0.2 s to validate), so the worker does it.
    if len(body) <= LIGHT_BODY:
        req, work = endpoint.admit(body, dice_budget)
        if not endpoint.heavy and is_light(work, len(body)):
            return endpoint.finish(req, accept_language)
    lane: HeavyLane = state.lane
    job: Job = (endpoint.path, body, dice_budget, accept_language)
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
