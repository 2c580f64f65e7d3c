"""Metrics (``service.middleware.metrics``, ``service.metrics``): requests by route template,
method and status class, limit rejections, resolutions by outcome."""

from __future__ import annotations

from tests.conftest import Api, assert_problem
from tests.service.ops import JSON, ROLL, achunks, failing_app, metric


def test_metrics_count_requests_by_template_method_and_status_class() -> None:
    api = Api()
    api.post("/dos/roll", ROLL)
    api.post("/dos/roll", ROLL)
    api.post("/dos/test", {"stat": 1, "skill": 1, "dc": 1, "seed": 1, "dice": {"check": [11]}})
    api.post("/dos/roll", {"pool": "x"})
    api.post("/dos/roll", content=b" " * 70_000, headers=JSON)
    api.get("/no/such/path/SEED-123")
    api.request("BREW", "/dos/roll")
    for _ in range(3):
        api.get("/livez")
        api.get("/readyz")
    r = api.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    text = r.text
    assert (
        metric(
            text, "dragonroll_http_requests_total", route="/dos/roll", method="POST", status="2xx"
        )
        == 2
    )
    # The schema error and the 413 by Content-Length (answered before routing, still its route's).
    assert (
        metric(
            text, "dragonroll_http_requests_total", route="/dos/roll", method="POST", status="4xx"
        )
        == 2
    )
    assert 'route="unmatched",method="POST"' not in text
    assert (
        metric(
            text, "dragonroll_http_requests_total", route="unmatched", method="GET", status="4xx"
        )
        == 1
    )
    assert (
        metric(
            text, "dragonroll_http_requests_total", route="/dos/roll", method="other", status="4xx"
        )
        == 1
    )
    assert metric(text, "dragonroll_resolutions_total", system="dos", outcome="resolved") == 2
    assert metric(text, "dragonroll_resolutions_total", system="dos", outcome="invalid") == 2
    assert metric(text, "dragonroll_resolutions_total", system="dos", outcome="refused") == 1
    assert metric(text, "dragonroll_resolutions_total", system="dos", outcome="error") == 0
    assert metric(text, "dragonroll_limit_rejections_total", limit="body_size") == 1
    assert 'le="0.0005"' in text and 'le="2.5"' in text
    count = metric(
        text, "dragonroll_http_request_duration_seconds_count", route="/dos/roll", method="POST"
    )
    assert count == 4
    # No raw paths, seeds or ids; no health or metrics requests.
    assert "SEED-123" not in text and "/no/such" not in text and "BREW" not in text
    assert "livez" not in text and "readyz" not in text and 'route="/metrics"' not in text


def test_limit_rejections_by_limit_kind() -> None:
    api = Api()
    api.post("/dos/roll", content=b'{"pool": ' + b"[" * 500 + b"]" * 500 + b"}", headers=JSON)
    api.post("/dos/roll", content=b'{"pool": ' + b"9" * 5000 + b"}", headers=JSON)
    api.post("/dos/roll", content=achunks(90_000), headers=JSON)
    text = api.get("/metrics").text
    assert metric(text, "dragonroll_limit_rejections_total", limit="json_depth") == 1
    assert metric(text, "dragonroll_limit_rejections_total", limit="json_number") == 1
    assert metric(text, "dragonroll_limit_rejections_total", limit="body_size") == 1
    assert metric(text, "dragonroll_limit_rejections_total", limit="engine") == 0


def test_a_500_is_counted_as_an_error_outcome() -> None:
    api = failing_app()
    api.post("/broken/roll", ROLL)
    text = api.get("/metrics").text
    assert metric(text, "dragonroll_resolutions_total", system="broken", outcome="error") == 1
    assert (
        metric(
            text,
            "dragonroll_http_requests_total",
            route="/broken/roll",
            method="POST",
            status="5xx",
        )
        == 1
    )


def test_metrics_can_be_switched_off() -> None:
    api = Api(metrics=False)
    assert_problem(api.get("/metrics"), 404, "not-found")
    assert api.post("/dos/roll", ROLL).status_code == 200
