"""Replicas behind a load balancer, the tested path (issue 46 item 8): Debian's nginx in front of three
``python -m service`` replicas, retrying as ``deploy/``'s Ingress tells ingress-nginx to
(``proxy-next-upstream`` with ``non_idempotent``, its tries). Under a few seconds of load one replica
is killed with SIGKILL and another stopped with SIGTERM and started again: every request is
answered 200, a seeded one with the same bytes whichever replica answered it, an unseeded one with
a seed of its own.

Loopback only, the proxy on its own ports, its config in a temporary directory; every process it
starts (nginx, each replica and its heavy-lane workers, in sessions of their own) is ended when the
test ends, passed or not. CI installs nginx (``.ci/run``); elsewhere the test skips without it.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import pwd
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import wait_ready
from tests.service.test_server_limits import HOST

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
INGRESS = ROOT / "deploy" / "overlays" / "production" / "ingress.yaml"
DEPLOYMENT = ROOT / "deploy" / "base" / "deployment.yaml"
PREFIX = "nginx.ingress.kubernetes.io/"
#: ingress-nginx's defaults where the Ingress sets nothing (its ConfigMap's documented defaults).
UPSTREAM_KEEPALIVE_SECONDS = 60
CLIENTS = 8
#: The clients that also send odds (the heavy lane), one in four of their requests: at most this
#: many heavy jobs at once, within what one client (the proxy's address) may hold in one replica's
#: lane, so that a lone replica sheds none.
HEAVY_CLIENTS = 4
#: Seconds of load before the SIGKILL, between it and the SIGTERM, and after the restarted replica
#: is ready again (the load also runs while it stops and starts).
PHASES = (1.5, 1.0, 1.5)
SEEDS = [f"failover-{i}" for i in range(6)]
TEST = {"stat": 44, "skill": 5, "dc": 47}
ODDS = {"stat": 30, "skill": 3, "dc": 40}


def nginx() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("nginx is missing: .ci/run installs it (apt-get install nginx)")
        pytest.skip("nginx is missing (apt-get install nginx)")
    return found


def ingress_retry() -> dict[str, str]:
    """The retry ``deploy/``'s Ingress asks ingress-nginx for, as nginx directives."""
    docs = yaml.safe_load_all(INGRESS.read_text(encoding="utf-8"))
    [public] = [doc for doc in docs if doc["metadata"]["name"] == "dragonroll"]
    annotations = public["metadata"]["annotations"]
    return {
        "proxy_next_upstream": annotations[PREFIX + "proxy-next-upstream"],
        "proxy_next_upstream_tries": annotations[PREFIX + "proxy-next-upstream-tries"],
        "proxy_connect_timeout": annotations.get(PREFIX + "proxy-connect-timeout", "5") + "s",
        "proxy_read_timeout": annotations.get(PREFIX + "proxy-read-timeout", "60") + "s",
    }


def pod_env() -> dict[str, str]:
    """The environment the Deployment gives the container (its plain values)."""
    spec = yaml.safe_load(DEPLOYMENT.read_text(encoding="utf-8"))["spec"]["template"]["spec"]
    [container] = spec["containers"]
    return {e["name"]: str(e["value"]) for e in container["env"] if "value" in e}


