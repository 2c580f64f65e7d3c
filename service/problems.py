"""RFC 9457 problem details: one ``type`` per kind of problem (:data:`KINDS`), and the one module that
renders them, whichever surface answers: the app's exception handlers (:func:`install_handlers`),
middleware answering before the app (:func:`send_problem`), MCP. A refusal is bounded like an answer
(:func:`bound_errors`, :func:`bounded`; docs/hardening.md, "Failure paths"). Stack traces never
leave the process.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, Field
from pydantic_core import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.types import Scope, Send

from rules.errors import FieldError, RulesError
from service import problem_texts
from service.encoding import encode as encode_json
from service.lanes import Abandoned, CpuLimit, Draining, Overloaded

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://dragonroll.dev/problems/"


class ProblemError(BaseModel):
    loc: list[str | int] = Field(description='Where: the path in the request ("body", field ...).')
    msg: str = Field(description="What is wrong there.")
    type: str | None = Field(default=None, description="Machine-readable kind of the error.")
    lang: str | None = Field(
        default=None, description="The language `msg` is in (English where no catalog has it)."
    )


#: The most errors a problem lists; ``more_errors`` counts the others (a body of 31,500 errors was
#: a 3.2 MB answer, 0.2 s of the event loop to write).
MAX_LISTED = 30
#: The most characters of a problem's texts (its detail, an error's message or a place in its loc).
MAX_TEXT = 1000
#: The largest problem, in bytes, as sent.
MAX_PROBLEM = 64 * 1024


class Problem(BaseModel):
    """An RFC 9457 problem details object."""

    type: str = Field(description="A URI naming the kind of problem.")
    title: str
    status: int
    detail: str
    instance: str | None = Field(default=None, description="The path of the request.")
    request_id: str | None = Field(default=None, description="The request's X-Request-ID.")
    errors: list[ProblemError] | None = Field(
        default=None, description=f"What is wrong and where: the first {MAX_LISTED} at most."
    )
    more_errors: int | None = Field(
        default=None,
        description="How many errors there were besides those listed (absent: none).",
    )
    lang: str | None = Field(
        default=None,
        description=(
            "The language of the answer (`Content-Language`): the request's `lang`, else "
            "`Accept-Language`. `title` is in it; `detail` and each error's `msg` are where a "
            "catalog has their text, and say so (`detail_lang`, `errors[].lang`)."
        ),
    )
    detail_lang: str | None = Field(
        default=None, description="The language `detail` is in (English where no catalog has it)."
    )


def engine_kinds() -> dict[str, tuple[int, str]]:
    """The engine's errors (``rules.errors``), each kind with its title as its class states it
    (written there only), every one a 422: the subclasses of ``RulesError`` in the order they are
    defined, each before its own subclasses, then ``RulesError`` itself."""
    found: dict[str, tuple[int, str]] = {}

    def walk(cls: type[RulesError]) -> None:
        for sub in cls.__subclasses__():
            found[sub.kind] = (422, sub.title)
            walk(sub)

    walk(RulesError)
    found[RulesError.kind] = (422, RulesError.title)
    return found


#: kind -> (status, title): every problem type the service returns, for the docs and the OpenAPI.
KINDS: dict[str, tuple[int, str]] = {
    "malformed-json": (400, "The body is not valid JSON"),
    "preflight-refused": (400, "The CORS preflight is refused"),
    "not-found": (404, "No such resource"),
    "method-not-allowed": (405, "Method not allowed"),
    "payload-too-large": (413, "The request body is too large"),
    "unsupported-media-type": (415, "The body must be JSON"),
    "validation-error": (422, "The request does not match the schema"),
    **engine_kinds(),
    "duplicate-key": (422, "A key appears twice in one object"),
    "cpu-limit": (422, "The request took more CPU time than one request may"),
    "internal-error": (500, "Internal server error"),
    "overloaded": (503, "The service is busy: try again shortly"),
    "shutting-down": (503, "The service is shutting down: try again"),
}


def problem(
    kind: str,
    detail: str,
    *,
    status: int | None = None,
    title: str | None = None,
    errors: Iterable[dict[str, Any]] | None = None,
    instance: str | None = None,
    request_id: str | None = None,
) -> dict[str, Any]:
    default_status, default_title = KINDS[kind]
    body: dict[str, Any] = {
        "type": TYPE_BASE + kind,
        "title": title or default_title,
        "status": status or default_status,
        "detail": detail,
    }
    if instance is not None:
        body["instance"] = instance
    if request_id is not None:
        body["request_id"] = request_id
    if errors is not None:
        listed, more = bound_errors(errors)
        body["errors"] = listed
        if more:
            body["more_errors"] = more
    return body


def bound_errors(
    errors: Iterable[dict[str, Any]], total: int | None = None
) -> tuple[list[dict[str, Any]], int]:
    """The errors a problem lists: the first :data:`MAX_LISTED`, their texts cut at
    :data:`MAX_TEXT` characters; and how many more there were (of ``total``, when the caller
    counted them without building them all)."""
    listed: list[dict[str, Any]] = []
    seen = 0
    for error in errors:
        seen += 1
        if len(listed) < MAX_LISTED:
            listed.append(
                {
                    **error,
                    "loc": [_cut(p) if isinstance(p, str) else p for p in error["loc"]][
                        :MAX_LISTED
                    ],
                    "msg": _cut(error["msg"]),
                }
            )
    return listed, max(seen, total or 0) - len(listed)


def bounded(body: dict[str, Any]) -> bytes:
    """``body``'s bytes, at most :data:`MAX_PROBLEM`: its texts cut, its errors bounded
    (:func:`bound_errors`), then the last errors listed dropped (and counted) until it fits."""
    for key in ("title", "detail", "instance"):
        if isinstance(body.get(key), str):
            body[key] = _cut(body[key])
    errors = body.get("errors")
    if errors is not None:
        listed, more = bound_errors(errors)
        body["errors"], more = listed, more + body.get("more_errors", 0)
        if more:
            body["more_errors"] = more
    data = encode_json(body)
    while len(data) > MAX_PROBLEM and body.get("errors"):
        body["errors"].pop()
        body["more_errors"] = body.get("more_errors", 0) + 1
        data = encode_json(body)
    return data


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 3] + "..."


def encode(body: dict[str, Any]) -> bytes:
    return bounded(body)


def field_errors(errors: Sequence[FieldError]) -> list[dict[str, Any]]:
    return [{"loc": ["body", *e.loc], "msg": e.msg} for e in errors]


def from_rules_error(exc: RulesError) -> dict[str, Any]:
    return problem(exc.kind, exc.detail, title=exc.title, errors=field_errors(exc.errors))


def from_validation_error(exc: ValidationError) -> dict[str, Any]:
    """A pydantic error of a request body: 400 for broken JSON, 422 for a body off its schema."""
    details = exc.errors(include_url=False, include_input=False)
    for err in details:
        if err["type"] == "json_invalid":
            return problem(
                "malformed-json",
                f"the body is not valid JSON: {err['msg'].removeprefix('Invalid JSON: ')}",
                errors=[{"loc": ["body"], "msg": err["msg"], "type": "json_invalid"}],
            )
    # Only the errors listed are worded (31,500 of them took 0.2 s): the rest are counted.
    errors = [
        {"loc": ["body", *err["loc"]], "msg": _message(err), "type": err["type"]}
        for err in details[:MAX_LISTED]
    ]
    first = errors[0]
    where = ".".join(str(p) for p in first["loc"][1:]) or "body"
    more = f" (and {len(details) - 1:,} more)" if len(details) > 1 else ""
    body = problem("validation-error", f"{where}: {first['msg']}{more}", errors=errors)
    if len(details) > len(errors):
        body["more_errors"] = len(details) - len(errors)
    return body


#: pydantic's words for a kind of error, and ours: what a JSON caller reads. Replaced inside the
#: message, so a prefix a model adds ("combatant 'k1': ", ``rules.dos.models.NamedCombatant``) stays.
_WORDS: dict[str, tuple[re.Pattern[str], str]] = {
    "extra_forbidden": (
        re.compile("Extra inputs are not permitted"),
        "unknown field: it is not part of this request's schema",
    ),
    "missing": (re.compile("Field required"), "required field is missing"),
    # not "Input should be a valid dictionary or instance of Weapon": JSON's word, no class name
    "model_type": (
        re.compile(r"Input should be a valid dictionary( or instance of \w+)?"),
        "Input should be an object",
    ),
    "dict_type": (re.compile("Input should be a valid dictionary"), "Input should be an object"),
}


def _message(err: Any) -> str:
    msg = str(err["msg"]).removeprefix("Value error, ")
    kind, ctx = err["type"], err.get("ctx")
    if kind in _WORDS:
        pydantic_words, ours = _WORDS[kind]
        return pydantic_words.sub(ours, msg, count=1)
    # A union told apart by a field (a 5e turn's steps by `kind`): pydantic's words are its own.
    if kind == "union_tag_not_found" and ctx:
        return f"the field {ctx['discriminator']} is missing: it says which kind this is"
    if kind == "union_tag_invalid" and ctx:
        return (
            f"{ctx['discriminator']} is '{ctx['tag']}', which is not one of {ctx['expected_tags']}"
        )
    return msg


# --- rendering: every problem response of the service -------------------------------------------

#: scope keys filled for the access line and the metrics: the problem kind and the limit it hit.
PROBLEM_KEY = "dragonroll.problem"
LIMIT_KEY = "dragonroll.limit"
#: the status an access line and the metrics give a request whose client went away (as nginx does).
CLIENT_CLOSED = 499
INTERNAL_ERROR = (
    "the service failed to resolve this request; the error was logged with its request id"
)


class UnsupportedMediaType(Exception):
    """A POST whose body is not JSON by its ``Content-Type`` (or that names none): a 415."""

    def __init__(self, content_type: str) -> None:
        super().__init__(content_type)
        self.content_type = content_type


class BodyTooLarge(HTTPException):
    """The body is, or grew, past the limit (a 413; the connection is closed after it)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than the limit of {limit} bytes")
        self.limit = limit


