"""The heavy lane: worker processes forked from the app, each job under a hard CPU limit and a
wall-clock backstop, behind a bounded queue shared out per client, drained at SIGTERM.

How each bound holds, and its figures: docs/hardening.md, "Two lanes"; the settings:
docs/operations.md. Everything here runs on the event loop's thread: no lock, no thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import pickle
import resource
import signal
import socket
import struct
import time
import traceback
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

#: Seconds of CPU past the limit after which the parent's watchdog kills a worker (its own timer
#: should have ended the job at the limit).
SLACK = 0.25
#: Seconds a worker may go past the limit before the kernel ends it (``RLIMIT_CPU``, whole seconds).
KERNEL_SLACK = 1.0
#: A job's wall-clock time, as a multiple of its CPU limit (and at least :data:`WALL_FLOOR` s), after
#: which the watchdog ends it as :class:`Overloaded`: the CPU limit cannot end a job that waits
#: instead of computing, and a machine so loaded that a job's second of CPU takes half a minute is
#: better told to come back (a 503 with ``Retry-After``) than kept waiting.
WALL_FACTOR = 20
WALL_FLOOR = 30.0
_TICKS = os.sysconf("SC_CLK_TCK")
#: Jobs a worker answers before a fresh one replaces it: Python's reference counts write to every
#: object a job touches, so a worker's pages shared with the server become its own over time (the
#: pod's memory would tend to the workers' whole size); a fresh fork shares them again.
JOBS_PER_WORKER = 250
#: How much nicer than the server a worker runs: the event loop (probes, light requests, the
#: queue's refusals) gets the CPU first when the heavy lane is busy.
NICE = 10
#: A message between the parent and a worker: its length (8 bytes, big-endian), then its pickle.
_HEADER = struct.Struct("!Q")


class CpuLimit(Exception):
    """A job used more CPU time than its limit (its worker was ended and replaced)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


class Overloaded(Exception):
    """The heavy lane's queue is full, or (``share``) the client's share of it: try again after
    ``retry_after`` seconds."""

    def __init__(self, retry_after: int, share: bool = False) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after
        self.share = share


class Draining(Exception):
    """The service is shutting down: this job is not (or no longer) being answered."""

    def __init__(self, started: bool) -> None:
        super().__init__(started)
        self.started = started


class Abandoned(Exception):
    """The caller went away before the answer: the job was dropped from the queue, or it runs on
    and its answer is dropped."""


class WorkerFailed(Exception):
    """The job raised, or its worker died for a reason other than its CPU limit (a bug: a 500,
    logged with the worker's traceback)."""


class _OverTime(BaseException):
    """Raised in a worker by its CPU timer: a BaseException, so no ``except Exception`` keeps it."""


@dataclass(eq=False)
class _Job:
    payload: Any
    future: asyncio.Future[Any]
    #: who asked (``None``: a caller the lane does not tell apart, without a share)
    client: str | None = None
    worker: _Worker | None = None


@dataclass(eq=False)
class _Worker:
    pid: int
    sock: socket.socket
    pidfd: int
    job: _Job | None = None
    jobs: int = 0
    #: bytes read and not yet a whole message; bytes to send not yet sent
    inbox: bytearray = field(default_factory=bytearray)
    outbox: bytearray = field(default_factory=bytearray)
    cpu_at_start: float = 0.0
    #: the loop's time when the job was sent (the wall-clock backstop counts from it)
    sent_at: float = 0.0
    watchdog: asyncio.TimerHandle | None = None
    alive: bool = True
    #: why the parent ended it (the job's exception), if it did
    ended: BaseException | None = field(default=None)