def nginx_config(tmp: Path, port: int, replicas: list[int]) -> str:
    # nginx run by root starts its worker as nobody, who cannot read a private temporary directory
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};" if os.geteuid() == 0 else ""
    retry = "\n".join(f"            {k} {v};" for k, v in ingress_retry().items())
    servers = "\n".join(f"        server {HOST}:{p} max_fails=1 fail_timeout=1s;" for p in replicas)
    temp = "\n".join(
        f"    {kind}_temp_path {tmp / kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    return f"""
daemon off;
worker_processes 1;
pid {tmp / "nginx.pid"};
error_log {tmp / "error.log"} notice;
{user}
events {{ worker_connections 512; }}
http {{
    log_format failover '$request_method $status "$upstream_addr" "$upstream_status"';
    access_log {tmp / "access.log"} failover;
{temp}
    uwsgi_temp_path {tmp / "uwsgi"};
    scgi_temp_path {tmp / "scgi"};
    upstream dragonroll {{
{servers}
        keepalive 32;
        keepalive_timeout {UPSTREAM_KEEPALIVE_SECONDS}s;
    }}
    server {{
        listen {HOST}:{port};
        location / {{
            proxy_pass http://dragonroll;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            add_header X-Upstream $upstream_addr always;
{retry}
        }}
    }}
}}
"""


@dataclass
class Fleet:
    """nginx and the replicas, each in a session of its own, all ended by :meth:`close`."""

    tmp: Path
    ports: list[int]
    proxy_port: int
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start(self, *indexes: int) -> list[subprocess.Popen[bytes]]:
        """The replicas of ``indexes`` started at once, returned once each is ready."""
        procs = [self.spawn(i) for i in indexes]
        for i, proc in zip(indexes, procs, strict=True):
            wait_ready(proc, f"http://{HOST}:{self.ports[i]}/readyz")
        return procs

    def spawn(self, index: int) -> subprocess.Popen[bytes]:
        port = self.ports[index]
        log = (self.tmp / f"replica-{index}-{len(self.procs)}.log").open("wb")
        env = {**os.environ, **pod_env(), "DRAGONROLL_HOST": HOST, "DRAGONROLL_PORT": str(port)}
        proc = subprocess.Popen(
            [sys.executable, "-m", "service"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        self.procs.append(proc)
        return proc

    def proxy(self) -> subprocess.Popen[bytes]:
        port = self.proxy_port
        conf = self.tmp / "nginx.conf"
        conf.write_text(nginx_config(self.tmp, port, self.ports), encoding="utf-8")
        proc = subprocess.Popen(
            [nginx(), "-e", str(self.tmp / "error.log"), "-p", str(self.tmp), "-c", str(conf)],
            start_new_session=True,
        )
        self.procs.append(proc)
        wait_ready(proc, f"http://{HOST}:{port}/readyz")
        return proc

    def close(self) -> None:
        for proc in self.procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)

    def cpu_seconds(self) -> float:
        """CPU so far of every process started and of its children (nginx's worker, a replica's
        heavy-lane workers; reaped ones included), from /proc, and of this process's clients."""
        pids = [proc.pid for proc in self.procs]
        for pid in list(pids):
            with contextlib.suppress(OSError):
                pids += map(int, Path(f"/proc/{pid}/task/{pid}/children").read_text().split())
        ticks = 0
        for pid in pids:
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
                ticks += sum(int(x) for x in stat[11:15])
        own = resource.getrusage(resource.RUSAGE_SELF)
        return ticks / os.sysconf("SC_CLK_TCK") + own.ru_utime + own.ru_stime


@dataclass
class Tally:
    """What the clients saw: statuses (or the error that stood for one), the bytes per seed, the
    seeds of the unseeded answers, the replicas that answered."""

    statuses: Counter[str] = field(default_factory=Counter)
    seeded: dict[str, set[bytes]] = field(default_factory=dict)
    fresh: list[str] = field(default_factory=list)
    upstreams: Counter[str] = field(default_factory=Counter)
    #: answers the proxy had begun when their replica was killed (the client sent them again)
    cut_by_the_kill: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, status: int, body: bytes, upstream: str, seed: str | None) -> None:
        with self.lock:
            self.statuses[str(status)] += 1
            self.upstreams[upstream] += 1
            if status != 200:
                return
            if seed is not None:
                self.seeded.setdefault(seed, set()).add(body)
            elif b'"outcomes"' not in body:
                self.fresh.append(json.loads(body)["seed"])


def requests(n: int, heavy: bool) -> tuple[str, dict[str, Any], str | None]:
    """The ``n``-th request of a client: seeded tests, unseeded tests, and odds (the heavy lane)
    if it is one of the ``heavy`` ones."""
    kind = n % 4
    if kind == 3 and heavy:
        return "/dos/odds/test", ODDS, None
    if kind == 2:
        return "/dos/test", TEST, None
    seed = SEEDS[n % len(SEEDS)]
    return "/dos/test", {**TEST, "seed": seed}, seed


def client(port: int, stop: threading.Event, tally: Tally, offset: int) -> None:
    """POSTs over one keep-alive connection to the proxy until ``stop``; a connection that fails
    is counted and replaced."""
    n = offset
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    while not stop.is_set():
        path, body, seed = requests(n, offset < HEAVY_CLIENTS)
        n += 1
        for attempt in range(2):
            try:
                conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
                r = conn.getresponse()
                tally.record(r.status, r.read(), r.getheader("x-upstream", "-"), seed)
                break
            except http.client.IncompleteRead:
                # A replica killed after its answer had begun: the proxy had sent it on and cannot
                # retry it; the client sends the request again (deterministic: the same bytes).
                with tally.lock:
                    tally.cut_by_the_kill += 1
                conn.close()
                conn = http.client.HTTPConnection(HOST, port, timeout=30)
                if attempt:
                    with tally.lock:
                        tally.statuses["IncompleteRead"] += 1
            except (OSError, http.client.HTTPException) as exc:
                with tally.lock:
                    tally.statuses[type(exc).__name__] += 1
                conn.close()
                conn = http.client.HTTPConnection(HOST, port, timeout=30)
                break
    conn.close()


