"""Logs: structlog, JSON lines in production, readable lines in a terminal.

Our own lines (one canonical line per request, errors with their traceback) go through a structlog
logger built per app, writing straight to stderr; uvicorn's lines go through stdlib ``logging`` with a
``structlog.stdlib.ProcessorFormatter`` sharing the same processors, so every line of the process has
one format. Request bodies are never logged.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

import structlog
from structlog.typing import Processor

from service.settings import LogFormat, Settings

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
        processors += [structlog.processors.dict_tracebacks]
    processors.append(_renderer(settings.log_format, out))
    return structlog.wrap_logger(
        structlog.WriteLogger(out),
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(LEVELS[settings.log_level]),
    ).bind(logger="dragonroll")


def uvicorn_log_config(settings: Settings) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for uvicorn: its lines rendered like ours.

    uvicorn's access log stays off: the service writes its own canonical line per request.
    """
    level = settings.log_level.upper()
    pre_chain: list[Processor] = [structlog.stdlib.add_logger_name, *_shared()]
    if settings.log_format == "json":
        pre_chain.append(structlog.processors.dict_tracebacks)
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
