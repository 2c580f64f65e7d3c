"""The failure paths of issue 46 against a real server, measured as a hostile caller would see them.

Loopback only, every loop bounded in time, every process it starts stopped at the end. The figures
are the server's own: CPU and memory of its whole process tree from ``/proc``, processes started,
and the latency of ``/livez`` and of a light ``POST /dos/test`` probed meanwhile.

- ``hangup``: connections that send ``1d100!>1`` odds and close 20 ms later, again and again
  (``--lane`` picks the heavy lane: the service's own, or a maintained pool in its place, for the
  comparison in docs/hardening.md: ``pebble``'s ``ProcessPool`` or ``loky``'s executor; both only
  for this measurement, ``pip install pebble loky``);
- ``refusals``: clients sending the 63,416-byte ``/dos/turn`` body of 31,500 errors;
- ``memory``: connections that send a request for one of the largest answers and never read it;
- ``fairness``: one client keeping 24 heavy requests in flight while another asks trivial odds.

Usage: ``python -m bench.failure hangup [--lane service|pebble|loky] [--connections 2]
[--seconds 8]``, and so on (``--help``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
TICKS = os.sysconf("SC_CLK_TCK")
#: The hang-up reproducer's body: accepted odds of about 0.13 s of CPU.
HANGUP_ODDS = {"notation": "1d100!>1"}
LIGHT = ("/dos/test", {"stat": 44, "skill": 5, "dc": 47})


# --------------------------------------------------------------------------- the process tree


def tree(pid: int) -> list[int]:
    """``pid`` and every descendant alive now."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            with contextlib.suppress(OSError):
                todo += [int(c) for c in (task / "children").read_text().split()]
    return out


def started(pid: int) -> bytes | None:
    """When ``pid`` started (clock ticks since boot), or ``None`` if it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def tree_cpu(pid: int) -> float:
    """CPU seconds of the tree: every live process's own and its reaped children's."""
    total = 0
    for p in tree(pid):
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{p}/stat").read_bytes().rsplit(b")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15])
    return total / TICKS


def tree_memory(pid: int) -> tuple[float, float]:
    """(PSS, RSS) of the tree in MiB, from ``/proc/<pid>/smaps_rollup``."""
    pss = rss = 0
    for p in tree(pid):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    pss += int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss += int(line.split()[1])
    return pss / 1024, rss / 1024


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


# --------------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m service`` (or, with ``lane``, the app with another heavy lane: ``serve`` below),
    its log in a temporary file."""

    def __init__(self, lane: str = "service", **env: str) -> None:
        self.port = free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="dragonroll-failure-")  # noqa: SIM115
        self.starts = Path(self.log.name + ".starts")
        cmd = [sys.executable, "-m", "service"]
        if lane != "service":
            cmd = [sys.executable, "-m", "bench.failure", "serve", "--lane", lane]
        self.proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            stdout=self.log,
            stderr=self.log,
            env={
                **os.environ,
                "DRAGONROLL_PORT": str(self.port),
                "DRAGONROLL_LOG_FORMAT": "json",
                "DRAGONROLL_FAILURE_STARTS": str(self.starts),
                **env,
            },
        )
        deadline = time.monotonic() + 120
        while True:
            with contextlib.suppress(OSError):
                if request(self.port, "GET", "/readyz", timeout=2)[0] == 200:
                    break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(Path(self.log.name).read_text()[-3000:])
            time.sleep(0.2)

    def settle(self, quiet: float = 0.05, limit: float = 60) -> float:
        """Wait until the tree uses under ``quiet`` s of CPU in half a second; the seconds waited."""
        start = time.monotonic()
        last = tree_cpu(self.proc.pid)
        while time.monotonic() - start < limit:
            time.sleep(0.5)
            now = tree_cpu(self.proc.pid)
            if now - last < quiet:
                break
            last = now
        return time.monotonic() - start

    def workers_started(self) -> int:
        """Heavy-lane workers started so far (the service's from /metrics, a pool's from the file
        its initializer writes)."""
        if self.starts.exists():
            return len(self.starts.read_text().split())
        _, _, text = request(self.port, "GET", "/metrics")
        for line in text.decode().splitlines():
            if line.startswith("dragonroll_heavy_worker_starts_total "):
                return int(float(line.split()[1]))
        return -1

    def lines(self) -> list[dict[str, Any]]:
        out = []
        for line in Path(self.log.name).read_text(errors="replace").splitlines():
            with contextlib.suppress(ValueError):
                out.append(json.loads(line))
        return out

    def stop(self) -> None:
        """SIGTERM, then SIGKILL for the server and for any process of its tree left behind (loky's
        workers and resource tracker outlive a server that ends)."""
        left = [(p, started(p)) for p in tree(self.proc.pid)] if self.proc.poll() is None else []
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for pid, start in left[1:]:
            if start is not None and started(pid) == start:  # the same process, not a reused pid
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        self.starts.unlink(missing_ok=True)


