"""``make bench``: dragonroll against a bare FastAPI app, in the same run, as ratios.

What it does (loopback only, every loop bounded, every server it starts is stopped at the end):

1. starts the service (``service.app:create_app``, ONE uvicorn worker) and the bare FastAPI app
   (``bench.bare_app``, one POST endpoint with a ~10-field pydantic model, one worker);
2. probes each endpoint of ``ENDPOINTS`` once: an endpoint that answers 404 is not on this app (its
   branch is not merged yet) and is skipped with a message; one that answers anything but 200 is
   skipped with the problem it returned (update its body here);
3. throughput: wrk, 64 connections, ``--duration`` seconds, alternating bare and service runs for
   ``--rounds`` rounds (the machine is noisy: the ratio of each round's pair is taken, then the median);
4. latency: in each round, a one-connection wrk run of the bare app and of the endpoint (p50, p99;
   the medians over the rounds are compared), because wrk's percentiles under load are unreliable
   on small virtual machines;
5. the throughput of ``/dos/test`` with 2 uvicorn workers against 1;
6. in this process: each endpoint through the whole app as ASGI (``bench.inprocess``, us per
   request and the ratio to the bare app's) and ``Endpoint.resolve`` alone (validate + resolve +
   serialise); then one table, per endpoint: throughput ratio, p50, p99, in-process us.

The rows: ``ENDPOINTS`` (hand-written bodies), then every other POST operation of the app with its
documented example (:func:`every_endpoint`). Both apps are served by uvicorn as the service is
(``service.server``: h11 and its limits).

Usage: ``python -m bench.bench [--duration 10] [--rounds 3] [--json out.json] [--quick]
[--only ROW ...]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LUA = ROOT / "bench" / "post.lua"
HOST = "127.0.0.1"
CONNECTIONS = 64

#: The endpoints measured, with the body each request sends. ``@SEED@`` becomes a fresh seed per
#: request under load (and "bench" in the probe and the micro-benchmark). Add a row per endpoint.
ENDPOINTS: list[tuple[str, dict[str, Any]]] = [
    ("/dos/test", {"stat": 44, "skill": 5, "dc": 47, "seed": "@SEED@"}),
    ("/dos/roll", {"pool": 5, "seed": "@SEED@"}),
    (
        "/dos/opposed",
        {"a": {"stat": 25, "skill": 4}, "b": {"stat": 20, "skill": 5}, "seed": "@SEED@"},
    ),
    (
        "/dos/complex",
        {"stat": 9, "skill": 2, "dc": 20, "attempts": 6, "successes_needed": 3, "seed": "@SEED@"},
    ),
    (
        "/dos/attack",
        {
            "attacker": {
                "dexterity": 30,
                "strength": 25,
                "skill": 5,
                "weapon": {"kind": "melee", "damage": 6},
            },
            "defender": {"dexterity": 20, "block": 3, "dodge": 2, "hp": 30, "max_hp": 30},
            "defense": "auto",
            "seed": "@SEED@",
        },
    ),
    (
        "/dragon/battle",
        {
            "dragon": {"age": 3, "battle": 3, "wounds": 0, "target": "village"},
            "entities": [
                {
                    "id": "village",
                    "name": "Village",
                    "controller": "gm",
                    "kind": "group",
                    "prosperity": 5,
                    "level": 2,
                    "target": "dragon",
                },
                {
                    "id": "wolves",
                    "controller": "player",
                    "kind": "group",
                    "prosperity": 2,
                    "level": 2,
                    "target": "hero",
                },
                {
                    "id": "hero",
                    "controller": "gm",
                    "kind": "individual",
                    "prosperity": 1,
                    "level": 3,
                    "target": "wolves",
                },
            ],
            "location": {"id": "vale", "prosperity": 5},
            "round": 1,
            "seed": "@SEED@",
        },
    ),
    (
        "/riders/combat",
        {
            "initiator": {
                "id": "ember",
                "element": "fire",
                "riders": [{"id": "ash", "current": True, "bonuses": {"fire": 2}}],
                "fatigue": 0,
                "terrain_bonus": 1,
                "has_rider": True,
                "items": [],
            },
            "defender": {
                "id": "tide",
                "element": "water",
                "riders": [{"id": "foam", "current": True, "bonuses": {"water": 1}}],
                "fatigue": 1,
                "terrain_bonus": 0,
                "has_rider": True,
                "items": [],
            },
            "attack": {"ranged": False},
            "auto": True,
            "seed": "@SEED@",
        },
    ),
    (
        "/dnd5e/attack",
        {
            "attack_bonus": 5,
            "damage": [
                {"dice": "1d8+3", "type": "slashing"},
                {"dice": "2d6", "type": "fire"},
            ],
            "target": {"ac": 15, "hp": 20, "max_hp": 20},
            "seed": "@SEED@",
        },
    ),
]
#: The same requests with an option that costs more: a row's name is ``<path>#<what>`` (issue 16:
#: narration in any language; issue 17: Foundry rolls on ``/dos/test``).
ENDPOINTS += [
    ("/dos/test#foundry", {**dict(ENDPOINTS)["/dos/test"], "foundry": True}),
    ("/dragon/battle#ar", {**dict(ENDPOINTS)["/dragon/battle"], "lang": "ar"}),
    ("/dos/attack#pl", {**dict(ENDPOINTS)["/dos/attack"], "lang": "pl"}),
]


def every_endpoint() -> list[tuple[str, dict[str, Any]]]:
    """``ENDPOINTS``, then every other POST operation of the app with the first example its OpenAPI
    document gives (a seed becomes ``@SEED@``): odds, simulations and every resolver not in the
    table, as they are registered."""
    sys.path.insert(0, str(ROOT))
    from service.app import create_app

    rows = list(ENDPOINTS)
    named = {url_path(row) for row, _ in rows}
    for path, item in create_app().openapi()["paths"].items():
        op = item.get("post")
        if op is None or path in named:
            continue
        content: dict[str, Any] = op["requestBody"]["content"]["application/json"]
        example = content.get("example")
        if example is None:
            named_examples: list[dict[str, Any]] = list(content.get("examples", {}).values())
            example = named_examples[0].get("value") if named_examples else None
        if not isinstance(example, dict):
            continue
        body = dict(example)
        if "seed" in body:
            body["seed"] = "@SEED@"
        rows.append((path, body))
    return rows


def url_path(row: str) -> str:
    """The path a row of ``ENDPOINTS`` posts to (its name without ``#<what>``)."""
    return row.split("#", 1)[0]


@dataclass(frozen=True)
class PairedRun:
    """The command line of a benchmark that runs two servers in alternation per endpoint
    (``bench.cpu``): which rows, how many rounds, how long each wrk run."""

    paths: list[str]
    rounds: int
    seconds: float


def paired_run(doc: str, paths: list[str], seconds: float, argv: list[str] | None) -> PairedRun:
    """Parse ``[--rounds N] [--duration S] [path ...]`` (rows of ``ENDPOINTS``, default ``paths``),
    bound them (1-20 rounds, 1-60 s) and make sure wrk is there."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n", maxsplit=1)[0])
    parser.add_argument("paths", nargs="*", default=paths)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=float, default=seconds, help="seconds per wrk run")
    args = parser.parse_args(argv)
    bodies = dict(ENDPOINTS)
    unknown = [p for p in args.paths if p not in bodies]
    if unknown:
        parser.error(f"no benchmark body for {', '.join(unknown)}; known: {', '.join(bodies)}")
    ensure_wrk()
    return PairedRun(args.paths, max(1, min(args.rounds, 20)), max(1.0, min(args.duration, 60.0)))


def ratio_summary(ratios: list[float]) -> str:
    """The median of a ratio over the rounds, and each round's: ``1.30x (rounds: 1.18, 1.37)``."""
    return f"{statistics.median(ratios):.2f}x (rounds: {', '.join(f'{r:.2f}' for r in ratios)})"


#: The endpoints of the speed contract (issue 38: at least ``FLOOR`` times the bare app's throughput,
#: the bare app on uvicorn's defaults; 1.0x the moonshot); every
#: other endpoint is measured and shown, with no floor.
TARGETED = ("/dos/test", "/dos/roll", "/dnd5e/check", "/dice/roll")
FLOOR = 0.7
#: Reported beside them, with no floor.
REPORTED = ("/dragon/battle", "/dos/attack")

#: The bare app's request: about as many fields as a DoS test, seeded the same way.
BARE = ("/check", {"name": "kobold", "stat": 44, "skill": 5, "dc": 47, "seed": "@SEED@"})


def scope_for(path: str, size: int) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", b"application/json"),
            (b"content-length", str(size).encode()),
        ],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
        "state": {},
    }


