"""Logs: structlog, JSON lines in production, readable lines in a terminal.

Our own lines (one canonical line per request, errors with their traceback) go through a structlog
logger built per app, writing straight to stderr; uvicorn's lines go through stdlib ``logging`` with a
``structlog.stdlib.ProcessorFormatter`` sharing the same processors, so every line of the process has
one format. Request bodies are never logged.
"""

from __future__ import annotations

import asyncio
import datetime
import sys
import time
from json.encoder import encode_basestring_ascii as _json_str
from typing import Any, Final, Protocol, TextIO

import structlog
from structlog.typing import Processor

from service.settings import LogFormat, Settings

#: Tracebacks as JSON without the frames' local variables: locals hold request bodies and seeds, and
#: the service never logs a request body (structlog's ``dict_tracebacks`` shows locals).
TRACEBACKS = structlog.processors.ExceptionRenderer(
    structlog.tracebacks.ExceptionDictTransformer(show_locals=False)
)

LEVELS = {"debug": 10, "info": 20, "warning": 30, "error": 40, "critical": 50}


def _shared() -> list[Processor]:
    return [
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]


def _renderer(fmt: LogFormat, stream: TextIO) -> Processor:
    if fmt == "json":
        return structlog.processors.JSONRenderer()
    return structlog.dev.ConsoleRenderer(colors=stream.isatty())


def make_logger(settings: Settings, stream: TextIO | None = None) -> Any:
    """The app's logger: level-filtered (a disabled level costs one method call), not global."""
    out = stream if stream is not None else sys.stderr
    processors: list[Processor] = [*_shared()]
    if settings.log_format == "json":
        processors += [TRACEBACKS]
    processors.append(_renderer(settings.log_format, out))
    return structlog.wrap_logger(
        structlog.WriteLogger(out),
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(LEVELS[settings.log_level]),
    ).bind(logger="dragonroll")


class AccessLine(Protocol):
    """The canonical request line's writer (see :func:`make_access_line`)."""

    def __call__(  # noqa: PLR0917 - positional: one call per request, no keyword packing
        self,
        method: str,
        route: str,
        path: str,
        status: int,
        duration_us: int,
        request_id: str,
        system: str | None,
        /,
    ) -> None: ...

    def flush(self) -> None:
        """Write the lines still buffered (at shutdown)."""


#: "000" .. "999": the digits of a microsecond or millisecond fraction.
_DIGITS3: Final = [f"{n:03d}" for n in range(1000)]
#: The same without trailing zeros ("5" for 500, "" for 0), as a float's repr writes a fraction.
_FRACTION3: Final = [digits.rstrip("0") for digits in _DIGITS3]
#: Heads (and tails) of request lines kept per (method, route, path) (per system), at most this
#: many: the routes are a fixed set, and paths outside them are written each time.
_CACHED = 256


def milliseconds(us: int) -> str:
    """``repr(us / 1000)``, a duration in whole microseconds as JSON writes it in milliseconds
    ("0.487", "12.0", "0.001"), made with integer steps (below 10**15 ms, where repr turns to an
    exponent)."""
    ms, fraction = divmod(us, 1000)
    return f"{ms}.{_FRACTION3[fraction] or '0'}"


_UTC = datetime.UTC


