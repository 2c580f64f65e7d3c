"""RFC 9457 problem details: one ``type`` per kind of problem, one place that renders them all.

Every error the service returns, 4xx or 5xx, goes through :func:`problem_response`, so the body is
always ``application/problem+json`` with ``type``, ``title``, ``status``, ``detail`` and, for requests
that cannot be used as written, an ``errors`` list of ``{loc, msg}``. Stack traces never leave the
process.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, Field
from pydantic_core import ValidationError

from rules.errors import FieldError, RulesError

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://dragonroll.dev/problems/"


class ProblemError(BaseModel):
    loc: list[str | int] = Field(description='Where: the path in the request ("body", field ...).')
    msg: str = Field(description="What is wrong there.")
    type: str | None = Field(default=None, description="Machine-readable kind of the error.")


class Problem(BaseModel):
    """An RFC 9457 problem details object."""

    type: str = Field(description="A URI naming the kind of problem.")
    title: str
    status: int
    detail: str
    instance: str | None = Field(default=None, description="The path of the request.")
    request_id: str | None = Field(default=None, description="The request's X-Request-ID.")
    errors: list[ProblemError] | None = None


#: kind -> (status, title): every problem type the service returns, for the docs and the OpenAPI.
KINDS: dict[str, tuple[int, str]] = {
    "malformed-json": (400, "The body is not valid JSON"),
    "not-found": (404, "No such resource"),
    "method-not-allowed": (405, "Method not allowed"),
    "payload-too-large": (413, "The request body is too large"),
    "unsupported-media-type": (415, "The body must be JSON"),
    "validation-error": (422, "The request does not match the schema"),
    "invalid-request": (422, "The request is not consistent"),
    "dice-script": (422, "The scripted dice cannot be used"),
    "dice-exhausted": (422, "The scripted dice ran out"),
    "limit-exceeded": (422, "A limit of the service was exceeded"),
    "illegal-decision": (422, "The decision is not legal at this point"),
    "unresolvable": (422, "The request cannot be resolved as written"),
    "internal-error": (500, "Internal server error"),
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
        body["errors"] = list(errors)
    return body


def encode(body: dict[str, Any]) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


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
    errors = [
        {"loc": ["body", *err["loc"]], "msg": _message(err), "type": err["type"]} for err in details
    ]
    first = errors[0]
    where = ".".join(str(p) for p in first["loc"][1:]) or "body"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return problem("validation-error", f"{where}: {first['msg']}{more}", errors=errors)


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
