"""The failure paths inside the bounds (issue 46): what a caller gets by failing, hanging up or
reading slowly costs no more than success.

In process: a refusal lists a few dozen errors and counts the rest, and no problem is over 64 KiB,
over HTTP and MCP alike. On a real server (``python -m service``, loopback, the reproducers of
``bench/failure.py`` in bounded counts and times): connections hanging up start no process and leave
the probes fast; clients of a 63 KB body of 31,500 errors leave ``/livez`` fast; never a 500. Every
server is stopped at the end of its test."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from bench.failure import (
    HANGERS,
    Probes,
    fairness,
    raw_post,
    senders,
    served,
    turn_of_errors,
)
from service.app import create_app
from service.problems import MAX_LISTED, MAX_PROBLEM
from service.settings import Settings
from tests.conftest import Api

MCP_HEADERS = {
    "accept": "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": "2025-11-25",
}


def test_a_refusal_lists_a_few_dozen_errors_and_counts_the_rest() -> None:
    """Issue 46's item 2: 63,416 bytes of /dos/turn with 31,500 errors was a 3.2 MB problem; now
    the first 30 errors, ``more_errors`` for the rest, the whole count in the detail."""
    body = turn_of_errors()
    assert len(body) == 63_416
    r = Api().post("/dos/turn", content=body, headers={"content-type": "application/json"})
    problem = r.json()
    assert r.status_code == 422 and len(r.content) < 8 * 1024, len(r.content)
    assert len(problem["errors"]) == MAX_LISTED
    assert problem["more_errors"] == 31_500 - MAX_LISTED
    assert problem["detail"] == "combatants.0.id: required field is missing (and 31,499 more)"
    assert problem["errors"][0] == {
        "loc": ["body", "combatants", 0, "id"],
        "msg": "required field is missing",
        "type": "missing",
        "lang": "en",
    }


def test_an_mcp_refusal_is_bounded_as_the_http_one() -> None:
    """Through MCP the same body was a 3.55 MB tool error: the same problem now."""
    app = create_app(Settings(log_format="json", log_level="warning"))
    request = turn_of_errors().decode()
    message = (
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dos",'
        f'"arguments":{{"endpoint":"/dos/turn","request":{request}}}}}}}'
    )
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        r = client.post("/mcp", content=message, headers=MCP_HEADERS)
    result = r.json()["result"]
    assert r.status_code == 200 and result["isError"] and len(r.content) < 8 * 1024
    problem = json.loads(result["content"][0]["text"])
    assert problem["more_errors"] == 31_500 - MAX_LISTED and len(problem["errors"]) == MAX_LISTED


@pytest.mark.parametrize(
    "body",
    [
        # a key of 60,000 characters, twice: the duplicate-key problem names it (cut)
        '{"stat": 24, "skill": 3, "dc": 43, "' + "k" * 60_000 + '": 1, "' + "k" * 60_000 + '": 2}',
        # an unknown field of 60,000 characters: its name is in the error's loc (cut)
        '{"stat": 24, "skill": 3, "dc": 43, "' + "u" * 60_000 + '": 1}',
        # 60 unknown fields of 1,000 characters each
        '{"stat": 24, "skill": 3, "dc": 43, '
        + ", ".join(f'"{i:04d}{"x" * 996}": 1' for i in range(60))
        + "}",
    ],
    ids=["duplicate-key", "unknown-field", "many-long-locs"],
)
def test_no_problem_is_over_64_kib(body: str) -> None:
    api = Api(body_limit=1024 * 1024)
    r = api.post("/dos/test", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text[:300]
    assert len(r.content) <= MAX_PROBLEM, len(r.content)
    problem = r.json()
    assert all(len(e["msg"]) <= 1000 for e in problem["errors"])
    assert len(problem["detail"]) <= 1000


def test_the_openapi_document_is_built_before_ready() -> None:
    """Issue 46's item 6: the first GET /openapi.json built it on the loop (0.46 s of CPU, /livez
    114-266 ms); now the lifespan builds it before /readyz says ready."""
    app = create_app(Settings(log_format="json", log_level="warning"))
    assert app.openapi_schema is None
    with TestClient(app) as client:
        assert client.get("/readyz").status_code == 200
        assert app.openapi_schema is not None
        built = app.openapi_schema
        assert client.get("/openapi.json").json() == built and app.openapi_schema is built


# --------------------------------------------------------------------------- on a real server


def p95(values: list[float]) -> float:
    """The 95th percentile: the issue's bounds are held by it; the worst probe is held to a
    generous bound only, since on this shared 2-core machine an idle server's own /livez worst
    was 96 ms at load 10 (scheduling, not the service)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


