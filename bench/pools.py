"""Maintained process pools in the heavy lane's place, for the comparison of docs/hardening.md only
(``python -m bench.failure hangup --lane pebble``): ``pebble``'s ``ProcessPool`` (a running task
whose future is cancelled has its worker ended and replaced, by the pool's own threads) and
``loky``'s executor (a running task cannot be cancelled: it finishes). Neither is a dependency of
the service: ``pip install pebble loky`` to run it.

A job runs as in the service's workers: ``service.pipeline.run_job`` under an ``ITIMER_PROF`` CPU
limit. Each worker started writes its pid to ``DRAGONROLL_FAILURE_STARTS`` (the count of processes
started)."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import multiprocessing
import os
import signal
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from service import pipeline
from service.endpoints import endpoints
from service.lanes import Abandoned, CpuLimit

#: The app the workers answer for (a forked worker inherits it; a fresh one builds it).
SERVED: dict[str, Any] = {"app": None}
CPU_SECONDS = 1.5


class _OverTime(BaseException):
    pass


def _over_time(signum: int, frame: Any) -> None:
    raise _OverTime


def started() -> None:
    """A worker's initializer: note its pid, build the app when it has none (a fresh
    interpreter), ignore the server's SIGINT."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (SIGTERM: the pool's own, it ends workers so)
    signal.signal(signal.SIGPROF, _over_time)
    with contextlib.suppress(OSError):
        os.nice(10)
    path = os.environ.get("DRAGONROLL_FAILURE_STARTS")
    if path:
        with open(path, "a") as f:
            f.write(f"{os.getpid()}\n")
    if SERVED["app"] is None:
        from service.app import create_app

        app = SERVED["app"] = create_app()
        for endpoint in endpoints(app).values():
            endpoint.warm()


def handle(job: Any, cpu_seconds: float) -> Any:
    signal.setitimer(signal.ITIMER_PROF, cpu_seconds)
    try:
        return pipeline.run_job(partial(endpoints, SERVED["app"]), job)
    except _OverTime:
        return ("cpu", None)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


class PoolLane:
    """What ``service.pipeline.answer`` and the app's lifespan use of a lane, over a pool."""

    def __init__(self, app: Any, kind: str, workers: int, cpu_seconds: float) -> None:
        self.app, self.kind, self.size, self.cpu_seconds = app, kind, workers, cpu_seconds
        self.pool: Any = None
        self.workers: list[int] = []
        self.waiting: list[Any] = []
        self.draining = False
        self.answered = self.shed = self.over_limit = self.over_time = self.abandoned = 0
        self.started = 0

    def start(self, warm: bool = False) -> None:
        if self.pool is not None:
            return
        SERVED["app"] = self.app
        if self.kind == "pebble":
            pebble = importlib.import_module("pebble")
            self.pool = pebble.ProcessPool(
                max_workers=self.size,
                max_tasks=250,
                initializer=started,
                context=multiprocessing.get_context("fork"),
            )
        else:
            loky = importlib.import_module("loky")
            self.pool = loky.ProcessPoolExecutor(max_workers=self.size, initializer=started)

    def submit(self, payload: Any) -> Any:
        if self.kind == "pebble":
            return self.pool.schedule(handle, args=(payload, self.cpu_seconds))
        return self.pool.submit(handle, payload, self.cpu_seconds)

    async def run(
        self,
        payload: Any,
        gone: Callable[[], Awaitable[Any]] | None = None,
        client: str | None = None,
    ) -> Any:
        """As ``HeavyLane.run``, without a share per client (neither pool has one)."""
        self.start()
        future = self.submit(payload)
        waited = asyncio.wrap_future(future)
        watcher = asyncio.ensure_future(gone()) if gone is not None else None
        try:
            await asyncio.wait(
                [waited] + ([watcher] if watcher else []), return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            if watcher is not None:
                watcher.cancel()
        if not waited.done():
            self.abandoned += 1
            future.cancel()  # pebble: the worker is ended and replaced; loky: it finishes
            waited.cancel()
            raise Abandoned
        kind, value = waited.result()
        if kind == "cpu":
            self.over_limit += 1
            raise CpuLimit(self.cpu_seconds)
        self.answered += 1
        return kind, value

    def drain(self, deadline: float | None = None) -> None:
        self.draining = True

    def close(self) -> None:
        if self.pool is not None:
            if self.kind == "pebble":
                self.pool.stop()
                self.pool.join()
            else:
                self.pool.shutdown(wait=False, kill_workers=True)
            self.pool = None

    def busy(self) -> int:
        return 0

    def retry_after(self) -> int:
        return 1

    def pids(self) -> list[int]:
        return []
