"""Logs: structlog, JSON lines in production, readable lines in a terminal. Our own lines and
uvicorn's (through a ``structlog.stdlib.ProcessorFormatter``) share one set of processors, so every
line of the process has one format (docs/operations.md, "Logs").
"""

from __future__ import annotations

import sys
from collections.abc import MutableMapping
from typing import Any, TextIO

import structlog
from structlog.typing import Processor

from service.encoding import log_line
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


#: What the console format writes escaped: C0 controls, DEL, C1 controls, the bidi embeddings,
#: overrides and isolates (a path or a header can carry any of them).
_UNSAFE = {
    c: f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"
    for c in (*range(0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A))
}


def escape_controls(
    logger: Any, method: str, event: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    for key, value in event.items():
        if isinstance(value, str) and not value.isprintable():
            event[key] = value.translate(_UNSAFE)
    return event


def _renderers(fmt: LogFormat, stream: TextIO) -> list[Processor]:
    if fmt == "json":
        return [structlog.processors.JSONRenderer(serializer=log_line)]
    return [escape_controls, structlog.dev.ConsoleRenderer(colors=stream.isatty())]


def make_logger(settings: Settings, stream: TextIO | None = None) -> Any:
    """The app's logger: level-filtered (a disabled level costs one method call), not global."""
    out = stream if stream is not None else sys.stderr
    processors: list[Processor] = [*_shared()]
    if settings.log_format == "json":
        processors += [TRACEBACKS]
    processors += _renderers(settings.log_format, out)
    return structlog.wrap_logger(
        structlog.WriteLogger(out),
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(LEVELS[settings.log_level]),
    ).bind(logger="dragonroll")


def uvicorn_log_config(settings: Settings) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for uvicorn: its lines rendered like ours.

    uvicorn's access log stays off: the service writes its own access line per request.
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
                    *_renderers(settings.log_format, sys.stderr),
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
