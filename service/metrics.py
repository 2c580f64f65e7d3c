"""Prometheus metrics, recorded by the request middleware and served at ``GET /metrics``.

The data structures and the text format come from ``prometheus_client`` (maintained, the reference
implementation of the format); the recording is one pure ASGI middleware (``service.middleware``),
which looks label children up in its own dict, so a request costs a few dict look-ups and additions.
Every label has a small fixed set of values: route templates (``unmatched`` for unknown paths, never
the raw path), methods (``other`` for unknown ones), status classes, systems, outcomes, limits. Never
a seed, an id or a path.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

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
LIMITS = ("body_size", "json_depth", "json_number", "engine")
ENGINE_KINDS = frozenset(
    {
        "invalid-request",
        "dice-script",
        "dice-exhausted",
        "limit-exceeded",
        "illegal-decision",
        "unresolvable",
    }
)


class Metrics:
    """One registry per app (tests build many apps in one process)."""

    def __init__(self, systems: Iterable[str] = ()) -> None:
        disable_created_metrics()  # type: ignore[no-untyped-call]
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
        self.limit_rejections = Counter(
            "dragonroll_limit_rejections",
            "Requests turned away by a limit (body_size, json_depth, json_number, engine).",
            ["limit"],
            registry=self.registry,
        )
        for system in systems:
            for outcome in OUTCOMES:
                self.resolutions.labels(system, outcome)
        for limit in LIMITS:
            self.limit_rejections.labels(limit)
        self._requests: dict[tuple[str, str, str], Any] = {}
        self._latency: dict[tuple[str, str], Any] = {}
        self._resolutions: dict[tuple[str, str], Any] = {}

    def observe(
        self,
        route: str,
        method: str,
        status: int,
        seconds: float,
        *,
        system: str | None,
        problem: str | None,
        limit: str | None,
    ) -> None:
        if method not in METHODS:
            method = "other"
        key = (route, method, STATUS_CLASSES[min(max(status // 100, 1), 5) - 1])
        child = self._requests.get(key)
        if child is None:
            child = self._requests[key] = self.requests.labels(*key)
        child.inc()
        lkey = (route, method)
        hist = self._latency.get(lkey)
        if hist is None:
            hist = self._latency[lkey] = self.latency.labels(*lkey)
        hist.observe(seconds)
        if system is not None and method == "POST":
            if status < 400:
                outcome = "resolved"
            elif status >= 500:
                outcome = "error"
            elif problem in ENGINE_KINDS:
                outcome = "refused"
            else:
                outcome = "invalid"
            rkey = (system, outcome)
            res = self._resolutions.get(rkey)
            if res is None:
                res = self._resolutions[rkey] = self.resolutions.labels(*rkey)
            res.inc()
        if limit is not None:
            self.limit_rejections.labels(limit).inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)
