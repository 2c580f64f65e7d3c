"""Prometheus metrics: recorded as plain ints by ``service.middleware.metrics`` (one event-loop thread:
no lock), rendered at ``GET /metrics`` by a ``prometheus_client`` collector as its own ``Counter``
and ``Histogram`` would render them (docs/operations.md, "Metrics"). Every label has a small fixed
set of values: never a seed, an id or a path.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.metrics_core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.utils import floatToGoString

from service.lanes import HeavyLane
from service.middleware.answers import Held
from service.problems import LIMIT_KEY, PROBLEM_KEY
from service.routing import SYSTEM_KEY

CONTENT_TYPE = CONTENT_TYPE_LATEST
PATH = "/metrics"

#: Latency buckets in seconds: a resolution takes well under a millisecond to a few milliseconds.
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED = "unmatched"
PREFLIGHT = "preflight"
STATUS_CLASSES = ("1xx", "2xx", "3xx", "4xx", "5xx")
#: What became of a request to a resolver: resolved (2xx), invalid (the request broke the schema,
#: the JSON, the media type or the size), refused (the engine refused it: 422 rules errors), error (5xx).
OUTCOMES = ("resolved", "invalid", "refused", "error")
#: Which limit turned a request away.
LIMITS = (
    "body_size",
    "json_depth",
    "json_number",
    "engine",
    "cpu_time",
    "heavy_queue",
    "unread_answers",
)
ENGINE_KINDS = frozenset(
    {
        "invalid-request",
        "dice-script",
        "dice-exhausted",
        "limit-exceeded",
        "cpu-limit",
        "illegal-decision",
        "unresolvable",
    }
)

#: (name, help, label names) of each family, in the order ``/metrics`` shows them.
REQUESTS = (
    "dragonroll_http_requests",
    "HTTP requests by route template, method and status class.",
    ("route", "method", "status"),
)
LATENCY = (
    "dragonroll_http_request_duration_seconds",
    "Time from the request's arrival to the end of its response, by route template.",
    ("route", "method"),
)
RESOLUTIONS = (
    "dragonroll_resolutions",
    "Requests to resolver endpoints by system and outcome (resolved, invalid, refused, error).",
    ("system", "outcome"),
)
LIMIT_REJECTIONS = (
    "dragonroll_limit_rejections",
    "Requests turned away by a limit (body_size, json_depth, json_number, engine, cpu_time,"
    " heavy_queue, unread_answers).",
    ("limit",),
)
#: The heavy lane's own (service.lanes): how its jobs ended, and its state at the scrape.
HEAVY_JOBS = (
    "dragonroll_heavy_jobs",
    "Jobs of the heavy lane by how they ended (answered, shed, cpu_limit, wall_clock, abandoned).",
    ("outcome",),
)
HEAVY_OUTCOMES = ("answered", "shed", "cpu_limit", "wall_clock", "abandoned")
HEAVY_WAITING = ("dragonroll_heavy_jobs_waiting", "Jobs queued for a heavy-lane worker.")
HEAVY_WORKERS = (
    "dragonroll_heavy_workers",
    "Heavy-lane worker processes by state (busy: running a job; idle).",
    ("state",),
)
HEAVY_STARTS = ("dragonroll_heavy_worker_starts", "Heavy-lane worker processes forked.")
UNREAD = (
    "dragonroll_unread_answer_bytes",
    "Bytes of answers held for clients that have not read them (DRAGONROLL_UNREAD_ANSWER_BYTES).",
)
#: The upper bounds with ``+Inf`` last, and their ``le`` label values.
_BOUNDS = (*BUCKETS, float("inf"))
_LE = tuple(floatToGoString(b) for b in _BOUNDS)  # type: ignore[no-untyped-call]


#: scope key: what a request to an integration called, as its ``route`` label (an MCP tool call of
#: ``/dos/test`` is ``mcp:/dos/test``; set by service.mcp): its access line and metrics carry it.
CALL_KEY = "dragonroll.call"


def route_label(scope: Any) -> str:
    """The ``route`` label of a request: what it called through an integration (``mcp:/dos/test``,
    :data:`CALL_KEY`), else the template of the route it reached, ``preflight`` for a CORS
    preflight answered before routing, else ``unmatched`` (never the raw path)."""
    called = scope.get(CALL_KEY)
    if called is not None:
        return str(called)
    route = scope.get("route")
    if route is not None:
        return str(route.path)
    if scope["method"] == "OPTIONS" and any(
        name == b"access-control-request-method" for name, _ in scope["headers"]
    ):
        return PREFLIGHT
    return UNMATCHED


def status_class(status: int) -> str:
    """The ``status`` label: ``2xx`` for 200 and so on (1xx and 5xx at the ends)."""
    return STATUS_CLASSES[min(max(status // 100, 1), 5) - 1]


#: Problem kinds that are the service's failure, not the request's (5xx).
SERVICE_KINDS = frozenset({"internal-error", "overloaded", "shutting-down"})


def outcome_of(status: int, problem: str | None) -> str:
    """What became of a resolver POST (``OUTCOMES``), from its status and its problem's kind (an MCP
    tool call's problem travels in a 200 answer: its kind decides)."""
    if status >= 500 or problem in SERVICE_KINDS:
        return "error"
    if problem is None:
        return "resolved" if status < 400 else "invalid"
    return "refused" if problem in ENGINE_KINDS else "invalid"


