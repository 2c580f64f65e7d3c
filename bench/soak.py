"""``make soak``: every POST endpoint under mixed valid and invalid traffic against a real uvicorn, for
the whole run, then five verdicts.

Loopback only, bounded in time (``--duration``, default 120 s, plus ``--warmup``), stops by itself:

1. starts the service (one uvicorn worker and its heavy lane);
2. the rows: every POST operation of the app (``bench.bench.every_endpoint``: the benchmark's
   bodies, then each other operation's documented example; odds without a seed, as they take
   none) and two MCP tool calls (``/mcp``, one resolving, one odds); each is probed once, and one
   that does not answer 200 fails the soak; the probe also tells which rows the heavy lane answers
   (its ``answered`` jobs counted in ``/metrics``);
3. records the bytes of a few seeded requests per row;
4. warms up, then runs three wrk processes at once for ``--duration`` seconds: the light rows on
   ``LIGHT_CONNECTIONS`` connections, the heavy rows (odds, simulations) on ``HEAVY_CONNECTIONS``
   (no more than the lane's workers and one client's share of its queue, so that none is shed by
   design), each cycling with fresh seeds and without one, and the invalid requests on
   ``INVALID_CONNECTIONS`` (malformed JSON, wrong types, unknown fields, bounds, wrong content
   type, bad scripted dice, wrong method, unknown path, a 70 KB body); every ``--window`` seconds
   it reads ``/metrics`` and the memory of the server and its workers;
5. checks: zero non-2xx among the valid requests (a 503 of a full heavy queue apart, counted as
   ``shed``), zero 5xx among the invalid ones, every row's route answered 2xx in every window of the
   run, the seeded requests answered with the same bytes at the end, no growth of memory (the
   server's resident set at the end within ``GROWTH`` of the middle of the run: see
   :func:`growth`), and the peak of the server's and its workers' proportional set under the
   Deployment's memory limit.

Exit status 0 when all hold. Usage: ``python -m bench.soak [--duration 120] [--warmup 15]
[--window 10] [--trace trace.json]`` (the trace: every sample, per process).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from bench.bench import SERVICE, body_text, ensure_wrk, every_endpoint, serve, url_path

ROOT = Path(__file__).resolve().parent.parent
LUA = ROOT / "bench" / "mixed.lua"
LIGHT_CONNECTIONS = 92
#: The heavy rows' connections: the lane's 2 workers and a few waiting, so that none is shed by
#: design (one client's share of the queue is what one peer address may hold).
HEAVY_CONNECTIONS = 4
INVALID_CONNECTIONS = 32
SEEDS = ("soak-a", "soak-b", 7)
#: The most the memory may grow from the middle of the run to its end.
GROWTH = 0.10
MCP_ACCEPT = "application/json, text/event-stream"
#: The MCP calls soaked: one resolving endpoint, one odds (the heavy lane through MCP).
MCP_PATHS = ("/dos/test", "/dice/odds")


@dataclass
class Row:
    """One valid request of the soak: where it goes, its body (``@SEED@`` for a fresh seed), the
    route its answers are counted under in ``/metrics``, and whether the heavy lane answers it."""

    name: str
    path: str
    body: dict[str, Any]
    route: str
    accept: str = ""
    heavy: bool = False

    def text(self, seed: str | int | None = "@SEED@") -> str:
        """Its body as sent: a fresh seed per request (``@SEED@``), this ``seed``, or none."""
        return body_text(with_seed(self.body, seed))

    def lines(self) -> list[tuple[str, ...]]:
        """Its rows for wrk: with a fresh seed, and without one (the service picks it)."""
        out: list[tuple[str, ...]] = [
            ("POST", self.path, "application/json", self.accept, self.text())
        ]
        if self.text(None) != self.text():
            ctype = "application/json; charset=utf-8"
            out.append(("POST", self.path, ctype, self.accept, self.text(None)))
        return out


def with_seed(body: dict[str, Any], seed: str | int | None) -> dict[str, Any]:
    """The body with ``seed`` where it takes a seed (an MCP call: in its request), or with no seed
    at all (``None``: the service picks one)."""
    if "params" in body:
        request = body["params"]["arguments"]["request"]
        arguments = {**body["params"]["arguments"], "request": with_seed(request, seed)}
        return {**body, "params": {**body["params"], "arguments": arguments}}
    if "seed" not in body:
        return body
    return (
        {**body, "seed": seed}
        if seed is not None
        else {k: v for k, v in body.items() if k != "seed"}
    )


def post(base: str, row: Row, text: str, timeout: float = 30) -> tuple[int, bytes]:
    headers = {"Content-Type": "application/json"}
    if row.accept:
        headers["Accept"] = row.accept
    request = urllib.request.Request(base + row.path, text.encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def mcp_rows(base: str, http_rows: list[Row]) -> list[Row]:
    """Tool calls for ``MCP_PATHS``, the tool found by its ``endpoint`` enum in ``tools/list``."""
    listing = Row("/mcp list", "/mcp", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                  "/mcp", MCP_ACCEPT)  # fmt: skip
    status, content = post(base, listing, listing.text())
    if status != 200:
        raise SystemExit(f"soak: POST /mcp tools/list answered {status}: {content[:300]!r}")
    tools = json.loads(content)["result"]["tools"]
    bodies = {row.name: row.body for row in http_rows}  # "/dos/test", not "/dos/test#foundry"
    out = []
    for path in MCP_PATHS:
        [tool] = [t["name"] for t in tools
                  if path in t["inputSchema"]["properties"]["endpoint"].get("enum", [])
                  and "request" in t["inputSchema"]["properties"]]  # fmt: skip
        arguments = {"endpoint": path, "request": bodies[path]}
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": tool, "arguments": arguments}}  # fmt: skip
        out.append(Row(f"/mcp {tool} {path}", "/mcp", call, f"mcp:{path}", MCP_ACCEPT))
    return out


Counters = list[tuple[str, dict[str, str], float]]


def metrics(base: str) -> Counters:
    """The service's samples now: (name, labels, value)."""
    with urllib.request.urlopen(base + "/metrics", timeout=30) as r:
        text = r.read().decode()
    families = text_string_to_metric_families(text)
    return [(s.name, s.labels, s.value) for family in families for s in family.samples]