class HeavyLane:
    """``workers`` processes answering ``handler(payload)``, ``queue`` jobs waiting at most, each
    job within ``cpu_seconds`` of CPU. Started by :meth:`start` (the app's lifespan), or by the
    first job; ended by :meth:`close`."""

    def __init__(
        self,
        handler: Callable[[Any], Any],
        *,
        workers: int,
        queue: int,
        cpu_seconds: float,
        warm: Callable[[], None] | None = None,
        per_client: int | None = None,
        client_queue: int | None = None,
    ) -> None:
        self.handler = handler
        self.warm = warm
        self.warming = False
        self.size = workers
        self.queue_size = queue
        self.cpu_seconds = cpu_seconds
        self.wall_seconds = max(WALL_FLOOR, WALL_FACTOR * cpu_seconds)
        #: one client's share: jobs running at once, jobs waiting
        self.per_client = per_client or max(1, workers // 2)
        self.client_queue = client_queue if client_queue is not None else max(1, queue // 4)
        self.workers: list[_Worker] = []
        self.waiting: deque[_Job] = deque()
        #: jobs running (abandoned ones until they finish) and waiting, per client
        self.running: Counter[str | None] = Counter()
        self.queued: Counter[str | None] = Counter()
        self.draining = False
        self.loop: asyncio.AbstractEventLoop | None = None
        #: counters for the metrics and the docs: jobs answered, shed (queue full), ended over the
        #: CPU limit, ended over the wall-clock backstop, abandoned by their callers; workers started
        self.answered = 0
        self.shed = 0
        self.over_limit = 0
        self.over_time = 0
        self.abandoned = 0
        #: abandoned jobs that finished in their worker, their answers dropped
        self.dropped = 0
        self.started = 0

    # --- the public surface ---------------------------------------------------------------------

    def start(self, warm: bool = False) -> None:
        """Fork the workers that are not running (on the event loop's thread); ``warm``: each
        worker forked from now on runs the lane's ``warm`` before its first job (a served app's
        lifespan asks for it; a test's app started by its first job does not)."""
        self.warming = self.warming or warm
        if self.loop is not asyncio.get_running_loop():
            self._adopt(asyncio.get_running_loop())
        while len(self.workers) < self.size and not self.draining:
            self._spawn()

    async def run(
        self,
        payload: Any,
        gone: Callable[[], Awaitable[Any]] | None = None,
        client: str | None = None,
    ) -> Any:
        """``handler(payload)`` in a worker, for ``client`` (within its share; ``None``: no share
        of its own, the lane's bounds only); raises :class:`CpuLimit`, :class:`Overloaded`,
        :class:`Draining`, :class:`Abandoned` (``gone()`` completed first) or
        :class:`WorkerFailed`."""
        if self.draining:
            raise Draining(started=False)
        if self.loop is not asyncio.get_running_loop():
            self._adopt(asyncio.get_running_loop())
        if not self.workers:
            self.start()
        assert self.loop is not None
        job = _Job(payload, self.loop.create_future(), client)
        idle = self._idle() if self._may_run(client) else None
        if idle is not None:
            self._dispatch(idle, job)
        elif self._may_wait(client):
            self.waiting.append(job)
            self.queued[client] += 1
        else:
            self.shed += 1
            raise Overloaded(self.retry_after(), share=len(self.waiting) < self.queue_size)
        if gone is None:
            return await self._wait(job)
        watcher = asyncio.ensure_future(gone())
        try:
            await asyncio.wait((job.future, watcher), return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            self._cancel(job, Draining(started=job.worker is not None))
            raise
        finally:
            watcher.cancel()
        if not job.future.done():
            self.abandoned += 1
            self._abandon(job)
        return job.future.result()

    def _may_run(self, client: str | None) -> bool:
        return client is None or self.running[client] < self.per_client

    def _may_wait(self, client: str | None) -> bool:
        if len(self.waiting) >= self.queue_size:
            return False
        return client is None or self.queued[client] < self.client_queue

    def drain(self, deadline: float | None = None) -> None:
        """No new job; every queued job raises :class:`Draining`; the running ones are ended with
        :class:`Draining` after ``deadline`` seconds (``None``: they finish)."""
        self.draining = True
        while self.waiting:
            job = self.waiting.popleft()
            if not job.future.done():
                job.future.set_exception(Draining(started=False))
        self.queued.clear()
        if deadline is not None and self.loop is not None:
            self.loop.call_later(max(deadline, 0.0), self._end_running)

    def close(self) -> None:
        """End every worker (the app's shutdown). The lane is then as before its first start: a
        later job, or a later lifespan of the same app (a test's next client), starts it anew
        (a served process exits after its shutdown; the server takes no request by then)."""
        self.drain()
        self._end_running()
        for worker in list(self.workers):
            self._kill(worker, None)
        self.draining = False

    def retry_after(self) -> int:
        """Seconds until the queue has room, at worst: the queue's jobs at the limit each."""
        return max(1, math.ceil((len(self.waiting) + 1) * self.cpu_seconds / max(self.size, 1)))

    def busy(self) -> int:
        return sum(1 for worker in self.workers if worker.job is not None)

    def pids(self) -> list[int]:
        return [worker.pid for worker in self.workers]

    # --- the parent's side ----------------------------------------------------------------------

    def _adopt(self, loop: asyncio.AbstractEventLoop) -> None:
        """Serve from ``loop`` (a server has one loop; a test's client may run each request in a
        loop of its own): the idle workers are watched from it, a busy one (its caller's loop is
        gone) is ended, and the jobs queued in the old loop are forgotten."""
        old, self.loop = self.loop, loop
        self.waiting.clear()
        self.queued.clear()
        self.running.clear()
        for worker in list(self.workers):
            if old is not None and not old.is_closed():
                old.remove_reader(worker.sock.fileno())
                old.remove_writer(worker.sock.fileno())
                old.remove_reader(worker.pidfd)
            if worker.watchdog is not None:
                worker.watchdog.cancel()
                worker.watchdog = None
            if worker.job is None and worker.alive:
                loop.add_reader(worker.sock.fileno(), self._on_readable, worker)
                loop.add_reader(worker.pidfd, self._on_exit, worker)
                continue
            worker.job = None
            self.workers.remove(worker)
            worker.alive = False
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(worker.pidfd, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(worker.pid, 0)
            worker.sock.close()
            os.close(worker.pidfd)

    async def _wait(self, job: _Job) -> Any:
        try:
            return await asyncio.shield(job.future)
        except asyncio.CancelledError:
            self._cancel(job, Draining(started=job.worker is not None))
            raise

    def _idle(self) -> _Worker | None:
        return next((w for w in self.workers if w.alive and w.job is None), None)

    def _spawn(self) -> None:
        parent, child = socket.socketpair()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the worker's side, measured by the tests from outside
            code = 70
            try:
                parent.close()
                _serve(child, self.handler, self.cpu_seconds, self.warm if self.warming else None)
                code = 0
            finally:
                os._exit(code)
        child.close()
        parent.setblocking(False)
        worker = _Worker(pid, parent, os.pidfd_open(pid))
        self.workers.append(worker)
        self.started += 1
        assert self.loop is not None
        self.loop.add_reader(parent.fileno(), self._on_readable, worker)
        self.loop.add_reader(worker.pidfd, self._on_exit, worker)

    def _dispatch(self, worker: _Worker, job: _Job) -> None:
        assert self.loop is not None
        worker.job, job.worker = job, worker
        self.running[job.client] += 1
        worker.cpu_at_start = _cpu_of(worker.pid)
        worker.sent_at = self.loop.time()
        data = pickle.dumps(job.payload, protocol=pickle.HIGHEST_PROTOCOL)
        worker.outbox += _HEADER.pack(len(data))
        worker.outbox += data
        self._on_writable(worker)
        worker.watchdog = self.loop.call_later(self.cpu_seconds + SLACK, self._check, worker)

    def _check(self, worker: _Worker) -> None:
        """The watchdog: kill a worker whose job went past the CPU limit by :data:`SLACK`, or past
        the lane's ``wall_seconds`` of wall-clock time (:class:`Overloaded`)."""
        worker.watchdog = None
        if worker.job is None or not worker.alive:
            return
        assert self.loop is not None
        used = _cpu_of(worker.pid) - worker.cpu_at_start
        if used > self.cpu_seconds + SLACK:
            self.over_limit += 1
            self._kill(worker, CpuLimit(self.cpu_seconds))
            return
        waited = self.loop.time() - worker.sent_at
        if waited >= self.wall_seconds:
            self.over_time += 1
            self._kill(worker, Overloaded(self.retry_after()))
            return
        wait = min(max(self.cpu_seconds + SLACK - used, 0.05), self.wall_seconds - waited)
        worker.watchdog = self.loop.call_later(wait, self._check, worker)

    def _on_writable(self, worker: _Worker) -> None:
        """Send what the socket takes now; the rest when it is writable again (never blocking)."""
        assert self.loop is not None
        try:
            sent = worker.sock.send(worker.outbox)
        except BlockingIOError:
            sent = 0
        except OSError:  # it died: its exit is noted by _on_exit
            worker.outbox.clear()
            self.loop.remove_writer(worker.sock.fileno())
            return
        del worker.outbox[:sent]
        if worker.outbox:
            self.loop.add_writer(worker.sock.fileno(), self._on_writable, worker)
        else:
            self.loop.remove_writer(worker.sock.fileno())

    def _on_readable(self, worker: _Worker) -> None:
        """Read what has arrived; a whole message is the job's answer."""
        try:
            data = worker.sock.recv(1 << 20)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._kill(worker, None)  # its exit decides what the job gets (_on_exit)
            return
        worker.inbox += data
        if len(worker.inbox) < _HEADER.size:
            return
        (size,) = _HEADER.unpack_from(worker.inbox)
        if len(worker.inbox) < _HEADER.size + size:
            return
        kind, value = pickle.loads(memoryview(worker.inbox)[_HEADER.size : _HEADER.size + size])
        del worker.inbox[: _HEADER.size + size]
        self._on_message(worker, kind, value)

    def _on_message(self, worker: _Worker, kind: str, value: Any) -> None:
        job = worker.job
        worker.job = None
        if worker.watchdog is not None:
            worker.watchdog.cancel()
            worker.watchdog = None
        if kind == "cpu":
            self.over_limit += 1
        if job is not None:
            _less(self.running, job.client)
            if job.future.done():
                self.dropped += kind != "cpu"  # abandoned: finished, nobody waits for its answer
            elif kind == "ok":
                self.answered += 1
                job.future.set_result(value)
            elif kind == "cpu":
                job.future.set_exception(CpuLimit(self.cpu_seconds))
            else:
                job.future.set_exception(WorkerFailed(value))
        worker.jobs += 1
        if kind == "cpu" or worker.jobs >= JOBS_PER_WORKER:
            # the worker leaves after a job it ended (or its share of jobs): a fresh one replaces it
            self._kill(worker, None)
        else:
            self._next(worker)

    def _on_exit(self, worker: _Worker) -> None:
        """The worker's process ended (killed by us, by the kernel's CPU limit, or otherwise)."""
        assert self.loop is not None
        self.loop.remove_reader(worker.pidfd)
        status = 0
        with contextlib.suppress(ChildProcessError):
            _, status = os.waitpid(worker.pid, 0)
        os.close(worker.pidfd)
        job = worker.job
        by_kernel = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU
        if by_kernel and worker.ended is None:
            self.over_limit += 1
        if job is not None and not job.future.done():
            if worker.ended is not None:
                job.future.set_exception(worker.ended)
            elif by_kernel:
                job.future.set_exception(CpuLimit(self.cpu_seconds))
            else:
                job.future.set_exception(WorkerFailed(f"the worker exited (status {status})"))
        self._kill(worker, None)

    def _kill(self, worker: _Worker, reason: BaseException | None) -> None:
        """End ``worker`` (its job gets ``reason``, when given) and start a replacement."""
        if worker.alive:
            worker.alive = False
            worker.ended = reason
            assert self.loop is not None
            self.loop.remove_reader(worker.sock.fileno())
            self.loop.remove_writer(worker.sock.fileno())
            if worker.watchdog is not None:
                worker.watchdog.cancel()
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(worker.pidfd, signal.SIGKILL)
            worker.sock.close()
            job = worker.job
            if job is not None and reason is not None and not job.future.done():
                job.future.set_exception(reason)
        if worker in self.workers:
            self.workers.remove(worker)
            if worker.job is not None:
                _less(self.running, worker.job.client)
            if not self.draining:
                self._spawn()
                self._next(self.workers[-1])

    def _next(self, worker: _Worker) -> None:
        """Give an idle worker the oldest queued job whose client is under its share."""
        while worker.alive and worker.job is None:
            job = next((j for j in self.waiting if self._may_run(j.client)), None)
            if job is None:
                return
            self._unqueue(job)
            if not job.future.done():
                self._dispatch(worker, job)

    def _unqueue(self, job: _Job) -> None:
        self.waiting.remove(job)
        _less(self.queued, job.client)

    def _abandon(self, job: _Job) -> None:
        """The caller of ``job`` went away: dropped if it waits; if it runs, it finishes in its
        worker (its CPU limit still bounds it) and its answer is dropped."""
        if job.worker is None:
            with contextlib.suppress(ValueError):
                self._unqueue(job)
        if not job.future.done():
            job.future.set_exception(Abandoned())

    def _cancel(self, job: _Job, reason: BaseException) -> None:
        if job.worker is None:
            with contextlib.suppress(ValueError):
                self._unqueue(job)
            if not job.future.done():
                job.future.set_exception(reason)
        elif job.worker.job is job:
            self._kill(job.worker, reason)
        if job.future.done():
            job.future.exception()  # retrieved: the caller raises its own

    def _end_running(self) -> None:
        for worker in list(self.workers):
            if worker.job is not None:
                job = worker.job
                self._kill(worker, Draining(started=True))
                job.future.exception()


def _less(counts: Counter[str | None], client: str | None) -> None:
    """One fewer for ``client``; a client with none is forgotten (the counters hold the clients
    with jobs, not every address ever seen)."""
    counts[client] -= 1
    if counts[client] <= 0:
        del counts[client]


def _cpu_of(pid: int) -> float:
    """The process's CPU time (user + system) in seconds, from ``/proc/<pid>/stat``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return 0.0
    fields = stat.rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS


# --- the worker's side ----------------------------------------------------------------------------


def _serve(
    sock: socket.socket,
    handler: Callable[[Any], Any],
    cpu_seconds: float,
    warm: Callable[[], None] | None = None,
) -> None:
    """A worker's life: ``warm()`` (what the server had not built yet when it forked, outside any
    job's limit), then jobs from its socket, answers back, until the socket closes."""
    fd = sock.fileno()
    os.closerange(3, fd)
    os.closerange(fd + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent ends its workers
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGPROF, _over_time)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    with contextlib.suppress(OSError):
        os.nice(NICE)
    sock.setblocking(True)
    if warm is not None:
        with contextlib.suppress(Exception):  # a job builds what is missing, as the server would
            warm()
    while True:
        try:
            payload = pickle.loads(_receive(sock))
        except (EOFError, OSError):
            return
        used = time.process_time()
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        soft = math.ceil(used + cpu_seconds + KERNEL_SLACK)
        resource.setrlimit(resource.RLIMIT_CPU, (soft if hard < 0 else min(soft, hard), hard))
        message: tuple[str, Any]
        try:
            signal.setitimer(signal.ITIMER_PROF, cpu_seconds)
            try:
                message = ("ok", handler(payload))
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
        except _OverTime:
            message = ("cpu", None)
        except Exception:
            message = ("error", traceback.format_exc())
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            sock.sendall(_HEADER.pack(len(data)) + data)
        except OSError:
            return
        if message[0] == "cpu":
            return


def _receive(sock: socket.socket) -> bytes:
    header = _exactly(sock, _HEADER.size)
    return _exactly(sock, _HEADER.unpack(header)[0])


def _exactly(sock: socket.socket, size: int) -> bytes:
    out = bytearray()
    while len(out) < size:
        chunk = sock.recv(min(size - len(out), 1 << 20))
        if not chunk:
            raise EOFError
        out += chunk
    return bytes(out)


def _over_time(signum: int, frame: Any) -> None:
    raise _OverTime
