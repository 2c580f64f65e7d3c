"""Problems in the reader's language: a problem's title, its detail and its field messages told in
the language of the request (its ``lang`` when the body can be read, else ``Accept-Language``),
from a gettext domain of their own, ``problems`` (``service/locale/<lang>/LC_MESSAGES/problems.po``).

A problem is built in English where it happens (``service.problems``, pydantic, the middleware);
:func:`localized` tells it again in the reader's language just before it is sent, from its kind
and its English texts: each English text of the catalog is a template (``no resource at {path};
...``) that is matched against the problem's text to read its values back, then the language's
template is filled with them (a value that is itself a text of the catalog, such as the field
message inside a validation error's detail or the JSON parser's reason, is told in the language
too). A text no template matches stays English. So the English texts stay where they are written,
and a change of wording there leaves that text English until its template here follows (a test
sends every kind of problem and checks each is told in every language).

The problem says which language each text is in: ``lang`` (the language of the answer, as
``Content-Language`` says: its ``title`` is always in it), ``detail_lang`` (its ``detail``'s) and
each error's ``lang`` (its ``msg``'s): a client shows them in one language and marks the English
ones (``lang="en"``). The engine's own refusals (an unknown id, a rule's limit) are developers'
texts and stay English, their titles translated.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

import orjson
from babel.lists import format_list

from rules.narration import DEFAULT, FSI, LANGUAGES, PDI, RTL
from service.language import negotiate

DOMAIN: Final = "problems"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
#: Scope key: the request's raw body, noted where the route reads it (``service.routing``).
BODY_KEY: Final = "dragonroll.body"


@dataclass(frozen=True, slots=True)
class Text:
    """One text of the catalog: its context (the key), its English template, and for a counted
    one its English plural and the value whose number chooses the form."""

    context: str
    text: str
    plural: str | None = None
    count: str | None = None


def text(context: str, english: str) -> Text:
    return Text(context, english)


def counted(context: str, one: str, many: str, count: str) -> Text:
    return Text(context, one, many, count)


#: The details the service writes (``service.problems``, the middleware), by kind (a variant after
#: ``|``): each is matched in that order, the first that fits is the one.
DETAILS: Final = (
    text("detail=not-found", "no resource at {path}; see /docs for the endpoints"),
    text(
        "detail=method-not-allowed|allowed", "{method} is not allowed on {path}; allowed: {allowed}"
    ),
    text("detail=method-not-allowed", "{method} is not allowed on {path}"),
    text("detail=payload-too-large", "the request body is larger than the limit of {limit} bytes"),
    text(
        "detail=unsupported-media-type",
        "Content-Type {content_type} is not JSON: send 'Content-Type: application/json'",
    ),
    text(
        "detail=unsupported-media-type|none",
        "the request has no Content-Type: send 'Content-Type: application/json'",
    ),
    text("detail=duplicate-key", "the key {key} appears twice in one object: send each key once"),
    text(
        "detail=cpu-limit",
        "the request took more than {seconds} s of CPU time, the limit of one request "
        "(DRAGONROLL_JOB_CPU_SECONDS), and was stopped: ask for less (fewer dice, values, items or "
        "runs)",
    ),
    text(
        "detail=overloaded",
        "every worker of the heavy lane is busy and its queue is full: try again in {seconds} s",
    ),
    text(
        "detail=overloaded|share",
        "this client already has as many heavy requests running and waiting as its share of the"
        " heavy lane allows: send fewer at once, or try again in {seconds} s",
    ),
    text(
        "detail=shutting-down|started",
        "the service is shutting down and stopped this request before its answer: send it again",
    ),
    text(
        "detail=shutting-down",
        "the service is shutting down and takes no more work: send the request again",
    ),
    text(
        "detail=internal-error",
        "the service failed to resolve this request; the error was logged with its request id",
    ),
    text(
        "detail=preflight-refused",
        "this preflight is refused ({refused}); see docs/operations.md, CORS",
    ),
    text("detail=malformed-json", "the body is not valid JSON: {reason}"),
    counted(
        "detail=validation-error|more",
        "{where}: {msg} (and {more} more)",
        "{where}: {msg} (and {more} more)",
        "more",
    ),
    text("detail=validation-error", "{where}: {msg}"),
)

#: A field's message by its error ``type`` (pydantic's, with the service's words where it has its
#: own, ``service.problems``; the models' own types). ``value_error`` (a model's own check) stays
#: English: each is a sentence of its own.
ERRORS: Final = (
    text("error=missing", "required field is missing"),
    text("error=extra_forbidden", "unknown field: it is not part of this request's schema"),
    text("error=model_type", "Input should be an object"),
    text("error=dict_type", "Input should be an object"),
    text("error=list_type", "Input should be a valid array"),
    # a model that validates its parts itself (``rules.dos.models.NamedCombatant``): Python's word
    text("error=list_type|python", "Input should be a valid list"),
    text("error=string_type", "Input should be a valid string"),
    text("error=int_type", "Input should be a valid integer"),
    text(
        "error=int_from_float",
        "Input should be a valid integer, got a number with a fractional part",
    ),
    text(
        "error=int_parsing", "Input should be a valid integer, unable to parse string as an integer"
    ),
    text("error=bool_type", "Input should be a valid boolean"),
    text("error=float_type", "Input should be a valid number"),
    text("error=literal_error", "Input should be {expected}"),
    text("error=greater_than_equal", "Input should be greater than or equal to {ge}"),
    text("error=less_than_equal", "Input should be less than or equal to {le}"),
    text("error=greater_than", "Input should be greater than {gt}"),
    text("error=less_than", "Input should be less than {lt}"),
    counted(
        "error=string_too_short",
        "String should have at least {min_length} character",
        "String should have at least {min_length} characters",
        "min_length",
    ),
    counted(
        "error=string_too_long",
        "String should have at most {max_length} character",
        "String should have at most {max_length} characters",
        "max_length",
    ),
    counted(
        "error=too_short",
        "List should have at least {min_length} item after validation, not {actual_length}",
        "List should have at least {min_length} items after validation, not {actual_length}",
        "min_length",
    ),
    counted(
        "error=too_long",
        "List should have at most {max_length} item after validation, not {actual_length}",
        "List should have at most {max_length} items after validation, not {actual_length}",
        "max_length",
    ),
    text("error=string_pattern_mismatch", "String should match pattern '{pattern}'"),
    text(
        "error=union_tag_invalid", "{discriminator} is '{tag}', which is not one of {expected_tags}"
    ),
    text(
        "error=union_tag_not_found",
        "the field {discriminator} is missing: it says which kind this is",
    ),
    text("error=json_invalid", "Invalid JSON: {reason}"),
    text("error=duplicate_key", "the key {key} appears twice in one object: send each key once"),
    text(
        "error=cpu_limit",
        "the request took more than {seconds} s of CPU time, the limit of one request "
        "(DRAGONROLL_JOB_CPU_SECONDS), and was stopped: ask for less (fewer dice, values, items or "
        "runs)",
    ),
    text(
        "error=seed_invalid",
        "a seed is 1-128 printable ASCII characters (space included) or an integer within "
        "+-9007199254740991; send a larger integer as a string",
    ),
    text("error=edge_invalid", "true, false, or a number of sources from 0 to 100"),
    text(
        "error=text_unshowable",
        "U+{code} at position {at}: free text takes no control characters and no bidi "
        "embeddings or overrides",
    ),
    text("error=foundry_none", "this system has no Foundry rolls: leave out `foundry`"),
    text(
        "error=odds_no_dice",
        "odds draw no dice: leave out `seed` and `dice` (send them to the resolving endpoint)",
    ),
    text(
        "error=odds_shape",
        "the body fits none of this endpoint's questions, or more than one: it takes {accepted}",
    ),
)
#: A prefix a model puts before a field's message ("combatant 'k1': ..."), told with it.
PREFIXES: Final = (text("prefix=combatant", "combatant '{id}': {msg}"),)
#: The JSON parser's reasons ("EOF while parsing a value at line 1 column 0"): the place, and what.
JSON: Final = (
    text("json", "{what} at line {line} column {column}"),
    text("json=eof_value", "EOF while parsing a value"),
    text("json=eof_object", "EOF while parsing an object"),
    text("json=eof_list", "EOF while parsing a list"),
    text("json=eof_string", "EOF while parsing a string"),
    text("json=expected_value", "expected value"),
    text("json=expected_ident", "expected ident"),
    text("json=expected_colon", "expected `:`"),
    text("json=expected_list_comma", "expected `,` or `]`"),
    text("json=expected_object_comma", "expected `,` or `}`"),
    text("json=key_string", "key must be a string"),
    text("json=trailing_comma", "trailing comma"),
    text("json=trailing_characters", "trailing characters"),
    text("json=invalid_escape", "invalid escape"),
    text("json=invalid_number", "invalid number"),
    text("json=number_range", "number out of range"),
    text("json=invalid_code_point", "invalid unicode code point"),
    text(
        "json=control_character", "control character (\\u0000-\\u001F) found while parsing a string"
    ),
    text("json=recursion", "recursion limit exceeded"),
    text("json=lone_surrogate", "lone leading surrogate in hex escape"),
    text("json=hex_escape_end", "unexpected end of hex escape"),
)


# ---------------------------------------------------------------- reading an English text back

_FIELD: Final = re.compile(r"\{(\w+)\}")


def pattern(english: str) -> re.Pattern[str]:
    """The English template as a pattern that reads its values back: each ``{name}`` any text
    (the shortest that fits), the rest as written."""
    parts: list[str] = []
    last = 0
    for match in _FIELD.finditer(english):
        parts.append(re.escape(english[last : match.start()]))
        parts.append(f"(?P<{match.group(1)}>.*?)")
        last = match.end()
    parts.append(re.escape(english[last:]))
    return re.compile("".join(parts) + r"\Z", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Known:
    """The texts of one table, each with the patterns of its English forms, in order."""

    texts: tuple[tuple[Text, tuple[re.Pattern[str], ...]], ...]

    def read(self, english: str) -> tuple[Text, dict[str, str]] | None:
        """The first text whose English fits, and its values; ``None`` when none fits."""
        for known, patterns in self.texts:
            for compiled in patterns:
                match = compiled.match(english)
                if match is not None:
                    return known, match.groupdict()
        return None


def known(texts: tuple[Text, ...] | list[Text]) -> Known:
    return Known(
        tuple(
            (t, tuple(pattern(form) for form in dict.fromkeys((t.text, t.plural or t.text))))
            for t in texts
        )
    )


def table(texts: tuple[Text, ...], prefix: str) -> dict[str, Known]:
    """``texts`` by the key after ``prefix`` (a kind, an error type), variants with their kind."""
    grouped: dict[str, list[Text]] = {}
    for t in texts:
        grouped.setdefault(t.context.removeprefix(prefix).split("|", 1)[0], []).append(t)
    return {key: known(found) for key, found in grouped.items()}


DETAIL: Final = table(DETAILS, "detail=")
ERROR: Final = table(ERRORS, "error=")
PREFIX: Final = known(PREFIXES)
#: The parser's reasons by their English, and the place around them.
REASONS: Final = {t.text: t for t in JSON if "=" in t.context}
PLACE: Final = known([t for t in JSON if "=" not in t.context])


# ---------------------------------------------------------------- one language's catalog

#: What a lookup gives for a text the language's catalog does not have (it stays English).
_MISSING: Final = "\x00missing"


class _Untranslated(gettext.NullTranslations):
    """The catalog's fallback: says that a text is missing rather than giving its English."""

    def pgettext(self, context: str, message: str) -> str:
        return _MISSING

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return _MISSING