def answered_2xx(counters: Counters) -> dict[str, float]:
    """Each route's 2xx answers so far (any method)."""
    out: dict[str, float] = {}
    for name, labels, value in counters:
        if name == "dragonroll_http_requests_total" and labels["status"] == "2xx":
            out[labels["route"]] = out.get(labels["route"], 0) + value
    return out


def heavy_answered(counters: Counters) -> float:
    jobs = "dragonroll_heavy_jobs_total"
    return sum(
        v for name, labels, v in counters if name == jobs and labels["outcome"] == "answered"
    )


def http_rows() -> list[Row]:
    """Every POST operation of the app, the benchmark's variants (``/dos/test#foundry``) too."""
    return [Row(name, url_path(name), body, url_path(name)) for name, body in every_endpoint()]


def probe(base: str, rows: list[Row]) -> list[str]:
    """Ask each row once (its answer must be 200), marking those the heavy lane answered; the
    problems, if any."""
    problems = []
    for row in rows:
        before = heavy_answered(metrics(base))
        status, content = post(base, row, row.text("probe"))
        if status != 200:
            problems.append(f"{row.name}: {status} {content[:200]!r}")
        row.heavy = heavy_answered(metrics(base)) > before
    return problems


def invalid_requests(paths: list[str]) -> list[tuple[str, ...]]:
    """(method, path, content type, accept, body) of requests that must get a 4xx, never a 5xx."""
    out: list[tuple[str, ...]] = []
    for path in paths:
        out += [
            ("POST", path, "application/json", "", "{"),
            ("POST", path, "application/json", "", ""),
            ("POST", path, "application/json", "", "[1,2,3]"),
            ("POST", path, "application/json", "", "null"),
            ("POST", path, "application/json", "", '{"seed": 1, "unknown_field": true}'),
            ("POST", path, "application/json", "", '{"seed": "", "dice": {"no such slot": [1]}}'),
            ("POST", path, "application/json", "", '{"seed": 1, "dice": {"x": [0, -1, 99999999999]}}'),
            ("POST", path, "application/json", "", '{"stat": "many", "skill": 1e400}'),
            ("POST", path, "application/json", "", '{"pool": 101, "skill": 101, "stat": 1000001}'),
            ("POST", path, "text/plain", "", '{"pool": 1}'),
            ("POST", path, "application/xml", "", "<pool>1</pool>"),
            ("GET", path, "", "", ""),
            ("POST", path, "application/json", "", '{"seed": "' + "x" * 70_000 + '"}'),
        ]  # fmt: skip
    out.append(("POST", "/no/such/endpoint", "application/json", "", "{}"))
    out.append(("POST", "/mcp", "application/json", MCP_ACCEPT, '{"jsonrpc": "2.0", "id": 1}'))
    return out