@contextlib.contextmanager
def served(lane: str = "service", **env: str) -> Iterator[Server]:
    srv = Server(lane, **env)
    try:
        yield srv
    finally:
        srv.stop()


def request(
    port: int, method: str, path: str, body: Any = None, timeout: float = 30
) -> tuple[int, dict[str, str], bytes]:
    """One request on a fresh connection: (status, headers, body)."""
    import http.client

    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body))
        headers = {"Content-Type": "application/json"} if data is not None else {}
        conn.request(method, path, data, headers)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def raw_post(path: str, body: bytes, port: int) -> bytes:
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


class Probes:
    """``/livez`` and a light ``POST /dos/test``, one after the other every ``every`` seconds, in a
    thread of this process, until :meth:`stop`; latencies in seconds (a failure counts as its
    timeout)."""

    def __init__(self, port: int, every: float = 0.1) -> None:
        self.port, self.every = port, every
        self.live: list[float] = []
        self.light: list[float] = []
        self.statuses: list[int] = []
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def timed(self, method: str, path: str, body: Any = None) -> float:
        start = time.monotonic()
        try:
            status, _, _ = request(self.port, method, path, body, timeout=30)
        except OSError:
            status = 0
        self.statuses.append(status)
        return time.monotonic() - start

    def run(self) -> None:
        while self.running:
            self.live.append(self.timed("GET", "/livez"))
            self.light.append(self.timed("POST", LIGHT[0], LIGHT[1]))
            time.sleep(self.every)

    def stop(self) -> dict[str, Any]:
        self.running = False
        self.thread.join(timeout=60)
        return {"livez": summary(self.live), "light": summary(self.light)}


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    return {
        "n": len(values),
        "median_ms": round(statistics.median(values) * 1000, 1),
        "worst_ms": round(max(values) * 1000, 1),
    }


# --------------------------------------------------------------------------- hang-ups

#: Connections that each send a request and close it ``after`` seconds later, again and again, for
#: ``seconds``, in a process of their own (the probes' timing is then the server's, not this
#: process's threads'); prints how many they sent.
HANGERS = """\
import socket, sys, threading, time
port, data, connections, after, seconds = int(sys.argv[1]), bytes.fromhex(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
stop = time.monotonic() + seconds
sent = [0]
def hang_up():
    while time.monotonic() < stop:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(data)
            time.sleep(after)
            s.close()
            sent[0] += 1
        except OSError:
            time.sleep(0.01)
threads = [threading.Thread(target=hang_up) for _ in range(connections)]
[t.start() for t in threads]
[t.join() for t in threads]
print(sent[0])
"""


def hangup(lane: str, connections: int, seconds: float, after: float = 0.02) -> dict[str, Any]:
    """The hang-up reproducer (issue 46, item 1) against the server with ``lane``."""
    with served(lane) as srv:
        srv.settle()
        started, cpu = srv.workers_started(), tree_cpu(srv.proc.pid)
        data = raw_post("/dice/odds", json.dumps(HANGUP_ODDS).encode(), srv.port)
        args = [str(srv.port), data.hex(), str(connections), str(after), str(seconds)]
        hangers = subprocess.Popen(
            [sys.executable, "-c", HANGERS, *args], stdout=subprocess.PIPE, text=True
        )
        probes = Probes(srv.port)
        out, _ = hangers.communicate(timeout=seconds + 60)
        during = tree_cpu(srv.proc.pid) - cpu
        recovered = srv.settle()
        probed = probes.stop()
        result = {
            "lane": lane,
            "after": after,
            "connections": connections,
            "seconds": seconds,
            "hang_ups": int(out.strip() or 0),
            "processes_started": srv.workers_started() - started,
            "cpu_during_s": round(during, 2),
            "cpu_in_all_s": round(tree_cpu(srv.proc.pid) - cpu, 2),
            "recovered_s": round(recovered, 1),
            **probed,
            "statuses": sorted(set(probes.statuses)),
            "uptime": uptime(),
        }
        result["500s"] = sum(1 for x in srv.lines() if x.get("status") == 500)
    return result


# --------------------------------------------------------------------------- refusals