def body_text(body: dict[str, Any], seed: str | None = None) -> str:
    text = json.dumps(body, separators=(",", ":"))
    return text if seed is None else text.replace("@SEED@", seed)


# ------------------------------------------------------------------------------- servers


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (``/proc/<pid>/stat``, fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (``/proc/<pid>/task/<tid>/children``)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
    return found


def tree_cpu_seconds(pid: int) -> float:
    """CPU time so far of ``pid`` and its live descendants (a uvicorn supervisor and its workers)."""
    total = 0.0
    for p in descendants(pid):
        try:
            total += cpu_seconds(p)
        except OSError:
            continue
    return total


@dataclass
class Server:
    name: str
    port: int
    proc: subprocess.Popen[bytes]

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"


#: The two apps a benchmark serves: the service as ``python -m service`` runs it (uvicorn on httptools
#: with the edge's limits and timers, ``service.server``; its JSON access line, its metrics), and the
#: bare app as its user would run it: ``uvicorn bench.bare_app:app``, uvicorn's defaults (httptools,
#: its access log on), no option but the address.
SERVICE = "service"
BARE_APP = "bench.bare_app:app"


def serve_command(app: str, port: int, workers: int, python: str | None) -> list[str]:
    if app == BARE_APP:
        cmd = [sys.executable, "-m", "uvicorn", BARE_APP, "--host", HOST, "--port", str(port)]
        return cmd + (["--workers", str(workers)] if workers > 1 else [])
    cmd = [python or sys.executable, "-m", "service", "--host", HOST, "--port", str(port)]
    return [*cmd, "--workers", str(workers)]


@contextmanager
def serve(name: str, app: str, workers: int = 1, python: str | None = None) -> Iterator[Server]:
    """Run ``app`` (``SERVICE`` or ``BARE_APP``) on a free loopback port until the block ends; wait
    (bounded) until it answers.

    ``python``: another interpreter for the service (the compiled build's, ``make bench-compiled``),
    run outside the source tree so that it imports its installed packages, not the source.
    """
    port = free_port()
    cmd = serve_command(app, port, workers, python)
    # Both apps log one line per request, as in production: the service its JSON access line (not
    # the terminal's console format, which would measure the terminal), uvicorn its access log for
    # the bare app; to a file, like a container's log, dropped after.
    log = tempfile.NamedTemporaryFile(prefix="dragonroll-bench-")  # noqa: SIM115 - closed below
    env = {**os.environ, "DRAGONROLL_LOG_FORMAT": "json"}
    cwd = tempfile.gettempdir() if python and app == SERVICE else ROOT
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=log, stderr=log, env=env)
    server = Server(name, port, proc)
    try:
        # Ready when every worker has started (a supervisor listens before its workers are up):
        # uvicorn logs the line once per worker, the service's in JSON, the bare app's as text.
        deadline = time.monotonic() + 180
        while Path(log.name).read_bytes().count(b"Application startup complete.") < workers:
            if proc.poll() is not None or time.monotonic() > deadline:
                tail = Path(log.name).read_bytes()[-2000:].decode(errors="replace")
                raise RuntimeError(f"{name} did not start: {' '.join(cmd)}\n{tail}")
            time.sleep(0.2)
        yield server
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