class Metrics:
    """One registry per app (tests build many apps in one process); the app's only collector.

    ``observe`` runs on the event loop's thread only (the middleware calls it); ``collect`` copies
    each dict before walking it, so a scrape from another thread sees a consistent list of series.
    """

    def __init__(
        self, systems: Iterable[str] = (), lane: HeavyLane | None = None, held: Held | None = None
    ) -> None:
        self.lane = lane
        self.held = held
        self.requests: dict[tuple[str, str, str], int] = {}
        self.latency: dict[tuple[str, str], _Histogram] = {}
        self.resolutions: dict[tuple[str, str], int] = {
            (system, outcome): 0 for system in systems for outcome in OUTCOMES
        }
        self.limit_rejections: dict[str, int] = dict.fromkeys(LIMITS, 0)
        self.registry = CollectorRegistry(auto_describe=True)
        self.registry.register(self)

    def observe(  # noqa: PLR0917 - positional: one call per request, no keyword packing
        self,
        route: str,
        method: str,
        status: int,
        seconds: float,
        system: str | None,
        problem: str | None,
        limit: str | None,
        /,
    ) -> None:
        if method not in METHODS:
            method = "other"
        key = (route, method, status_class(status))
        requests = self.requests
        requests[key] = requests.get(key, 0) + 1
        lkey = (route, method)
        hist = self.latency.get(lkey)
        if hist is None:
            hist = self.latency[lkey] = _Histogram()
        # The first bound >= seconds, as prometheus_client's Histogram.observe picks it.
        hist.counts[bisect_left(_BOUNDS, seconds)] += 1
        hist.sum += seconds
        if system is not None and method == "POST":
            rkey = (system, outcome_of(status, problem))
            self.resolutions[rkey] = self.resolutions.get(rkey, 0) + 1
        if limit is not None:
            self.limit_rejections[limit] = self.limit_rejections.get(limit, 0) + 1

    def observe_request(self, scope: Any, status: int, seconds: float) -> None:
        """One request's sample, read from its scope (its route label, system, problem and limit):
        what the HTTP middleware records for each request, and an MCP call over stdio for each
        call."""
        self.observe(
            route_label(scope),
            scope["method"],
            status,
            seconds,
            scope.get(SYSTEM_KEY),
            scope.get(PROBLEM_KEY),
            scope.get(LIMIT_KEY),
        )

    def describe(self) -> Iterator[Metric]:
        """The families without samples (the registry asks once, to check names are unique)."""
        yield CounterMetricFamily(*REQUESTS[:2], labels=REQUESTS[2])
        yield HistogramMetricFamily(*LATENCY[:2], labels=LATENCY[2])
        yield CounterMetricFamily(*RESOLUTIONS[:2], labels=RESOLUTIONS[2])
        yield CounterMetricFamily(*LIMIT_REJECTIONS[:2], labels=LIMIT_REJECTIONS[2])
        if self.lane is not None:
            yield CounterMetricFamily(*HEAVY_JOBS[:2], labels=HEAVY_JOBS[2])
            yield GaugeMetricFamily(*HEAVY_WAITING)
            yield GaugeMetricFamily(*HEAVY_WORKERS[:2], labels=HEAVY_WORKERS[2])
            yield CounterMetricFamily(*HEAVY_STARTS)
        if self.held is not None:
            yield GaugeMetricFamily(*UNREAD)

    def collect(self) -> Iterator[Metric]:
        requests = CounterMetricFamily(*REQUESTS[:2], labels=REQUESTS[2])
        for key, count in list(self.requests.items()):
            requests.add_metric(key, count)
        yield requests
        latency = HistogramMetricFamily(*LATENCY[:2], labels=LATENCY[2])
        for lkey, hist in list(self.latency.items()):
            cumulative: list[tuple[str, float]] = []
            total = 0
            for le, count in zip(_LE, list(hist.counts), strict=True):
                total += count
                cumulative.append((le, total))
            latency.add_metric(lkey, cumulative, hist.sum)
        yield latency
        resolutions = CounterMetricFamily(*RESOLUTIONS[:2], labels=RESOLUTIONS[2])
        for rkey, count in list(self.resolutions.items()):
            resolutions.add_metric(rkey, count)
        yield resolutions
        limits = CounterMetricFamily(*LIMIT_REJECTIONS[:2], labels=LIMIT_REJECTIONS[2])
        for limit, count in list(self.limit_rejections.items()):
            limits.add_metric((limit,), count)
        yield limits
        if self.lane is not None:
            yield from _lane_families(self.lane)
        if self.held is not None:
            yield GaugeMetricFamily(*UNREAD, value=self.held.bytes)

    def render(self) -> bytes:
        return generate_latest(self.registry)


def _lane_families(lane: HeavyLane) -> Iterator[Metric]:
    jobs = CounterMetricFamily(*HEAVY_JOBS[:2], labels=HEAVY_JOBS[2])
    counts = (lane.answered, lane.shed, lane.over_limit, lane.over_time, lane.abandoned)
    for outcome, count in zip(HEAVY_OUTCOMES, counts, strict=True):
        jobs.add_metric((outcome,), count)
    yield jobs
    yield GaugeMetricFamily(*HEAVY_WAITING, value=len(lane.waiting))
    workers = GaugeMetricFamily(*HEAVY_WORKERS[:2], labels=HEAVY_WORKERS[2])
    busy = lane.busy()
    workers.add_metric(("busy",), busy)
    workers.add_metric(("idle",), len(lane.workers) - busy)
    yield workers
    yield CounterMetricFamily(*HEAVY_STARTS, value=lane.started)


class _Histogram:
    """One latency series: the count in each bucket (not cumulative; ``+Inf`` last) and the sum."""

    __slots__ = ("counts", "sum")

    def __init__(self) -> None:
        self.counts = [0] * len(_BOUNDS)
        self.sum = 0.0