class _BufferedAccessLine:
    """Request lines collected during one event-loop iteration and written with one ``write``.

    The first line into an empty buffer schedules :meth:`flush` with ``loop.call_soon``, so a line
    waits at most for the rest of the current loop iteration (at low load it is written right after
    its request); under load the lines of every request that ended in that iteration go out in one
    write and one flush instead of one each. Without a running loop (a direct call) the line is
    written at once. The lifespan flushes at shutdown.

    A line is mostly the same text for every request to a route: its head (logger, method, route,
    path) and its tail (system, event, level) are made once per route and system; the request's
    own fields are written in between, the duration and the time with integer steps.
    """

    __slots__ = ("_buffer", "_heads", "_prefix", "_scheduled", "_second", "_tails", "_write")

    def __init__(self, stream: TextIO) -> None:
        # structlog's writer: the same per-file lock as the logger's own lines, "\n" added, flushed.
        self._write = structlog.WriteLogger(stream).msg
        self._buffer: list[str] = []
        self._heads: dict[tuple[str, str, str], str] = {}
        self._tails: dict[str | None, str] = {}
        #: the UTC second whose "YYYY-MM-DDTHH:MM:SS" is cached in _prefix
        self._second = -1
        self._prefix = ""
        #: the loop a flush is scheduled on (None: none pending)
        self._scheduled: asyncio.AbstractEventLoop | None = None

    def __call__(  # noqa: PLR0917 - positional: one call per request, no keyword packing
        self,
        method: str,
        route: str,
        path: str,
        status: int,
        duration_us: int,
        request_id: str,
        system: str | None,
        /,
    ) -> None:
        head = self._heads.get((method, route, path))
        if head is None:
            head = self._head(method, route, path)
        tail = self._tails.get(system)
        if tail is None:
            tail = self._tail(system)
        self._buffer.append(  # one f-string: built in one pass, no intermediate strings
            f'{head}{int.__repr__(status)}, "duration_ms": {milliseconds(duration_us)}'
            f', "request_id": {_json_str(request_id)}{tail}{self.timestamp(time.time_ns())}"}}'
        )
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        if self._scheduled is not loop:  # nothing pending on this loop yet
            self._scheduled = loop
            loop.call_soon(self.flush)

    def _head(self, method: str, route: str, path: str) -> str:
        head = (
            f'{{"logger": "dragonroll", "method": {_json_str(method)}, "route": {_json_str(route)}'
            f', "path": {_json_str(path)}, "status": '
        )
        if len(self._heads) < _CACHED:
            self._heads[method, route, path] = head
        return head

    def _tail(self, system: str | None) -> str:
        tail = (
            f', "system": {"null" if system is None else _json_str(system)}'
            ', "event": "request", "level": "info", "timestamp": "'
        )
        if len(self._tails) < _CACHED:
            self._tails[system] = tail
        return tail

    def timestamp(self, ns: int) -> str:
        """``datetime.now(UTC).isoformat()`` with ``Z`` for ``+00:00`` (no fraction when the
        microseconds are 0, as ``isoformat`` does); the date and time formatted once a second."""
        second, rest = divmod(ns, 1_000_000_000)
        if second != self._second:
            self._second = second
            self._prefix = datetime.datetime.fromtimestamp(second, _UTC).strftime(
                "%Y-%m-%dT%H:%M:%S"
            )
        micro = rest // 1000
        if not micro:
            return f"{self._prefix}Z"
        high, low = divmod(micro, 1000)
        return f"{self._prefix}.{_DIGITS3[high]}{_DIGITS3[low]}Z"

    def flush(self) -> None:
        self._scheduled = None
        if self._buffer:
            lines = "\n".join(self._buffer)
            self._buffer.clear()
            self._write(lines)


def make_access_line(settings: Settings, stream: TextIO | None = None) -> AccessLine | None:
    """The request line of the JSON format, written without structlog's processor chain.

    It is the hottest line of the process (one per request), so it is formatted directly: exactly
    the bytes ``make_logger(settings).info("request", ...)`` writes (same keys in the same order,
    ``json.dumps``'s escaping and separators, the same ISO UTC timestamp, written and flushed under
    the same per-file lock; a test compares the two), and buffered for the rest of the event-loop
    iteration (:class:`_BufferedAccessLine`). ``None`` for the console format or when the info
    level is off: the caller then uses the logger (or logs nothing).
    """
    if settings.log_format != "json" or LEVELS[settings.log_level] > LEVELS["info"]:
        return None
    return _BufferedAccessLine(stream if stream is not None else sys.stderr)


def uvicorn_log_config(settings: Settings) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for uvicorn: its lines rendered like ours.

    uvicorn's access log stays off: the service writes its own canonical line per request.
    """
    level = settings.log_level.upper()
    pre_chain: list[Processor] = [structlog.stdlib.add_logger_name, *_shared()]
    if settings.log_format == "json":
        pre_chain.append(TRACEBACKS)
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "structlog": {
                "()": structlog.stdlib.ProcessorFormatter,
                "processors": [
                    structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                    _renderer(settings.log_format, sys.stderr),
                ],
                "foreign_pre_chain": pre_chain,
            }
        },
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "structlog",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
        "root": {"handlers": ["stderr"], "level": level},
    }
