"""The heavy lane (``service.lanes``) on its own: every job within its CPU limit whatever it does (a
Python loop, a C call that never returns to the interpreter, with or without the parent's watchdog),
a bounded queue shed at once, a caller's hang-up ending its job, draining. Each lane is started and
closed here; every worker is a child of this process and is gone at the end of its test."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from service import lanes
from service.lanes import Abandoned, CpuLimit, Draining, HeavyLane, Overloaded

LIMIT = 0.5


def handler(job: tuple[str, float]) -> Any:
    """``("burn", s)``: a Python loop for ``s`` s of CPU; ``("c", n)``: one C call that checks no
    signal for a long time; ``("sleep", s)``: ``s`` s of waiting; ``("pid", 0)``: the worker's pid."""
    kind, amount = job
    if kind == "burn":
        end = time.process_time() + amount
        n = 0
        while time.process_time() < end:
            n += sum(i * i for i in range(1000))
        return amount
    if kind == "c":
        return sum(range(int(amount)))  # CPython's int sum: a C loop, no eval-breaker check
    if kind == "raise":
        raise ValueError("a bug")
    if kind == "sleep":
        time.sleep(amount)  # waits: no CPU to count
        return amount
    return os.getpid()


def run(test: Callable[[HeavyLane], Awaitable[None]], **kw: Any) -> None:
    options = {"workers": 1, "queue": 2, "cpu_seconds": LIMIT, **kw}

    async def main() -> None:
        lane = HeavyLane(handler, **options)
        lane.start()
        try:
            await asyncio.wait_for(test(lane), 30)
        finally:
            pids = lane.pids()
            lane.close()
            for pid in pids:  # every worker ended with its lane (reaped: a loaded machine is slow)
                await _reaped(pid)

    asyncio.run(main())


def _children_cpu() -> float:
    times = os.times()
    return times.children_user + times.children_system


async def _reaped(pid: int) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"worker {pid} was not reaped")


def test_a_job_within_its_limit_is_answered_by_a_worker_process() -> None:
    async def go(lane: HeavyLane) -> None:
        pid = await lane.run(("pid", 0))
        assert pid != os.getpid() and pid in lane.pids()
        assert await lane.run(("burn", LIMIT / 5)) == LIMIT / 5

    run(go)


@pytest.mark.parametrize("kind", ["burn", "c"])
def test_a_job_over_its_limit_is_ended_and_its_worker_replaced(kind: str) -> None:
    """A Python loop is ended by the worker's own timer; a C call by the parent's watchdog."""

    async def go(lane: HeavyLane) -> None:
        before = await lane.run(("pid", 0))
        start, children = time.monotonic(), _children_cpu()
        with pytest.raises(CpuLimit):
            await lane.run((kind, 100.0 if kind == "burn" else 10**12))
        took = time.monotonic() - start
        after = await lane.run(("pid", 0))
        assert after != before, "a worker that passed its limit is replaced"
        assert lane.over_limit == 1
        await _reaped(before)
        # the ended worker's CPU, counted by the kernel once it is reaped (wall time on a loaded
        # machine says little: a worker runs nicer than everything else)
        spent = _children_cpu() - children
        print(f"{kind}: ended after {spent:.2f} s of CPU, {took:.2f} s (limit {LIMIT} s)")
        assert spent < LIMIT + lanes.SLACK + 0.5, spent

    run(go)


def test_the_kernel_ends_a_worker_the_watchdog_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the parent's watchdog, RLIMIT_CPU (set before each job) ends a C call past it."""
    monkeypatch.setattr(lanes, "SLACK", 600.0)
    monkeypatch.setattr(lanes, "WALL_FLOOR", 600.0)  # nor the wall clock (a nice worker is slow)

    async def go(lane: HeavyLane) -> None:
        with pytest.raises(CpuLimit):
            await lane.run(("c", 10**13))
        assert isinstance(await lane.run(("pid", 0)), int)

    run(go)


def test_a_job_that_waits_is_ended_by_the_wall_clock_as_overloaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A job that spends no CPU (a wait the CPU limit cannot see) is ended at the lane's wall-clock
    backstop: a 503's :class:`Overloaded` with its Retry-After, the worker replaced."""
    monkeypatch.setattr(lanes, "WALL_FLOOR", 1.0)
    monkeypatch.setattr(lanes, "WALL_FACTOR", 1)

    async def go(lane: HeavyLane) -> None:
        assert lane.wall_seconds == 1.0
        before = await lane.run(("pid", 0))
        start = time.monotonic()
        with pytest.raises(Overloaded) as ended:
            await lane.run(("sleep", 60.0))
        took = time.monotonic() - start
        assert ended.value.retry_after >= 1
        assert 1.0 <= took < 10, took
        assert await lane.run(("pid", 0)) != before, "its worker was replaced"
        assert (lane.over_time, lane.over_limit, lane.answered) == (1, 0, 2)

    run(go)


def test_a_full_queue_is_refused_at_once_with_a_retry_after() -> None:
    async def go(lane: HeavyLane) -> None:
        running = [asyncio.ensure_future(lane.run(("burn", 0.3))) for _ in range(3)]
        await asyncio.sleep(0.05)
        start = time.monotonic()
        with pytest.raises(Overloaded) as refused:
            await lane.run(("burn", 0.3))
        assert time.monotonic() - start < 0.05
        assert refused.value.retry_after >= 1 and not refused.value.share
        assert await asyncio.gather(*running) == [0.3] * 3

    run(go)


