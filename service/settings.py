"""Settings, typed and validated once, from ``DRAGONROLL_*`` environment variables (STYLE 5).

A bad value stops start-up with one line naming the variable (see :func:`load` and
``service.__main__``); tests build their own ``Settings(...)`` and pass it to ``create_app``.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import sys
from typing import Annotated, Literal

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from rules.budget import MAX_DICE
from rules.notation.parser import check_shorthands

ENV_PREFIX = "DRAGONROLL_"
LogFormat = Literal["json", "console"]
LogLevel = Literal["debug", "info", "warning", "error", "critical"]

#: An origin as browsers send it: scheme://host[:port], no path, no trailing slash.
_ORIGIN = re.compile(r"^https?://[A-Za-z0-9.\-\[\]:]+$")
_HOSTNAME = re.compile(
    r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$"
)


def _default_log_format() -> LogFormat:
    """Readable lines in a terminal, JSON lines everywhere else (containers, CI, files)."""
    return "console" if sys.stderr.isatty() else "json"


class Settings(BaseSettings):
    """Every setting of the service; each is ``DRAGONROLL_<NAME>`` in the environment."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="ignore", frozen=True)

    host: str = Field(default="127.0.0.1", min_length=1, description="Address to listen on.")
    port: Annotated[int, Field(ge=1, le=65535)] = Field(default=8000, description="TCP port.")
    workers: Annotated[int, Field(ge=1, le=64)] = Field(
        default=1,
        description="uvicorn worker processes; keep 1 in a container and add replicas instead.",
    )
    log_format: LogFormat = Field(
        default_factory=_default_log_format,
        description="json | console; console by default when stderr is a terminal.",
    )
    log_level: LogLevel = Field(default="info", description="debug | info | warning | error.")
    cors_origins: Annotated[tuple[str, ...], NoDecode] = Field(
        default=("*",),
        description="Comma-separated origins allowed to call from a browser; * for any.",
    )
    cors_private_network: bool = Field(
        default=True,
        description=(
            "Answer Chrome's private-network preflights (a page on the internet calling a service on"
            " a private address) for the origins CORS allows; with no origins allowed it has no effect."
        ),
    )
    public_url: Annotated[
        str, Field(pattern=r"^(https?://[A-Za-z0-9.\-\[\]:]+(/[A-Za-z0-9._~%\-/]*)?)?$")
    ] = Field(
        default="",
        description=(
            "The address GMs and Foundry reach the service at (https://dice.example.org), written"
            " into the Foundry module's manifest (/foundry/module.json); empty: each request's own"
            " address (its scheme and Host header)."
        ),
    )
    body_limit: Annotated[int, Field(ge=1024, le=16 * 1024 * 1024)] = Field(
        default=64 * 1024, description="Largest request body accepted, in bytes."
    )
    max_dice: Annotated[int, Field(ge=0, le=10_000_000)] = Field(
        default=MAX_DICE,
        description=(
            "Work budget: the most base dice one request may roll (docs/hardening.md); a request"
            " over it is refused with a 422 limit-exceeded before any die is drawn (0: only"
            " requests that roll no dice)."
        ),
    )
    dice_shorthands: dict[str, str] = Field(
        default_factory=dict,
        description=(
            "More shorthands for /dice (docs/notation.md), as a JSON object of name -> notation, such"
            ' as {"crit": "4d6", "save": "1d20+5"}; a name the defaults have is replaced.'
        ),
    )
    metrics: bool = Field(default=True, description="Serve Prometheus metrics at /metrics.")
    otel: bool = Field(
        default=False,
        description=(
            "FastAPI's native OpenTelemetry tracing, metrics and logs. Off by default: the service has"
            " its own metrics and request log, and checking for an OpenTelemetry SDK costs every"
            " request; turn it on where an SDK is configured."
        ),
    )
    graceful_timeout: Annotated[int, Field(ge=0, le=600)] = Field(
        default=10,
        description="Seconds in-flight requests get to finish after SIGTERM.",
    )
    request_timeout: Annotated[float, Field(ge=1, le=300)] = Field(
        default=10,
        description=(
            "Seconds a client may take to send a request's headers, and its body: the connection"
            " is closed after (the headers) or answered 408 (the body). docs/hardening.md."
        ),
    )
    heavy_workers: Annotated[int, Field(ge=1, le=64)] = Field(
        default=2,
        description=(
            "Worker processes of the heavy lane (service.lanes): odds, simulations and every request"
            " too large for the event loop are answered there, each within its CPU limit."
        ),
    )
    heavy_queue: Annotated[int, Field(ge=0, le=10_000)] = Field(
        default=16,
        description=(
            "Heavy jobs that may wait for a worker; one more is refused at once with a 503 problem"
            " and Retry-After."
        ),
    )
    heavy_per_client: Annotated[int | None, Field(ge=1, le=64)] = Field(
        default=None,
        description=(
            "Heavy jobs one client (DRAGONROLL_TRUSTED_PROXIES says who) may have running at once,"
            " its abandoned ones included; unset: half the heavy workers, at least 1. Its next"
            " ones wait in its own share of the queue."
        ),
    )
    heavy_client_queue: Annotated[int | None, Field(ge=0, le=10_000)] = Field(
        default=None,
        description=(
            "Heavy jobs one client may have waiting; one more is refused at once with a 503 and"
            " Retry-After. Unset: a quarter of DRAGONROLL_HEAVY_QUEUE, at least 1."
        ),
    )
    trusted_proxies: Annotated[tuple[str, ...], NoDecode] = Field(
        default=(),
        description=(
            "Comma-separated addresses or networks of the proxies in front of the service (an"
            " ingress controller's pods: 10.0.0.0/8); behind one of them a request's client is the"
            " first address of X-Forwarded-For, from the right, that is not a trusted proxy's."
            " Empty: the client is the peer address (the header is ignored)."
        ),
    )
    job_cpu_seconds: Annotated[float, Field(ge=0.05, le=600)] = Field(
        default=1.5,
        description=(
            "Seconds of CPU one heavy job may use: past it the job is ended (its worker replaced)"
            " and the request answered 422 cpu-limit. The work budgets refuse earlier, at about"
            " 0.9 s of an idle machine's CPU; this is the backstop, with room for a busy host."
            " docs/hardening.md."
        ),
    )
    unread_answer_bytes: Annotated[int, Field(ge=1024 * 1024, le=64 * 1024 * 1024 * 1024)] = Field(
        default=96 * 1024 * 1024,
        description=(
            "Bytes of answers the process may hold for clients that have not read them (the"
            " answers are at most 4 MiB each); past it a request is answered 503 with Retry-After."
            " With the process's own memory it bounds the pod's: docs/operations.md, Memory."
        ),
    )
    limit_concurrency: Annotated[int, Field(ge=0, le=1_000_000)] = Field(
        default=512,
        description=(
            "Connections and requests served at once by one uvicorn worker; past it a new"
            " connection is answered 503 by the server (0: no bound)."
        ),
    )
    keep_alive_timeout: Annotated[int, Field(ge=1, le=3600)] = Field(
        default=5,
        description=(
            "Seconds an idle keep-alive connection stays open. Behind a proxy that keeps its"
            " connections to the service open (ingress-nginx: 60 s), set it longer than the proxy's"
            " idle timeout, so that the server never closes a connection the proxy is reusing."
        ),
    )

    @field_validator("host")
    @classmethod
    def _check_host(cls, value: str) -> str:
        """An IP address or a host name this machine can listen on (checked before binding)."""
        value = value.strip()
        numeric = value.replace(".", "").isdigit()
        try:
            ipaddress.ip_address(value.strip("[]"))
        except ValueError:
            if numeric or not _HOSTNAME.match(value):
                msg = f"{value!r} is not an IP address or a host name"
                raise ValueError(msg) from None
        try:
            infos = socket.getaddrinfo(value.strip("[]"), None, type=socket.SOCK_STREAM)
            family, _, _, _, address = infos[0]
            with socket.socket(family, socket.SOCK_STREAM) as probe:
                probe.bind((address[0], 0))
        except OSError as exc:
            msg = f"cannot listen on {value!r}: {exc.strerror or exc}"
            raise ValueError(msg) from None
        return value

    @field_validator("log_format", "log_level", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            value = [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _split_proxies(cls, value: object) -> object:
        if isinstance(value, str):
            value = [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _check_proxies(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for proxy in value:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                msg = f"{proxy!r} is not an IP address or network like 10.0.0.0/8"
                raise ValueError(msg) from None
        return value

    @field_validator("dice_shorthands")
    @classmethod
    def _check_shorthands(cls, value: dict[str, str]) -> dict[str, str]:
        check_shorthands(value)
        return value

    @field_validator("cors_origins")
    @classmethod
    def _check_origins(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for origin in value:
            if origin != "*" and not _ORIGIN.match(origin):
                msg = f"{origin!r} is not an origin like https://vtt.example.org or *"
                raise ValueError(msg)
        return value


def explain(exc: ValidationError, flags: dict[str, str] | None = None) -> str:
    """One line naming the variable (or the command-line flag, for a field in ``flags``: field ->
    flag) and what is wrong with it."""
    err = exc.errors(include_url=False, include_input=False)[0]
    field = "_".join(str(p) for p in err["loc"][:1])
    msg = str(err["msg"]).removeprefix("Value error, ")
    if flags and field in flags:
        return f"dragonroll: bad flag {flags[field]}: {msg}"
    return f"dragonroll: bad setting {ENV_PREFIX}{field.upper()}: {msg}"


def load(overrides: dict[str, str] | None = None, flags: dict[str, str] | None = None) -> Settings:
    """The settings from the environment, ``overrides`` (field -> value, from the command line)
    over them; or exit with one line naming the bad variable or flag."""
    try:
        return Settings(**(overrides or {}))  # type: ignore[arg-type]
    except ValidationError as exc:
        raise SystemExit(explain(exc, flags)) from None