@dataclass(frozen=True, slots=True)
class Catalog:
    """One language's problem texts."""

    lang: str
    tr: gettext.NullTranslations

    def say(self, known: Text, values: Mapping[str, str]) -> str | None:
        """``known`` in this language with ``values``; ``None`` when the catalog lacks it."""
        if known.plural is None:
            template = self.tr.pgettext(known.context, known.text)
        else:
            count = int(values[known.count or ""]) if values[known.count or ""].isdigit() else 2
            template = self.tr.npgettext(known.context, known.text, known.plural, count)
        if template is _MISSING:
            return None
        if self.lang in RTL:  # each value in isolates, as the events' texts are (rules.narration)
            values = {k: f"{FSI}{v}{PDI}" for k, v in values.items()}
        return template.format(**values)

    def term(self, context: str, english: str) -> str | None:
        found = self.tr.pgettext(context, english)
        return None if found is _MISSING else found


@cache
def catalog(lang: str) -> Catalog | None:
    """``lang``'s compiled catalog (``service/locale/<lang>/LC_MESSAGES/problems.mo``), read once;
    ``None`` for English (the source) or a language without one."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if lang == DEFAULT or not path.exists():
        return None
    with open(path, "rb") as f:
        tr = gettext.GNUTranslations(f)
    tr.add_fallback(_Untranslated())
    return Catalog(lang, tr)


# ---------------------------------------------------------------- a problem, told again


def language(scope: Mapping[str, Any]) -> str:
    """The language a problem is told in: the request's ``lang`` when its body (noted under
    :data:`BODY_KEY`) is JSON with a known one, else what ``Accept-Language`` prefers."""
    raw = scope.get(BODY_KEY)
    if isinstance(raw, bytes) and raw:
        try:
            parsed = orjson.loads(raw)
        except orjson.JSONDecodeError:
            parsed = None
        lang = parsed.get("lang") if isinstance(parsed, dict) else None
        if isinstance(lang, str) and lang in LANGUAGES:
            return lang
    header = next((v for k, v in scope.get("headers", ()) if k == b"accept-language"), b"")
    return negotiate(header)


def headers(lang: str, given: Mapping[str, str] | None = None) -> dict[str, str]:
    """A problem's response headers: ``given``, its language, and that it depends on the header."""
    out = dict(given or {})
    vary = out.get("vary")
    out["vary"] = f"{vary}, Accept-Language" if vary else "Accept-Language"
    out["content-language"] = lang
    return out