def write_lines(path: Path, rows: list[tuple[str, ...]]) -> None:
    with path.open("w") as f:
        for row in rows:
            assert all("\t" not in c and "\n" not in c for c in row), row
            f.write("\t".join(row) + "\n")


def memory(pid: int) -> tuple[dict[int, int], int]:
    """The proportional set size (KiB) of the server and of each of its heavy-lane workers (forked
    children sharing its pages: summed, what the pod's memory counts once), and the server's own
    resident set (KiB: unlike its PSS, it does not change when a worker is forked or ends)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    pss, rss = {}, 0
    for proc in [pid, *map(int, children)]:
        try:
            text = Path(f"/proc/{proc}/smaps_rollup").read_text()
        except OSError:  # a worker replaced meanwhile
            continue
        fields = dict(re.findall(r"^(\w+):\s+(\d+) kB", text, re.M))
        pss[proc] = int(fields["Pss"])
        if proc == pid:
            rss = int(fields["Rss"])
    return pss, rss


@dataclass
class Sample:
    """One reading: seconds since the soak began, each process's PSS and the server's RSS (KiB),
    the requests answered so far, each route's 2xx."""

    at: float
    pss: dict[int, int]
    server_rss: int
    answered: dict[str, float]

    @property
    def total(self) -> int:
        return sum(self.pss.values())

    @property
    def requests(self) -> float:
        return sum(self.answered.values())


def sample(base: str, pid: int, at: float) -> Sample:
    return Sample(at, *memory(pid), answered_2xx(metrics(base)))


@dataclass
class Run:
    """What the soak saw."""

    valid: dict[str, Any] = field(default_factory=dict)
    invalid: dict[str, Any] = field(default_factory=dict)
    samples: list[Sample] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)

    def whole(self) -> Run:
        """The same run read as one window (its first and last readings)."""
        return Run(self.valid, self.invalid, [self.samples[0], self.samples[-1]], self.changed)


def wrk_mixed(url: str, rows_file: Path, seconds: int, connections: int) -> subprocess.Popen[str]:
    threads = min(2, connections)
    cmd = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
           "-s", str(LUA), url]  # fmt: skip
    env = {**os.environ, "SOAK_FILE": str(rows_file)}
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def counts(proc: subprocess.Popen[str], seconds: int) -> dict[str, Any]:
    out, err = proc.communicate(timeout=seconds + 60)
    m = re.search(r"^SOAK (\{.*\})$", out, re.M)
    if proc.returncode != 0 or not m:
        raise RuntimeError(f"wrk failed ({proc.returncode}): {out}\n{err}")
    return dict(json.loads(m.group(1)))


