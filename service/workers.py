"""A bounded pool of worker threads for the CPU-heavy answers (odds, simulations), off the event loop.

An odds or simulation answer may take up to about a second of CPU (its work budget). Run on the event
loop, it would hold every other request of the worker, ``/livez`` and ``/readyz`` included, for as
long. Run here, the loop keeps serving: the interpreter hands the GIL to the loop's thread every
switch interval (5 ms), so a probe waits a few milliseconds, not the whole answer
(``tests/service/test_server_limits.py`` measures it on a real uvicorn).

The threads are daemon threads, started on first use, at most ``threads`` of them; a request over
that waits in the queue. They are daemons so that a SIGTERM is honoured within the graceful timeout:
uvicorn stops waiting for a request at the timeout, and the process then exits without joining a
thread still computing an answer nobody will read (``concurrent.futures`` and anyio threads would be
joined at exit).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_Job = tuple[Callable[..., Any], tuple[Any, ...], asyncio.AbstractEventLoop, "asyncio.Future[Any]"]


class WorkerPool:
    def __init__(self, threads: int) -> None:
        self.size = threads
        self.jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self.threads: list[threading.Thread] = []
        self.lock = threading.Lock()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker thread; its exception raised here."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._start()
        self.jobs.put((fn, args, loop, future))
        return await future

    def _start(self) -> None:
        if len(self.threads) >= self.size:
            return
        with self.lock:
            while len(self.threads) < self.size:
                thread = threading.Thread(
                    target=self._work, name=f"dragonroll-worker-{len(self.threads)}", daemon=True
                )
                thread.start()
                self.threads.append(thread)

    def _work(self) -> None:
        while True:
            fn, args, loop, future = self.jobs.get()
            if future.cancelled():  # the request was given up (shutdown) before it started
                continue
            try:
                result, error = fn(*args), None
            except BaseException as exc:  # handed to the request's task, raised there
                result, error = None, exc
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                loop.call_soon_threadsafe(_settle, future, result, error)
            del result, error


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