class DuplicateKey(Exception):
    """A JSON object of the body names one key twice (``service.endpoints.check_duplicates``)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class Refused(Exception):
    """A problem made where the request was answered (a heavy-lane worker, ``service.pipeline``),
    answered as it is."""

    def __init__(self, body: dict[str, Any]) -> None:
        super().__init__(body.get("detail"))
        self.body = body


def duplicate_key(exc: DuplicateKey) -> dict[str, Any]:
    msg = f"the key {exc.key!r} appears twice in one object: send each key once"
    errors = [{"loc": ["body"], "msg": msg, "type": "duplicate_key"}]
    return problem("duplicate-key", msg, errors=errors)


def as_problem(exc: BaseException) -> dict[str, Any] | None:
    """The problem a request's own error is answered with (``None``: not a request's error, a
    bug): what a heavy-lane worker sends back in place of the exception."""
    if isinstance(exc, ValidationError):
        return from_validation_error(exc)
    if isinstance(exc, RulesError):
        return from_rules_error(exc)
    if isinstance(exc, DuplicateKey):
        return duplicate_key(exc)
    if isinstance(exc, Refused):
        return exc.body
    return None


def cpu_limit(exc: CpuLimit) -> dict[str, Any]:
    detail = (
        f"the request took more than {exc.seconds:g} s of CPU time, the limit of one request"
        " (DRAGONROLL_JOB_CPU_SECONDS), and was stopped: ask for less (fewer dice, values, items or"
        " runs)"
    )
    return problem(
        "cpu-limit", detail, errors=[{"loc": ["body"], "msg": detail, "type": "cpu_limit"}]
    )


def stamp(body: dict[str, Any], scope: Scope, lang: str | None = None) -> bytes:
    """A problem's bytes, with its ``instance`` and ``request_id``; its kind (and the limit it
    reports) noted in the scope for the access line and the metrics; told in ``lang`` (else the
    request's language, ``service.problem_texts``)."""
    body.setdefault("instance", scope["path"])
    request_id = scope.get("request_id")
    if request_id is not None:
        body.setdefault("request_id", request_id)
    kind: str = body["type"].rsplit("/", 1)[-1]
    scope[PROBLEM_KEY] = kind
    limit = limit_of(kind, body["detail"])
    if limit is not None:
        scope[LIMIT_KEY] = limit
    told = problem_texts.localized(body, lang or problem_texts.language(scope))
    return encode(told)


def limit_of(kind: str, detail: str) -> str | None:
    """Which limit a problem reports, for ``dragonroll_limit_rejections_total``."""
    if kind == "payload-too-large":
        return "body_size"
    if kind == "limit-exceeded":
        return "engine"
    if kind == "cpu-limit":
        return "cpu_time"
    if kind == "overloaded":
        return "heavy_queue"
    if kind == "malformed-json":
        if "recursion limit exceeded" in detail:
            return "json_depth"
        if "number out of range" in detail:
            return "json_number"
    return None


def response(
    scope: Scope, body: dict[str, Any], headers: Mapping[str, str] | None = None
) -> Response:
    """The problem as a Starlette ``Response`` (what an exception handler returns), in the
    request's language (``Content-Language``)."""
    lang = problem_texts.language(scope)
    return Response(
        stamp(body, scope, lang),
        status_code=body["status"],
        media_type=PROBLEM_JSON,
        headers=problem_texts.headers(lang, headers),
    )


async def send_problem(
    scope: Scope, send: Send, body: dict[str, Any], headers: Mapping[str, str] | None = None
) -> None:
    """Send a problem from plain ASGI middleware (outside FastAPI's handlers)."""
    await response(scope, body, headers)(scope, _no_receive, send)


async def _no_receive() -> Any:  # pragma: no cover - a Response never reads the request
    raise RuntimeError("a problem response reads no request")


def overloaded(exc: Overloaded) -> tuple[dict[str, Any], dict[str, str]]:
    if exc.share:
        detail = (
            "this client already has as many heavy requests running and waiting as its share of"
            f" the heavy lane allows: send fewer at once, or try again in {exc.retry_after} s"
        )
    else:
        detail = (
            "every worker of the heavy lane is busy and its queue is full: try again in"
            f" {exc.retry_after} s"
        )
    return problem("overloaded", detail), {"retry-after": str(exc.retry_after)}


def draining(exc: Draining) -> tuple[dict[str, Any], dict[str, str]]:
    detail = (
        "the service is shutting down and stopped this request before its answer: send it again"
        if exc.started
        else "the service is shutting down and takes no more work: send the request again"
    )
    return problem("shutting-down", detail), {"retry-after": "1", "connection": "close"}


#: The errors of answering a request, whichever surface meets them (HTTP: the app's exception
#: handlers; MCP: a tool call's error result), each rendered by :func:`rendered`.
ANSWERING_ERRORS: tuple[type[Exception], ...] = (
    ValidationError,
    RulesError,
    DuplicateKey,
    Refused,
    CpuLimit,
    Overloaded,
    Draining,
)


def rendered(exc: BaseException) -> tuple[dict[str, Any], dict[str, str]] | None:
    """The problem (and the response headers) an error of answering a request is answered with,
    over HTTP or MCP; ``None`` for anything else (a bug: the surface's last resort answers it)."""
    body = as_problem(exc)
    if body is not None:
        return body, {}
    if isinstance(exc, CpuLimit):
        return cpu_limit(exc), {}
    if isinstance(exc, Overloaded):
        return overloaded(exc)
    if isinstance(exc, Draining):
        return draining(exc)
    return None


def install_handlers(app: FastAPI) -> None:
    """Every error the app raises answered as a problem, by FastAPI's documented exception
    handlers (Starlette's exception middleware calls them inside the app's middleware)."""
    for error in ANSWERING_ERRORS:
        app.add_exception_handler(error, _on_answering)
    app.add_exception_handler(UnsupportedMediaType, _on_media)
    app.add_exception_handler(ClientDisconnect, _on_disconnect)
    app.add_exception_handler(HTTPException, _on_http)
    app.add_exception_handler(Abandoned, _on_disconnect)


async def _on_answering(request: Request, exc: Exception) -> Response:
    found = rendered(exc)
    assert found is not None, type(exc)
    body, headers = found
    return response(request.scope, dict(body), headers=headers or None)


async def _on_media(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, UnsupportedMediaType)
    if exc.content_type:
        said = f"Content-Type {exc.content_type!r} is not JSON"
    else:
        said = "the request has no Content-Type"
    detail = f"{said}: send 'Content-Type: application/json'"
    return response(request.scope, problem("unsupported-media-type", detail))


async def _on_disconnect(request: Request, exc: Exception) -> Response:
    """The client went away before its body was read, or before its heavy answer (its job was
    dropped from the queue, or runs on with its answer dropped: ``service.lanes``): nobody reads
    the answer, the access line and the metrics say 499 (not an error of the service)."""
    return Response(status_code=CLIENT_CLOSED)


async def _on_http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    kind = {
        404: "not-found",
        405: "method-not-allowed",
        413: "payload-too-large",
    }.get(exc.status_code)
    detail = str(exc.detail)
    path = request.scope["path"]
    if exc.status_code == 404:
        detail = f"no resource at {path}; see /docs for the endpoints"
    elif exc.status_code == 405:
        allowed = (exc.headers or {}).get("Allow", "")
        detail = f"{request.method} is not allowed on {path}" + (
            f"; allowed: {allowed}" if allowed else ""
        )
    body = (
        problem(kind, detail)
        if kind
        else {"type": "about:blank", "title": detail, "status": exc.status_code, "detail": detail}
    )
    headers = dict(exc.headers or {})
    if exc.status_code == 413:
        headers["connection"] = "close"  # the rest of the body is not read
    return response(request.scope, body, headers=headers)