@pytest.mark.slow
def test_two_connections_hanging_up_start_no_process_and_leave_the_probes_fast() -> None:
    """Issue 46's item 1: ``1d100!>1`` odds (about 0.13 s of CPU), the connection closed 20 ms
    after sending, again and again on two connections for 8 s: 410 processes were started and
    /livez waited up to seconds. Now the running job finishes in its worker (its answer dropped)
    and no process is started; /livez and a light request stay under 0.5 s; no 500. About 3 s of
    the server's CPU."""
    with served() as srv:
        srv.settle()
        started = srv.workers_started()
        data = raw_post("/dice/odds", b'{"notation": "1d100!>1"}', srv.port)
        hangers = subprocess.Popen(
            [sys.executable, "-c", HANGERS, str(srv.port), data.hex(), "2", "0.02", "8"],
            stdout=subprocess.PIPE,
            text=True,
        )
        probes = Probes(srv.port)
        out, _ = hangers.communicate(timeout=90)
        probed = probes.stop()
        more = srv.workers_started() - started
        lines = srv.lines()
    print(f"{out.strip()} hang-ups, {more} processes started; {probed}")
    assert int(out) > 100
    assert more <= 2, more
    assert p95(probes.live) < 0.5 and p95(probes.light) < 0.5, probed
    assert max(probes.live) < 1.0 and max(probes.light) < 1.0, probed
    assert set(probes.statuses) == {200}
    assert not [x for x in lines if x.get("status") == 500 or x.get("level") == "error"]


@pytest.mark.slow
def test_clients_of_a_body_of_31500_errors_leave_livez_fast() -> None:
    """Issue 46's item 2: 8 clients sending the 63,416-byte body of 31,500 errors pushed /livez to
    4.4 s. Now such a body is admitted in a worker (its validation is not light work) and its
    problem is a few KB: /livez stays under 0.25 s; every answer a 422 or the client's share's
    503, never a 500. About 6 s of the server's CPU."""
    with served() as srv:
        srv.settle()
        load = senders(srv.port, "/dos/turn", turn_of_errors(), 8, 5)
        time.sleep(0.5)
        probes = Probes(srv.port)
        out, _ = load.communicate(timeout=120)
        probed = probes.stop()
        lines = srv.lines()
    seen: dict[str, Any] = json.loads(out)
    print(f"{seen}; {probed}")
    assert seen["statuses"].get("422", 0) > 0 and set(seen["statuses"]) <= {"422", "503"}
    assert seen["largest"] <= MAX_PROBLEM
    assert p95(probes.live) < 0.25 and max(probes.live) < 1.0, probed
    assert not [x for x in lines if x.get("status") == 500 or x.get("level") == "error"]


@pytest.mark.slow
def test_one_client_s_heavy_requests_fill_its_share_not_the_lane() -> None:
    """Issue 46's item 4: one client (127.0.0.2) keeps 24 heavy odds in flight, more than the
    lane's 2 workers and 16 queued hold; another client's (127.0.0.3) trivial odds are answered
    within 2 s at least 4 times in 5 (before: all 5 shed with a 503). About 8 s of CPU."""
    seen = fairness(heavy=24, tries=5, seconds=9)
    print(seen)
    answered = [wait for status, wait in seen["trivial"] if status == 200 and wait < 2.0]
    assert len(answered) >= 4, seen
    assert set(seen["heavy"]["statuses"]) <= {"200", "503"}, seen
    assert seen["500s"] == 0


@pytest.mark.slow
def test_answers_no_one_reads_are_capped_and_their_clients_closed() -> None:
    """Issue 46's item 3 on a real server, small: 12 clients (each its own address) send the
    largest /dice/roll (1.9 MB) and read nothing, with the cap at 4 MiB: past two answers held the
    rest are 503s; after DRAGONROLL_REQUEST_TIMEOUT (3 s here) of reading nothing each is closed
    by the server, which frees what it held: a client that reads is then answered. About 3 s of
    CPU. (150 such clients with the default cap: 273 MiB of PSS, docs/hardening.md.)"""
    import socket

    from bench.failure import LARGEST_ROLL, request

    data = raw_post("/dice/roll", json.dumps(LARGEST_ROLL).encode(), 0)
    with served(
        DRAGONROLL_UNREAD_ANSWER_BYTES=str(4 * 1024 * 1024),
        DRAGONROLL_REQUEST_TIMEOUT="3",
        DRAGONROLL_HEAVY_QUEUE="64",
    ) as srv:
        srv.settle()
        held = []
        for i in range(12):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.bind((f"127.0.1.{2 + i}", 0))
            s.connect(("127.0.0.1", srv.port))
            s.sendall(data)
            held.append(s)
            time.sleep(0.3)
        time.sleep(8)  # every answer made, and past the timeout for those that waited unread
        closed = 0
        for s in held:
            s.settimeout(5)
            try:
                while s.recv(1 << 20):
                    pass
                closed += 1
            except OSError:
                pass
            s.close()
        status, _, body = request(srv.port, "POST", "/dice/roll", LARGEST_ROLL)
        lines = srv.lines()
    statuses = [x["status"] for x in lines if x.get("event") == "request"]
    print(f"statuses {sorted(statuses)}; closed by the server: {closed} of 12")
    assert closed == 12
    assert statuses.count(503) >= 6, statuses
    refused = [x for x in lines if x.get("status") == 503]
    assert status == 200 and len(body) > 1_000_000
    assert 500 not in statuses and refused
