"""The metrics of issue 8: plain ints recorded per request, a collector at scrape time; the text it
renders compared with what prometheus_client's own ``Counter`` and ``Histogram`` render."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    enable_created_metrics,
)
from prometheus_client.exposition import generate_latest

from service.lanes import HeavyLane
from service.metrics import (
    BUCKETS,
    HEAVY_JOBS,
    HEAVY_OUTCOMES,
    HEAVY_STARTS,
    HEAVY_WAITING,
    HEAVY_WORKERS,
    LIMITS,
    METHODS,
    OUTCOMES,
    UNREAD,
    Metrics,
    outcome_of,
    status_class,
)
from service.middleware.answers import Held
from tests.conftest import Api
from tests.service.ops import JSON, ROLL, failing_app

# --- the reference: the metrics as prometheus_client's Counter and Histogram recorded them ------


class Reference:
    """What ``service.metrics.Metrics`` was before issue 8: prometheus_client's own children."""

    def __init__(self, systems: list[str]) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "dragonroll_http_requests",
            "HTTP requests by route template, method and status class.",
            ["route", "method", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "dragonroll_http_request_duration_seconds",
            "Time from the request's arrival to the end of its response, by route template.",
            ["route", "method"],
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.resolutions = Counter(
            "dragonroll_resolutions",
            "Requests to resolver endpoints by system and outcome "
            "(resolved, invalid, refused, error).",
            ["system", "outcome"],
            registry=self.registry,
        )
        self.limits = Counter(
            "dragonroll_limit_rejections",
            "Requests turned away by a limit (body_size, json_depth, json_number, engine, cpu_time,"
            " heavy_queue, unread_answers).",
            ["limit"],
            registry=self.registry,
        )
        for system in systems:
            for outcome in OUTCOMES:
                self.resolutions.labels(system, outcome)
        for limit in LIMITS:
            self.limits.labels(limit)

    def observe(  # noqa: PLR0917 - the same positional call as Metrics.observe
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
        method = method if method in METHODS else "other"
        self.requests.labels(route, method, status_class(status)).inc()
        self.latency.labels(route, method).observe(seconds)
        if system is not None and method == "POST":
            self.resolutions.labels(system, outcome_of(status, problem)).inc()
        if limit is not None:
            self.limits.labels(limit).inc()

    def lane(self, lane: HeavyLane) -> None:
        """The heavy lane's families as prometheus_client's own children would hold its state."""
        jobs = Counter(*HEAVY_JOBS, registry=self.registry)
        counts = (lane.answered, lane.shed, lane.over_limit, lane.over_time, lane.abandoned)
        for outcome, count in zip(HEAVY_OUTCOMES, counts, strict=True):
            jobs.labels(outcome).inc(count)
        Gauge(*HEAVY_WAITING, registry=self.registry).set(len(lane.waiting))
        workers = Gauge(*HEAVY_WORKERS, registry=self.registry)
        workers.labels("busy").set(lane.busy())
        workers.labels("idle").set(len(lane.workers) - lane.busy())
        Counter(*HEAVY_STARTS, registry=self.registry).inc(lane.started)

    def held(self, held: Held) -> None:
        Gauge(*UNREAD, registry=self.registry).set(held.bytes)

    def render(self) -> bytes:
        return generate_latest(self.registry)


@contextmanager
def no_created() -> Iterator[None]:
    """prometheus_client's children without ``_created`` samples, as the service had them."""
    disable_created_metrics()  # type: ignore[no-untyped-call]
    try:
        yield
    finally:
        enable_created_metrics()  # type: ignore[no-untyped-call]


observation = st.tuples(
    st.sampled_from(["/dos/roll", "/dos/test", "unmatched", "preflight"]),
    st.sampled_from(["POST", "GET", "OPTIONS", "BREW"]),
    st.sampled_from([200, 204, 307, 400, 404, 413, 415, 422, 500, 503, 99, 600]),
    # every bound exactly, either side of it, zero and past the last bound
    st.one_of(
        st.sampled_from([0.0, *BUCKETS, 7.5, 1e9]),
        st.sampled_from(BUCKETS).map(lambda b: b * (1 + 1e-12)),
        st.floats(min_value=0, max_value=10, allow_nan=False),
    ),
    st.sampled_from([None, "dos", "dnd5e"]),
    st.sampled_from([None, "validation-error", "invalid-request", "limit-exceeded"]),
    st.sampled_from([None, *LIMITS, "other-limit"]),
)


@given(st.lists(observation, max_size=40))
def test_metrics_render_as_prometheus_clients_children_would(seen: list[tuple[Any, ...]]) -> None:
    ours = Metrics(["dos", "dnd5e"])
    with no_created():
        reference = Reference(["dos", "dnd5e"])
        for route, method, status, seconds, system, problem, limit in seen:
            for m in (ours, reference):
                m.observe(route, method, status, seconds, system, problem, limit)
        assert ours.render().decode() == reference.render().decode()


def test_metrics_after_requests_render_as_prometheus_client_would() -> None:
    api = failing_app()
    with no_created():
        _replay_into_the_reference(api)


def _replay_into_the_reference(api: Api) -> None:
    ours = api.app.state.metrics
    reference = Reference(list(dict.fromkeys(system for system, _ in ours.resolutions)))
    recorded = ours.observe

    def both(*args: Any) -> None:
        recorded(*args)
        reference.observe(*args)

    with mock.patch.object(ours, "observe", both):
        api.post("/dos/roll", ROLL)
        api.post("/dos/roll", {"pool": "x"})
        api.post("/dos/test", {"stat": 1, "skill": 1, "dc": 1, "seed": 1, "dice": {"check": [11]}})
        api.post("/dos/roll", content=b" " * 70_000, headers=JSON)
        api.post("/broken/roll", ROLL)
        api.get("/nowhere")
        api.request("BREW", "/dos/roll")
        api.post("/dice/odds", {"notation": "2d6"})  # the heavy lane: one job answered
        text = api.get("/metrics").text
    assert ours.lane is api.app.state.lane and ours.lane.answered == 1
    reference.lane(ours.lane)
    reference.held(ours.held)
    assert text == reference.render().decode()
    assert 'dragonroll_resolutions_total{outcome="error",system="broken"} 1.0' in text


def test_every_system_has_its_outcome_series_from_the_start() -> None:
    text = Api().get("/metrics").text
    for system in ("dos", "dragon", "riders", "dnd5e"):
        for outcome in OUTCOMES:
            line = f'dragonroll_resolutions_total{{outcome="{outcome}",system="{system}"}} 0.0'
            assert line in text.splitlines()