def free_ports(n: int) -> list[int]:
    """``n`` distinct free loopback ports (bound at once: one after another, the kernel may hand
    out the same port again)."""
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(socket.socket()) for _ in range(n)]
        for s in socks:
            s.bind((HOST, 0))
        return [s.getsockname()[1] for s in socks]


@contextlib.contextmanager
def fleet(tmp: Path) -> Iterator[Fleet]:
    *ports, proxy = free_ports(4)
    running = Fleet(tmp, ports, proxy)
    try:
        yield running
    finally:
        running.close()


def retried(access_log: str) -> list[str]:
    """The proxy's log lines of requests it sent to more than one replica and had answered 200."""
    return [line for line in access_log.splitlines() if re.search(r' 200 "[^"]*, [^"]*"', line)]


def cut(error_log: str) -> list[str]:
    """The proxy's log lines of requests whose replica went away after it had sent the request:
    POSTs that only ``non_idempotent`` lets it send again."""
    return [
        line
        for line in error_log.splitlines()
        if "while reading response header" in line
        and ("prematurely closed" in line or "reset by peer" in line)
    ]


def test_no_request_is_lost_when_a_replica_is_killed_or_restarted(tmp_path: Path) -> None:
    nginx()
    with fleet(tmp_path) as running:
        replicas = running.start(0, 1, 2)
        running.proxy()
        proxy_port = running.proxy_port
        cpu_before = running.cpu_seconds()
        stop, tally = threading.Event(), Tally()
        clients = [
            threading.Thread(target=client, args=(proxy_port, stop, tally, i))
            for i in range(CLIENTS)
        ]
        for t in clients:
            t.start()
        try:
            time.sleep(PHASES[0])
            replicas[0].kill()  # SIGKILL: its in-flight requests and connections are cut
            time.sleep(PHASES[1])
            replicas[1].send_signal(signal.SIGTERM)  # drained: in flight finish, queued get 503
            replicas[1].wait(timeout=60)
            [restarted] = running.start(1)
            time.sleep(PHASES[2])
        finally:
            stop.set()
            for t in clients:
                t.join(timeout=60)
        cpu = running.cpu_seconds() - cpu_before
        access = (tmp_path / "access.log").read_text(encoding="utf-8")
        errors = (tmp_path / "error.log").read_text(encoding="utf-8")
        alive = restarted.poll() is None and replicas[2].poll() is None
    again = tally.upstreams[f"{HOST}:{running.ports[1]}"]
    print(
        f"failover: {sum(tally.statuses.values())} requests {dict(tally.statuses)}, "
        f"{len(retried(access))} retried by the proxy ({len(cut(errors))} cut in flight), "
        f"{tally.cut_by_the_kill} begun and cut by the kill (sent again by the client), "
        f"answered by {dict(tally.upstreams)}; "
        f"{cpu:.1f} s of CPU in the proxy, the replicas and the clients from the first request on"
    )
    assert set(tally.statuses) == {"200"}, tally.statuses  # none lost, none refused
    # an answer already on its way when its replica died is the one thing a proxy cannot retry:
    # at most one per client connection, and the client's own retry answered it
    assert tally.cut_by_the_kill <= CLIENTS, tally.cut_by_the_kill
    assert sum(tally.statuses.values()) >= 100 and alive
    assert retried(access), "the kill and the restart were never met: nothing was retried"
    assert cut(errors), "no request was in flight on the killed replica"
    assert again > 0  # the restarted replica is back in the rotation
    # a seeded request answers the same bytes whichever replica answered it, a retried one too
    assert all(len(bodies) == 1 for bodies in tally.seeded.values()), tally.seeded.keys()
    assert set(tally.seeded) == set(SEEDS)
    # one without a seed got a fresh seed of its own, retried or not
    assert len(set(tally.fresh)) == len(tally.fresh) > 0