def localized(body: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """``body`` (a problem, in English) told in ``lang``: its title, its detail and its errors'
    messages where the catalog has them, each marked with the language it is in."""
    out = dict(body)
    out["lang"] = lang
    cat = catalog(lang)
    errors = body.get("errors")
    told = [_error(e, cat) for e in errors] if isinstance(errors, list) else None
    if told is not None:
        out["errors"] = told
    out["detail_lang"] = DEFAULT
    if cat is None:
        return out
    kind = str(body.get("type", "")).rsplit("/", 1)[-1]
    title = cat.term(f"title={kind}", str(body.get("title", "")))
    if title is not None:
        out["title"] = title
    english = dict(zip((str(e.get("msg")) for e in errors or ()), told or (), strict=False))
    detail = _detail(kind, str(body.get("detail", "")), english, cat)
    if detail is not None:
        out["detail"], out["detail_lang"] = detail, lang
    return out


def _error(error: Any, cat: Catalog | None) -> Any:
    if not isinstance(error, dict):
        return error
    told = _message(str(error.get("msg", "")), error.get("type"), cat) if cat else None
    if told is None or cat is None:
        return {**error, "lang": DEFAULT}
    return {**error, "msg": told, "lang": cat.lang}


def _message(msg: str, kind: Any, cat: Catalog) -> str | None:
    """A field's message of type ``kind`` in the catalog's language (``None``: it stays English);
    a model's prefix ("combatant 'k1': ") told with it."""
    texts = ERROR.get(kind) if isinstance(kind, str) else None
    if texts is None:
        return None
    prefixed = PREFIX.read(msg)
    if prefixed is not None:
        inner = _message(prefixed[1]["msg"], kind, cat)
        return None if inner is None else cat.say(prefixed[0], {**prefixed[1], "msg": inner})
    found = texts.read(msg)
    if found is None:
        return None
    values = _values(found[1], cat)
    return None if values is None else cat.say(found[0], values)


def _detail(kind: str, detail: str, errors: Mapping[str, Any], cat: Catalog) -> str | None:
    texts = DETAIL.get(kind)
    found = texts.read(detail) if texts is not None else None
    if found is None:
        return None
    values: dict[str, str] | None = dict(found[1])
    if "msg" in found[1]:  # a field's message: as its error is told
        error = errors.get(found[1]["msg"])
        if not isinstance(error, dict) or error.get("lang") != cat.lang:
            return None
        values = {**found[1], "msg": str(error["msg"])}
    values = _values(values, cat) if values is not None else None
    return None if values is None else cat.say(found[0], values)


def _values(values: Mapping[str, str], cat: Catalog) -> dict[str, str] | None:
    """Values read back, told in the language where they are texts themselves: the JSON parser's
    reason, a list of the values a field takes ("'a', 'b' or 'c'": the language's "or" list)."""
    out = dict(values)
    if "reason" in out:
        reason = _reason(out["reason"], cat)
        if reason is None:
            return None
        out["reason"] = reason
    if "expected" in out:
        items = re.findall(r"'[^']*'", out["expected"])
        if items:
            out["expected"] = format_list(items, style="or", locale=cat.lang)
    return out


def _reason(reason: str, cat: Catalog) -> str | None:
    found = PLACE.read(reason)
    what = REASONS.get(found[1]["what"]) if found is not None else None
    if found is None or what is None:
        return None
    told = cat.term(what.context, what.text)
    return None if told is None else cat.say(found[0], {**found[1], "what": told})