def turn_of_errors() -> bytes:
    """Issue 46's item 2: 63,416 bytes of /dos/turn, 100 combatants each declaring ``0`` 310
    times: 31,500 errors."""
    combatants = [{"declare": [0] * 310} for _ in range(100)]
    return json.dumps({"combatants": combatants}, separators=(",", ":")).encode()


#: ``clients`` connections sending ``body`` to ``path`` in a loop for ``seconds`` (each reads its
#: answer), in a process of their own; prints the statuses seen and the largest answer.
SENDERS = """import collections, http.client, json, sys, threading, time
port, path, body, clients, seconds = int(sys.argv[1]), sys.argv[2], bytes.fromhex(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
source = sys.argv[6] if len(sys.argv) > 6 else ""
stop = time.monotonic() + seconds
seen, largest = collections.Counter(), [0]
def client():
    while time.monotonic() < stop:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0) if source else None)
            conn.request("POST", path, body, {"Content-Type": "application/json"})
            r = conn.getresponse(); data = r.read(); conn.close()
            seen[r.status] += 1; largest[0] = max(largest[0], len(data))
        except OSError as e:
            seen[type(e).__name__] += 1
threads = [threading.Thread(target=client) for _ in range(clients)]
[t.start() for t in threads]
[t.join() for t in threads]
print(json.dumps({"statuses": dict(seen), "largest": largest[0]}))
"""


def senders(
    port: int, path: str, body: bytes, clients: int, seconds: float, *, source: str = ""
) -> subprocess.Popen[str]:
    args = [str(port), path, body.hex(), str(clients), str(seconds), source]
    return subprocess.Popen(
        [sys.executable, "-c", SENDERS, *args], stdout=subprocess.PIPE, text=True
    )


def refusals(clients: int, seconds: float) -> dict[str, Any]:
    """Issue 46's item 2: ``clients`` clients of the 63,416-byte body of 31,500 errors."""
    with served() as srv:
        srv.settle()
        cpu = tree_cpu(srv.proc.pid)
        load = senders(srv.port, "/dos/turn", turn_of_errors(), clients, seconds)
        time.sleep(0.5)
        probes = Probes(srv.port)
        out, _ = load.communicate(timeout=seconds + 120)
        probed = probes.stop()
        return {
            "clients": clients,
            **json.loads(out),
            "cpu_s": round(tree_cpu(srv.proc.pid) - cpu, 2),
            **probed,
            "uptime": uptime(),
        }


# --------------------------------------------------------------------------- slow readers

#: Issue 33's reproducer 5: 165 bytes in, about 1.9 MB out (the largest accepted /dice/roll).
LARGEST_ROLL = {"notation": "+".join(["100d1000!>1"] * 9), "foundry": True, "lang": "ar"}

#: ``count`` connections, each from its own loopback address (each its own client), each sending
#: ``data`` and never reading (a small receive buffer), ``rate`` a second; held ``hold`` seconds
#: after the last, then closed. Prints how many were opened.
READERS_NONE = """import socket, sys, time
port, data, count, rate, hold = int(sys.argv[1]), bytes.fromhex(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
held = []
for i in range(count):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.bind((f"127.0.{2 + i // 250}.{2 + i % 250}", 0))
    s.connect(("127.0.0.1", port))
    s.sendall(data)
    held.append(s)
    time.sleep(1 / rate)
time.sleep(hold)
print(len(held), flush=True)
for s in held:
    s.close()
"""


def memory(count: int, rate: float, hold: float, **env: str) -> dict[str, Any]:
    """Issue 46's item 3: ``count`` connections of the largest /dice/roll that never read; the
    process tree's PSS and RSS sampled throughout (MiB), at rest, at the worst, after."""
    with served(**env) as srv:
        srv.settle()
        rest = tree_memory(srv.proc.pid)
        data = raw_post("/dice/roll", json.dumps(LARGEST_ROLL).encode(), srv.port)
        args = [str(srv.port), data.hex(), str(count), str(rate), str(hold)]
        readers = subprocess.Popen(
            [sys.executable, "-c", READERS_NONE, *args], stdout=subprocess.PIPE, text=True
        )
        worst = (0.0, 0.0)
        while readers.poll() is None:
            now = tree_memory(srv.proc.pid)
            worst = max(worst, now)
            time.sleep(0.25)
        srv.settle()
        after = tree_memory(srv.proc.pid)
        lines = srv.lines()
    statuses: dict[int, int] = {}
    for line in lines:
        if line.get("event") == "request":
            statuses[line["status"]] = statuses.get(line["status"], 0) + 1
    return {
        "connections": count,
        "pss_rss_rest": [round(x) for x in rest],
        "pss_rss_worst": [round(x) for x in worst],
        "pss_rss_after": [round(x) for x in after],
        "statuses": statuses,
        "uptime": uptime(),
    }