def post(url: str, text: str, timeout: float = 10) -> tuple[int, bytes]:
    req = urllib.request.Request(
        url, data=text.encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


# ------------------------------------------------------------------------------- wrk


def ensure_wrk() -> str:
    path = shutil.which("wrk")
    if path:
        return path
    print("wrk is missing: installing the Debian package (apt-get install wrk)", flush=True)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run([*sudo, "apt-get", "update", "-qq"], check=False)
    subprocess.run([*sudo, "apt-get", "install", "-y", "-qq", "wrk"], check=True)
    path = shutil.which("wrk")
    if not path:
        raise SystemExit("wrk could not be installed")
    return path


_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}


def _ms(text: str) -> float:
    m = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
    if not m:
        raise ValueError(text)
    return float(m.group(1)) * _UNITS[m.group(2)]


@dataclass
class WrkResult:
    rps: float
    requests: int
    non_2xx: int
    errors: int
    p50_ms: float | None
    p99_ms: float | None


def wrk(url: str, body: str, seconds: float, connections: int, latency: bool = False) -> WrkResult:
    threads = 1 if connections == 1 else 2
    cmd = [
        "wrk",
        f"-t{threads}",
        f"-c{connections}",
        f"-d{max(1, round(seconds))}s",
        "--timeout",
        "10s",
        "-s",
        str(LUA),
        *(["--latency"] if latency else []),
        url,
    ]
    env = {**os.environ, "BENCH_BODY": body}
    out = subprocess.run(
        cmd, env=env, capture_output=True, text=True, check=True, timeout=seconds + 60
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    requests = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    non = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errs = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    p50 = re.search(r"^\s+50%\s+(\S+)", out, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", out, re.M)
    return WrkResult(
        rps=rps,
        requests=requests,
        non_2xx=int(non.group(1)) if non else 0,
        errors=sum(int(x) for x in errs.groups()) if errs else 0,
        p50_ms=_ms(p50.group(1)) if p50 else None,
        p99_ms=_ms(p99.group(1)) if p99 else None,
    )


# ------------------------------------------------------------------------------- micro


SEEDS = 64


def micro(
    paths: list[str], number: int, rows: list[tuple[str, dict[str, Any]]] | None = None
) -> dict[str, float]:
    """ns per call of validate + resolve + serialise (``Endpoint.resolve``), in-process, for each
    endpoint."""
    sys.path.insert(0, str(ROOT))
    from service.app import create_app
    from service.endpoints import endpoints

    bodies = dict(rows or ENDPOINTS)
    out: dict[str, float] = {}
    routes = endpoints(create_app())
    for path in paths:
        route = routes.get(url_path(path))
        if route is None or path not in bodies:
            continue
        # 64 seeds in turn: one fixed seed would time one path through the rules (a miss, say).
        raws = [body_text(bodies[path], f"bench-{i}").encode() for i in range(SEEDS)]

        def calls(route: Any = route, raws: list[bytes] = raws) -> None:
            for raw in raws:
                route.resolve(raw)  # what a request runs: validate, dice, resolve, encode

        calls()
        rounds = max(1, number // SEEDS)
        best = min(timeit.repeat(calls, number=rounds, repeat=5, timer=time.process_time))
        out[path] = best / (rounds * SEEDS) * 1e9
    return out


# ------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per wrk run")
    parser.add_argument("--rounds", type=int, default=3, help="bare/service pairs per endpoint")
    parser.add_argument("--latency-seconds", type=float, default=5.0, help="one-connection run")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--quick", action="store_true", help="1 s runs, 1 round (smoke test)")
    parser.add_argument(
        "--only", nargs="+", metavar="ROW", help="these rows only (default: every endpoint)"
    )
    parser.add_argument(
        "--contract",
        action="store_true",
        help=f"the speed contract's rows only: {', '.join(TARGETED + REPORTED)}",
    )
    parser.add_argument(
        "--service-python",
        help="the interpreter that runs the service (default: this one, the source tree); "
        "`make bench-compiled` gives the compiled build's",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.duration, args.rounds, args.latency_seconds = 1.0, 1, 1.0
    rows = every_endpoint()
    if args.contract:
        args.only = [*TARGETED, *REPORTED]
    if args.only:
        known = dict(rows)
        unknown = [row for row in args.only if row not in known]
        if unknown:
            parser.error(f"no benchmark body for {', '.join(unknown)}; known: {', '.join(known)}")
        rows = [(row, known[row]) for row in args.only]
    ensure_wrk()
    rounds = max(1, min(args.rounds, 20))
    seconds = max(1.0, min(args.duration, 120.0))
    lat_seconds = max(1.0, min(args.latency_seconds, 60.0))
    report: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "connections": CONNECTIONS,
        "duration_s": seconds,
        "rounds": rounds,
        "endpoints": {},
        "skipped": {},
    }
    py = args.service_python
    report["service_python"] = py or sys.executable
    build = "the compiled build" if py else "the source (pure Python)"
    print(
        f"dragonroll bench {report['date']}: wrk -c{CONNECTIONS} {seconds:g}s x {rounds} rounds,"
        f" service from {build}"
    )

    with (
        serve("bare", BARE_APP) as bare,
        serve("dragonroll", SERVICE, python=py) as svc,
    ):
        bare_url = bare.base + BARE[0]
        bare_body = body_text(BARE[1])
        status, text = post(bare_url, body_text(BARE[1], "bench"))
        assert status == 200, (status, text)
        live: list[tuple[str, str]] = []
        for path, body in rows:
            status, text = post(svc.base + url_path(path), body_text(body, "bench"))
            if status == 404:
                msg = "404 on this app (its system is not merged here): skipped"
                print(f"  {path}: {msg}")
                report["skipped"][path] = msg
            elif status != 200:
                msg = f"{status} for the table's body (update ENDPOINTS): {text[:300]!r}"
                print(f"  {path}: {msg}")
                report["skipped"][path] = msg
            else:
                live.append((path, body_text(body)))
        live_urls = {path: svc.base + url_path(path) for path, _ in live}
        # warm both up
        wrk(bare_url, bare_body, 2, CONNECTIONS)
        for path, payload in live:
            wrk(live_urls[path], payload, 1, CONNECTIONS)

        report["bare"] = {"rps": [], "p50_ms": [], "p99_ms": []}
        for path, payload in live:
            pairs: list[tuple[float, float]] = []
            lat: dict[str, list[float]] = {"b50": [], "b99": [], "s50": [], "s99": []}
            failures = 0
            for _ in range(rounds):  # each round: bare then service, load then one connection
                b = wrk(bare_url, bare_body, seconds, CONNECTIONS)
                s = wrk(live_urls[path], payload, seconds, CONNECTIONS)
                bl = wrk(bare_url, bare_body, lat_seconds, 1, latency=True)
                sl = wrk(live_urls[path], payload, lat_seconds, 1, latency=True)
                failures += sum(r.non_2xx + r.errors for r in (b, s, bl, sl))
                pairs.append((b.rps, s.rps))
                lat["b50"].append(bl.p50_ms or 0)
                lat["b99"].append(bl.p99_ms or 0)
                lat["s50"].append(sl.p50_ms or 0)
                lat["s99"].append(sl.p99_ms or 0)
                report["bare"]["rps"].append(b.rps)
                report["bare"]["p50_ms"].append(bl.p50_ms)
                report["bare"]["p99_ms"].append(bl.p99_ms)
            med = {k: statistics.median(v) for k, v in lat.items()}
            ratio = statistics.median(s / b for b, s in pairs)
            entry = {
                "rps": statistics.median(s for _, s in pairs),
                "bare_rps": statistics.median(b for b, _ in pairs),
                "rps_ratio": ratio,
                "p50_ms": med["s50"],
                "p99_ms": med["s99"],
                "bare_p50_ms": med["b50"],
                "bare_p99_ms": med["b99"],
                "p50_ratio": med["s50"] / (med["b50"] or 1),
                "p99_ratio": med["s99"] / (med["b99"] or 1),
                "failed_requests": failures,
            }
            report["endpoints"][path] = entry
            print(
                f"  {path:<19} {entry['rps']:7.0f} req/s {ratio:5.2f}x"
                f" | p50 {med['s50']:.3f} ms {entry['p50_ratio']:5.2f}x"
                f" | p99 {med['s99']:.3f} ms {entry['p99_ratio']:5.2f}x"
                f" | bare {entry['bare_rps']:.0f} req/s, p50 {med['b50']:.3f}, p99 {med['b99']:.3f}"
                + (f"  FAILED REQUESTS {failures}" if failures else ""),
                flush=True,
            )

    from bench.workers import measure as workers_cpu
    from bench.workers import report as workers_report

    print(
        f"\nserver CPU per request, 2 uvicorn workers against 1 (process tree, wrk -c{CONNECTIONS}):"
    )
    scaling = workers_cpu(["/dos/test"], rounds, seconds, py)
    report["workers"] = scaling
    workers_report(scaling)

    # In this process: the source, whichever build served above.
    from bench.inprocess import measure_quietly

    measured = [(row, body) for row, body in rows if row in report["endpoints"]]
    asgi = measure_quietly(200 if args.quick else 1000, 1 if args.quick else 5, measured)
    ns = micro([p for p, _ in measured], 300 if args.quick else 2000, measured)
    report["inprocess_us"] = asgi
    report["micro_ns"] = ns
    print(
        "\nper endpoint: throughput ratio to the bare app (64 connections), p50 and p99 at one"
        " connection,\nin-process us per request through the whole app (and x bare), and of"
        " Endpoint.resolve alone (the source, pure Python):"
    )
    print(
        f"  {'endpoint':<22} {'x bare':>6} {'p50 ms':>7} {'p99 ms':>7}"
        f" {'app us':>8} {'x bare':>6} {'resolve us':>10}"
    )
    for path, e in report["endpoints"].items():
        inproc = asgi.get(path, {})
        print(
            f"  {path:<22} {e['rps_ratio']:6.2f} {e['p50_ms']:7.3f} {e['p99_ms']:7.3f}"
            f" {inproc.get('us_per_request', 0):8.1f} {inproc.get('ratio_to_bare', 0):6.2f}"
            f" {ns.get(path, 0) / 1000:10.1f}"
        )
    bare_row = next((v for k, v in asgi.items() if k.startswith("bare")), {})
    print(
        f"  {'bare ' + BARE[0]:<22} {'1.00':>6} {'':>7} {'':>7} {bare_row.get('us_per_request', 0):8.1f}"
    )

    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")

    def missed(e: dict[str, Any]) -> bool:
        return bool(e["rps_ratio"] < FLOOR or e["failed_requests"])

    bad = [p for p in TARGETED if p in report["endpoints"] and missed(report["endpoints"][p])]
    print(
        f"speed contract (>= {FLOOR}x the bare app's throughput) for {', '.join(TARGETED)}:",
        "met" if not bad else f"missed by {bad}",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