def added(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    return {k: a.get(k, 0) + b.get(k, 0) for k in a.keys() | b.keys() if k != "p99_ms"}


@dataclass
class Traffic:
    """The running wrk processes; ``found`` holds their counts (valid, invalid) once they end."""

    procs: dict[str, subprocess.Popen[str]]
    found: list[dict[str, Any]] = field(default_factory=list)

    def stop(self) -> None:
        """End the load now (wrk prints its counts on SIGINT as at the end of its duration)."""
        for proc in self.procs.values():
            proc.send_signal(signal.SIGINT)


@contextmanager
def traffic(base: str, files: dict[str, Path], seconds: int) -> Iterator[Traffic]:
    """The three wrk processes for ``seconds`` (or until stopped); their counts once it ends."""
    plan = {"light": LIGHT_CONNECTIONS, "heavy": HEAVY_CONNECTIONS, "invalid": INVALID_CONNECTIONS}
    load = Traffic({k: wrk_mixed(base + "/", files[k], seconds, n) for k, n in plan.items()})
    try:
        yield load
    except BaseException:
        load.stop()
        raise
    finally:
        got = {k: counts(p, seconds) for k, p in load.procs.items()}
        load.found += [added(got["light"], got["heavy"]), got["invalid"]]


def snapshot(base: str, rows: list[Row]) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for row in rows:
        seeds: tuple[str | int | None, ...] = SEEDS if row.text(None) != row.text() else (None,)
        for seed in seeds:
            status, content = post(base, row, row.text(seed))
            out[f"{row.name} seed={seed}"] = bytes([status % 256]) + content
    return out


def soak(base: str, pid: int, files: dict[str, Path], seconds: int, window: float, *,
         until: Callable[[Run], bool] | None = None) -> Run:  # fmt: skip
    """The traffic for ``seconds``, read every ``window`` seconds; ended at a reading after which
    ``until`` holds, if one does."""
    run = Run()
    start = time.monotonic()
    run.samples.append(sample(base, pid, 0.0))
    with traffic(base, files, seconds) as load:
        deadline = start + seconds
        while (now := time.monotonic()) < deadline - window / 2:
            time.sleep(min(window, deadline - now))
            run.samples.append(sample(base, pid, time.monotonic() - start))
            if until is not None and until(run):
                load.stop()
                break
    run.valid, run.invalid = load.found
    return run


def uncovered(run: Run, rows: list[Row]) -> list[str]:
    """Each window of the run in which a row's route answered nothing (no 2xx)."""
    out = []
    for before, after in zip(run.samples, run.samples[1:], strict=False):
        idle = sorted({r.route for r in rows if after.answered.get(r.route, 0)
                       <= before.answered.get(r.route, 0)})  # fmt: skip
        if idle:
            out.append(f"{before.at:.0f}-{after.at:.0f} s: {', '.join(idle)}")
    return out


def growth(run: Run) -> tuple[float, Sample, Sample]:
    """The server's resident memory's growth from the reading nearest the middle of the run to
    the last (and both readings). Not from the warm-up's end: the server's heap still grows then,
    and the workers' share of the total depends on when each was last forked (a fresh fork shares
    every page; replaced every 250 jobs, each copies what it writes again)."""
    middle = min(run.samples, key=lambda s: abs(s.at - run.samples[-1].at / 2))
    end = run.samples[-1]
    return (end.server_rss - middle.server_rss) / middle.server_rss, middle, end


def slope(a: Sample, b: Sample) -> float:
    """Bytes of the server's resident memory gained per request answered from ``a`` to ``b``."""
    return (b.server_rss - a.server_rss) * 1024 / max(1.0, b.requests - a.requests)


def verdicts(run: Run, rows: list[Row], *, growth_limit: float | None = GROWTH) -> list[str]:
    """What failed (nothing: passed). ``growth_limit`` None: no memory verdict (a run of a few
    seconds is still the warm-up)."""
    failures = []
    valid, invalid = run.valid, run.invalid
    bad_valid = valid["3xx"] + valid["4xx"] + valid["5xx"] + valid["other"]
    if bad_valid or valid["socket_errors"] or not valid["2xx"]:
        failures.append(f"valid requests: {bad_valid} non-2xx, {valid['socket_errors']} errors")
    if invalid["5xx"] or not invalid["4xx"]:
        failures.append(f"invalid requests: {invalid['5xx']} 5xx, {invalid['4xx']} 4xx of"
                        f" {invalid['requests']}, {invalid['socket_errors']} errors")  # fmt: skip
    idle = uncovered(run, rows)
    if idle:
        failures.append("windows in which a route answered nothing: " + "; ".join(idle))
    grew, _, _ = growth(run)
    if growth_limit is not None and grew > growth_limit:
        failures.append(f"the server's memory grew {grew:.1%} in the second half (> {GROWTH:.0%})")
    peak = max(s.total for s in run.samples) * 1024
    if peak > memory_limit():
        failures.append(f"the peak, {peak / 2**20:.0f} MiB, is over the pod's memory limit")
    if run.changed:
        failures.append(f"seeded responses changed: {run.changed}")
    return failures


def memory_limit() -> int:
    """The Deployment's memory limit, in bytes (deploy/base)."""
    import yaml

    deployment = yaml.safe_load((ROOT / "deploy" / "base" / "deployment.yaml").read_text())
    [container] = deployment["spec"]["template"]["spec"]["containers"]
    value = container["resources"]["limits"]["memory"]
    units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30}
    return int(value[:-2]) * units[value[-2:]] if value[-2:] in units else int(value)


