"""``make soak`` in a few seconds (issue 46 item 7): every POST endpoint of the app, odds and
simulations and two MCP tool calls included, under 128 connections of valid and invalid requests on a
real uvicorn; every valid request answered 2xx, no invalid one a 5xx, every endpoint answered
during the load (``COVERED`` times: the run lasts until then, at least ``SECONDS`` and at most
``BOUND``), the seeded answers the same bytes after the load as before.

The memory verdict of the 120 s soak needs its length (the first seconds are the server's warm-up:
bench/soak.py, ``growth``; a few seconds' run gained 300-650 bytes a request in its second half):
here the server's resident memory may gain at most ``LEAK`` bytes a request, which catches only a
gross leak (a request's 64 KiB body kept, an odds answer kept).
Loopback only; the soak stops wrk and the server itself. CI installs wrk (``.ci/run``).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from bench.soak import Row, Run, growth, report, run_soak, slope, verdicts

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
#: Answers each route gives during the load, at least; seconds the load lasts, at least and at most.
COVERED, SECONDS, BOUND = 1, 3, 40
#: Bytes of the server's resident memory a request may add, at most, in the second half of the run.
LEAK = 16384


def covered(run: Run, rows: list[Row]) -> bool:
    first, last = run.samples[0], run.samples[-1]
    done = all(last.answered.get(r.route, 0) - first.answered.get(r.route, 0) >= COVERED
               for r in rows)  # fmt: skip
    return done and last.at >= SECONDS


def test_a_short_soak_answers_every_endpoint() -> None:
    if shutil.which("wrk") is None:
        if os.environ.get("CI"):
            pytest.fail("wrk is missing: .ci/run installs it (apt-get install wrk)")
        pytest.skip("wrk is missing (apt-get install wrk)")
    run, rows = run_soak(seconds=BOUND, warmup=2, window=1, until=covered)
    report(run.whole(), rows, round(run.samples[-1].at))
    assert verdicts(run.whole(), rows, growth_limit=None) == []
    assert covered(run, rows)
    document = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    posts = {path for path, item in document["paths"].items() if "post" in item}
    routes = {row.route for row in rows}
    assert posts <= routes and {"mcp:/dos/test", "mcp:/dice/odds"} <= routes
    assert any(row.heavy for row in rows) and any(not row.heavy for row in rows)
    assert run.valid["2xx"] > 1000 and run.invalid["4xx"] > 100
    _, middle, end = growth(run)
    assert slope(middle, end) < LEAK