def test_a_caller_who_hangs_up_costs_at_most_its_job() -> None:
    """Queued: dropped, never run; running: it finishes in its worker, its answer dropped, within
    its CPU limit (a job past it is ended there as any other): no worker is ended or started for a
    hang-up, so hanging up again and again costs the jobs asked for and never a fork."""

    async def go(lane: HeavyLane) -> None:
        first = await lane.run(("pid", 0))
        started = lane.started
        hang_up = asyncio.Event()
        running = asyncio.ensure_future(lane.run(("burn", 0.2), hang_up.wait))
        queued = asyncio.ensure_future(lane.run(("burn", 100.0), hang_up.wait))
        await asyncio.sleep(0.05)
        assert lane.busy() == 1 and len(lane.waiting) == 1
        hang_up.set()
        for job in (running, queued):
            with pytest.raises(Abandoned):
                await job
        assert not lane.waiting and lane.abandoned == 2
        assert lane.busy() == 1, "the running job goes on"
        assert await lane.run(("pid", 0)) == first, "in the same worker, after the dropped job"
        assert lane.dropped == 1 and lane.started == started and lane.answered == 2
        # an abandoned job past its limit is ended at the limit, as it would have been
        over = asyncio.ensure_future(lane.run(("burn", 100.0), hang_up.wait))
        with pytest.raises(Abandoned):
            await over
        deadline = time.monotonic() + 20
        while lane.over_limit == 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert lane.over_limit == 1 and lane.started == started + 1

    run(go)


def test_one_client_fills_its_own_share_not_the_lane() -> None:
    """Two workers: one client runs one job at once and queues one (its share of a queue of 4);
    past that it is refused at once, while another client's job takes the free worker; a freed
    worker takes the oldest job whose client is under its share."""

    async def go(lane: HeavyLane) -> None:
        assert (lane.per_client, lane.client_queue) == (1, 1)
        mine = [asyncio.ensure_future(lane.run(("burn", 0.3), client="a")) for _ in range(2)]
        await asyncio.sleep(0.05)
        assert lane.busy() == 1 and len(lane.waiting) == 1
        with pytest.raises(Overloaded) as refused:
            await lane.run(("burn", 0.3), client="a")
        assert refused.value.share, "its own share is full, not the lane's queue"
        start = time.monotonic()
        assert await lane.run(("burn", 0.01), client="b") == 0.01
        assert time.monotonic() - start < 0.25, "b had the free worker at once"
        assert await asyncio.gather(*mine) == [0.3, 0.3]
        assert not lane.running and not lane.queued, "the counters forget clients without jobs"

    run(go, workers=2, queue=4)


def test_draining_refuses_the_queue_and_ends_the_running_at_the_deadline() -> None:
    async def go(lane: HeavyLane) -> None:
        running = asyncio.ensure_future(lane.run(("burn", 5.0)))
        queued = asyncio.ensure_future(lane.run(("burn", 5.0)))
        await asyncio.sleep(0.1)
        lane.drain(0.3)
        with pytest.raises(Draining) as later:
            await queued
        assert not later.value.started
        with pytest.raises(Draining) as ended:
            await running
        assert ended.value.started
        with pytest.raises(Draining):
            await lane.run(("pid", 0))

    run(go, cpu_seconds=10.0)


def test_a_job_that_raises_is_a_worker_failure_with_its_traceback() -> None:
    async def go(lane: HeavyLane) -> None:
        with pytest.raises(lanes.WorkerFailed, match="ValueError: a bug"):
            await lane.run(("raise", 0))
        assert isinstance(await lane.run(("pid", 0)), int)

    run(go)


def test_the_pipeline_answers_small_requests_on_the_loop_and_large_ones_in_the_lane() -> None:
    """Light: a few dice, answered where the request arrived (no worker is ever started); heavy:
    odds, and a roll over the light lane's dice, answered by a worker process, byte for byte what
    the in-process path gives."""
    import json

    from fastapi.testclient import TestClient

    from service.app import create_app
    from service.endpoints import endpoints
    from service.pipeline import LIGHT_DICE

    app = create_app()
    client = TestClient(app)
    lane: HeavyLane = app.state.lane
    small = {"notation": "3d6", "seed": "lanes"}
    r = client.post("/dice/roll", json=small)
    assert r.status_code == 200 and lane.started == 0
    large = {"notation": f"{LIGHT_DICE + 1}d6", "seed": "lanes", "lang": "pl"}
    r = client.post("/dice/roll", json=large)
    assert r.status_code == 200 and lane.started == lane.size
    direct, lang = endpoints(app)["/dice/roll"].resolve(json.dumps(large).encode())
    assert r.content == direct and lang == "pl" == r.headers["content-language"]
    r = client.post("/dice/odds", json={"notation": "2d6", "seed": "x"})  # refused before the lane
    assert r.status_code == 422 and r.json()["errors"][0]["loc"] == ["body", "seed"]
    lane.close()