# --------------------------------------------------------------------------- fairness

#: The heavy requests one client keeps in flight: accepted odds of about 0.3-0.5 s of CPU.
HEAVY = ("/dice/odds", {"notation": "1d134!>1"})
#: Another client's trivial odds.
TRIVIAL = ("/dice/odds", {"notation": "4d6kh3"})


def fairness(heavy: int = 24, tries: int = 5, seconds: float = 12, **env: str) -> dict[str, Any]:
    """Issue 46's item 4: one client (127.0.0.2) keeps ``heavy`` heavy requests in flight, another
    (127.0.0.3) asks trivial odds ``tries`` times, a second apart: how long each took."""
    import http.client

    with served(**env) as srv:
        srv.settle()
        hog = senders(
            srv.port, HEAVY[0], json.dumps(HEAVY[1]).encode(), heavy, seconds, source="127.0.0.2"
        )
        time.sleep(2)
        waits: list[tuple[int, float]] = []
        for _ in range(tries):
            start = time.monotonic()
            conn = http.client.HTTPConnection(
                HOST, srv.port, timeout=30, source_address=("127.0.0.3", 0)
            )
            try:
                conn.request(
                    "POST", TRIVIAL[0], json.dumps(TRIVIAL[1]), {"Content-Type": "application/json"}
                )
                r = conn.getresponse()
                r.read()
                waits.append((r.status, round(time.monotonic() - start, 3)))
            except OSError:
                waits.append((0, round(time.monotonic() - start, 3)))
            finally:
                conn.close()
            time.sleep(1)
        out, _ = hog.communicate(timeout=seconds + 120)
        lines = srv.lines()
    return {
        "trivial": waits,
        "heavy": json.loads(out),
        "500s": sum(1 for x in lines if x.get("status") == 500),
        "uptime": uptime(),
    }


# --------------------------------------------------------------------------- other lanes (bench only)


def serve_with(lane: str) -> None:
    """Serve the app as ``python -m service`` does, its heavy lane replaced by a maintained pool."""
    import uvicorn

    from bench.pools import PoolLane
    from service.app import create_app
    from service.logs import uvicorn_log_config
    from service.server import server_options
    from service.settings import load

    settings = load()
    app = create_app(settings)
    app.state.lane = PoolLane(app, lane, settings.heavy_workers, settings.job_cpu_seconds)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        **server_options(settings.graceful_timeout, uvicorn_log_config(settings)),
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench.failure")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve")
    serve.add_argument("--lane", default="service")
    hang = sub.add_parser("hangup")
    hang.add_argument("--lane", default="service")
    hang.add_argument("--connections", type=int, default=2)
    hang.add_argument("--seconds", type=float, default=8)
    hang.add_argument("--after", type=float, default=0.02, help="seconds before hanging up")
    ref = sub.add_parser("refusals")
    ref.add_argument("--clients", type=int, default=8)
    ref.add_argument("--seconds", type=float, default=8)
    mem = sub.add_parser("memory")
    mem.add_argument("--connections", type=int, default=200)
    mem.add_argument("--rate", type=float, default=10)
    mem.add_argument("--hold", type=float, default=5)
    mem.add_argument("--timeout", default="60", help="DRAGONROLL_REQUEST_TIMEOUT")
    mem.add_argument("--cap", default="", help="DRAGONROLL_UNREAD_ANSWER_BYTES")
    mem.add_argument("--queue", default="256", help="DRAGONROLL_HEAVY_QUEUE (none shed)")
    fair = sub.add_parser("fairness")
    fair.add_argument("--heavy", type=int, default=24)
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve_with(args.lane)
    elif args.command == "hangup":
        print(json.dumps(hangup(args.lane, args.connections, args.seconds, args.after)), flush=True)
    elif args.command == "refusals":
        print(json.dumps(refusals(args.clients, args.seconds)), flush=True)
    elif args.command == "memory":
        env = {"DRAGONROLL_REQUEST_TIMEOUT": args.timeout, "DRAGONROLL_HEAVY_QUEUE": args.queue}
        if args.cap:
            env["DRAGONROLL_UNREAD_ANSWER_BYTES"] = args.cap
        print(json.dumps(memory(args.connections, args.rate, args.hold, **env)), flush=True)
    elif args.command == "fairness":
        print(json.dumps(fairness(args.heavy)), flush=True)


if __name__ == "__main__":
    main()