def report(run: Run, rows: list[Row], seconds: int) -> None:
    print(f"  valid:   {json.dumps(run.valid)}")
    print(f"  invalid: {json.dumps(run.invalid)}")
    first = run.samples[0].answered
    last = run.samples[-1].answered
    least = min(rows, key=lambda r: last.get(r.route, 0) - first.get(r.route, 0))
    count = last.get(least.route, 0) - first.get(least.route, 0)
    print(f"  every route answered in each of the {len(run.samples) - 1} windows of {seconds} s;"
          f" the least: {least.route}, {count:.0f} answers"
          if not uncovered(run, rows) else "  some routes answered nothing in a window")  # fmt: skip
    grew, middle, end = growth(run)
    per_request = slope(middle, end)
    print(f"  the server's RSS: {run.samples[0].server_rss / 1024:.1f} MiB after the warm-up,"
          f" {middle.server_rss / 1024:.1f} at the middle, {end.server_rss / 1024:.1f} at the end"
          f" ({grew:+.1%}, {per_request:+.0f} bytes a request over the second half)")  # fmt: skip
    totals = [s.total / 1024 for s in run.samples]
    print(f"  PSS of the server and its workers: {min(totals):.1f}-{max(totals):.1f} MiB"
          f" (limit {memory_limit() / 2**20:.0f} MiB)")  # fmt: skip
    print(f"  seeded responses identical before and after: {not run.changed}")


def prepare(base: str, tmp: Path) -> tuple[list[Row], dict[str, Path]]:
    """The rows, probed (or exit), and their wrk files: light, heavy, invalid."""
    rows = http_rows()
    rows += mcp_rows(base, rows)
    problems = probe(base, rows)
    if problems:
        raise SystemExit("soak: rows the service does not answer 200:\n  " + "\n  ".join(problems))
    files = {kind: tmp / f"{kind}.tsv" for kind in ("light", "heavy", "invalid")}
    for kind, heavy in (("light", False), ("heavy", True)):
        write_lines(files[kind], [line for r in rows if r.heavy == heavy for line in r.lines()])
    paths = sorted({r.path for r in rows if r.path != "/mcp"})
    write_lines(files["invalid"], invalid_requests(paths))
    return rows, files


def run_soak(
    seconds: int, warmup: int, window: float, until: Callable[[Run, list[Row]], bool] | None = None
) -> tuple[Run, list[Row]]:
    """The whole soak: a server started, its rows probed, warmed up, soaked (until ``until``
    holds, at most ``seconds``), stopped."""
    ensure_wrk()
    with tempfile.TemporaryDirectory() as tmp, serve("dragonroll", SERVICE) as svc:
        rows, files = prepare(svc.base, Path(tmp))
        before = snapshot(svc.base, rows)
        heavy = sum(r.heavy for r in rows)
        print(f"soak {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {len(rows)} rows"
              f" ({heavy} answered by the heavy lane), {LIGHT_CONNECTIONS} + {HEAVY_CONNECTIONS}"
              f" + {INVALID_CONNECTIONS} connections, {warmup} s warm-up, then {seconds} s",
              flush=True)  # fmt: skip
        with traffic(svc.base, files, warmup):
            pass
        done = None if until is None else (lambda run: until(run, rows))
        run = soak(svc.base, svc.proc.pid, files, seconds, window, until=done)
        after = snapshot(svc.base, rows)
    run.changed = [k for k in before if before[k] != after.get(k)]
    return run, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=120, help="seconds of mixed traffic")
    parser.add_argument("--warmup", type=int, default=15, help="seconds of warm-up traffic")
    parser.add_argument("--window", type=float, default=10, help="seconds between two readings")
    parser.add_argument("--trace", type=Path, help="write every reading to this JSON file")
    args = parser.parse_args(argv)
    seconds = max(2, min(args.duration, 3600))
    window = max(0.5, min(args.window, seconds / 2))
    run, rows = run_soak(seconds, max(1, min(args.warmup, 600)), window)
    report(run, rows, round(window))
    if args.trace:
        args.trace.write_text(json.dumps([s.__dict__ for s in run.samples], indent=1))
    failures = verdicts(run, rows)
    print("soak:", "passed" if not failures else "FAILED: " + "; ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
