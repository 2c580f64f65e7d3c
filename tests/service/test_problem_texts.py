"""Problems in the table's language (issue 47, item 3; ``service/problem_texts.py``): every kind of
problem the service answers, sent in every language, comes back with ``Content-Language`` and its
title, detail and field messages in that language (each marked with the language it is in), the
request's ``lang`` before ``Accept-Language``; the error types our request models can produce are
each translated (found by refusing mutations of every operation's examples); the catalogs hold
exactly their source's texts, translated, and are what ``make catalogs-problems`` writes.
"""

from __future__ import annotations

import copy
import io
import json
import re
import string
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from pydantic import ValidationError

from rules.errors import InvalidRequest
from rules.narration import FSI, LANGUAGES, PDI, RTL
from rules.registry import SYSTEMS
from service import problem_catalog, problem_texts, problems
from service.lanes import CpuLimit
from service.problem_texts import DEFAULT, localized
from tests.conftest import Api, assert_problem
from tests.service import engine_messages, engine_refusals

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != DEFAULT)
ATTACK = {
    "attacker": {"dexterity": 20, "skill": 2, "weapon": {"kind": "melee", "damage": 4}},
    "defender": {"dexterity": 10, "hp": 12, "max_hp": 12},
}


def plain(text: str) -> str:
    return text.replace(FSI, "").replace(PDI, "")


@cache
def api() -> Api:
    return Api(log_level="warning", body_limit=4096, cors_origins="https://table.example")


def told(response: Any, lang: str, status: int, kind: str) -> dict[str, Any]:
    """The problem, told in ``lang``: its header, its title in the language, its detail and every
    error's message marked with theirs (in ``lang`` where the catalog has them)."""
    body = assert_problem(response, status, kind)
    assert response.headers["content-language"] == lang, response.headers
    assert "Accept-Language" in response.headers["vary"]
    assert body["lang"] == lang
    english = problems.KINDS[kind][1]
    assert (body["title"] != english) == (lang != DEFAULT), body["title"]
    for error in body.get("errors") or []:
        assert error["lang"] in (lang, DEFAULT), error
    return body


def in_every_language(
    method: str, path: str, status: int, kind: str, **kwargs: Any
) -> Iterator[dict[str, Any]]:
    given = kwargs.pop("headers", {})
    for lang in LANGUAGES:
        headers = {**given, "accept-language": lang}
        response = api().request(method, path, headers=headers, **kwargs)
        body = told(response, lang, status, kind)
        assert body["detail_lang"] == lang, body  # the service's own detail: always translated
        yield body


# ---------------------------------------------------------------- every kind, in every language


def test_not_found_and_method_not_allowed() -> None:
    assert len(list(in_every_language("GET", "/no/such/thing", 404, "not-found"))) == 4
    assert len(list(in_every_language("GET", "/dos/attack", 405, "method-not-allowed"))) == 4


def test_not_json_and_malformed_json() -> None:
    headers = {"content-type": "text/plain"}
    for _ in in_every_language(
        "POST", "/dos/attack", 415, "unsupported-media-type", content=b"{}", headers=headers
    ):
        pass
    for body in ("", "{", "[1,]", '{"a":1}x', '{"a" 1}', '{"a":"\\q"}', "[1 2]", "{1:2}"):
        for told_ in in_every_language(
            "POST",
            "/dos/attack",
            400,
            "malformed-json",
            content=body.encode(),
            headers={"content-type": "application/json"},
        ):
            assert all(e["lang"] == told_["lang"] for e in told_["errors"]), (body, told_)


def test_duplicate_key_and_a_body_too_large() -> None:
    duplicated = json.dumps(ATTACK).replace('{"attacker"', '{"seed": 1, "seed": 2, "attacker"', 1)
    json_type = {"content-type": "application/json"}
    list(
        in_every_language(
            "POST",
            "/dos/attack",
            422,
            "duplicate-key",
            content=duplicated.encode(),
            headers=json_type,
        )
    )
    big = json.dumps({**ATTACK, "seed": "x" * 5000}).encode()
    list(
        in_every_language(
            "POST", "/dos/attack", 413, "payload-too-large", content=big, headers=json_type
        )
    )


def test_a_refused_cors_preflight() -> None:
    headers = {"origin": "https://elsewhere.example", "access-control-request-method": "POST"}
    for body in in_every_language(
        "OPTIONS", "/dos/attack", 400, "preflight-refused", headers=headers
    ):
        assert "Origin" in api().request("OPTIONS", "/dos/attack", headers=headers).headers["vary"]
        assert body["detail"]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_lanes_and_last_resort_problems(lang: str) -> None:
    """The problems the heavy lane and the last resort make, as they make them."""
    made = [
        problems.cpu_limit(CpuLimit(2.0)),
        problems.problem(
            "overloaded",
            "every worker of the heavy lane is busy and its queue is full: try again in 3 s",
        ),
        problems.problem(
            "shutting-down",
            "the service is shutting down and stopped this request before its answer: send it again",
        ),
        problems.problem(
            "shutting-down",
            "the service is shutting down and takes no more work: send the request again",
        ),
        problems.problem("internal-error", problems.INTERNAL_ERROR),
    ]
    for body in made:
        out = localized(body, lang)
        assert out["detail_lang"] == lang and out["detail"] != body["detail"], out
        assert all(e["lang"] == lang for e in out.get("errors") or []), out


#: An id listed twice, told: (the detail, the field message) in each language.
TWICE = {
    "pl": "powtórzony identyfikator '{id}': ma go już {where}[{index}]",
    "fi": "toistuva tunniste '{id}': se on jo kohdassa {where}[{index}]",
    "ar": "المعرّف '{id}' مكرَّر: يحمله \u2068{where}[{index}]\u2069 من قبل",
}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_an_engine_refusal_is_told_in_the_language(lang: str) -> None:
    """The engine's own sentences (an id listed twice) are told too, their values as written (in
    isolates in Arabic); a sentence no template has stays English, and says so."""
    twice = {"lang": lang, "combatants": [{"id": "k1", "speed": 9}, {"id": "k1", "speed": 9}]}
    body = told(api().post("/dos/initiative", twice), lang, 422, "invalid-request")
    written = {"id": "k1", "where": "combatants", "index": "0"}
    if lang in RTL:
        written = {k: f"{FSI}{v}{PDI}" for k, v in written.items()}
    expected = TWICE[lang].format(**written)
    assert body["detail_lang"] == lang and body["detail"] == expected, body
    assert body["errors"] == [
        {"loc": ["body", "combatants", 1, "id"], "msg": expected, "lang": lang}
    ], body
    unknown = problems.from_rules_error(InvalidRequest.at(("x",), "a sentence of no template"))
    out = localized(unknown, lang)
    assert out["detail_lang"] == DEFAULT and out["detail"] == "a sentence of no template", out
    assert out["errors"][0]["lang"] == DEFAULT, out


def test_a_text_longer_than_a_problem_reads_stays_english() -> None:
    """A template's pattern may take a text's length squared to read it back: a text of more than
    ``LONGEST`` characters (a notation's error quoting what its data references made of a 60 KB
    body) is not read, and stays English, on the event loop in no time; a long one within it is
    told."""
    assert problem_texts.LONGEST == problems.MAX_TEXT  # a text cut to show is not read either
    read = " (in 'x', its data references replaced) ("
    for n, lang in ((20, "pl"), (1500, DEFAULT)):
        msg = f"notation: column 9: a notation has at most 500 characters (in '{read * n}', its data references replaced)"
        assert (len(msg) > problem_texts.LONGEST) == (lang == DEFAULT)
        out = localized(problems.from_rules_error(InvalidRequest.at(("notation",), msg)), "pl")
        assert out["detail_lang"] == lang and out["errors"][0]["lang"] == lang, out["detail"][:80]


# ---------------------------------------------------------------- which language


def test_the_requests_lang_wins_over_accept_language_and_a_bad_one_is_passed_over() -> None:
    bad = {**ATTACK, "attacker": {**ATTACK["attacker"], "dexterity": "high"}}
    fi = {"accept-language": "fi"}
    assert (
        api().post("/dos/attack", {**bad, "lang": "ar"}, headers=fi).headers["content-language"]
        == "ar"
    )
    assert api().post("/dos/attack", bad, headers=fi).headers["content-language"] == "fi"
    refused = api().post("/dos/attack", {**bad, "lang": "xx"}, headers=fi)
    assert told(refused, "fi", 422, "validation-error")["errors"]
    assert api().post("/dos/attack", bad).headers["content-language"] == "en"
    english = api().post("/dos/attack", bad).json()
    assert english["detail_lang"] == "en" and english["lang"] == "en"
    assert english["title"] == problems.KINDS["validation-error"][1]


def test_a_validation_error_is_told_in_one_language() -> None:
    bad = {**ATTACK, "lang": "pl", "attacker": {**ATTACK["attacker"], "dexterity": 10**9}}
    body = told(api().post("/dos/attack", bad), "pl", 422, "validation-error")
    assert body["title"] == "Żądanie nie zgadza się ze schematem"
    assert body["detail"] == "attacker.dexterity: Wartość musi być mniejsza lub równa 1000000"
    assert body["errors"][0] | {"lang": "pl"} == body["errors"][0]
    arabic = told(api().post("/dos/attack", {**bad, "lang": "ar"}), "ar", 422, "validation-error")
    assert f"{FSI}1000000{PDI}" in arabic["errors"][0]["msg"]  # a value isolated in Arabic
    # several errors: the first in the detail, the count of the others in the language's words
    worse = {**bad, "defender": {"hp": "many"}, "extra": 1}
    for lang in TRANSLATED:
        several = told(
            api().post("/dos/attack", {**worse, "lang": lang}), lang, 422, "validation-error"
        )
        assert len(several["errors"]) > 2 and several["detail_lang"] == lang, several
        assert all(e["lang"] == lang for e in several["errors"]), several


# ---------------------------------------------------------------- every error type our models give


def _examples() -> Iterator[tuple[type[Any], dict[str, Any]]]:
    for system in SYSTEMS:
        for endpoint in system.endpoints:
            for example in endpoint.examples.values():
                yield endpoint.request, example


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*path, i))


#: What each field is replaced with to refuse it: every kind of JSON value, and out of its bounds.
BAD: tuple[Any, ...] = ("x", True, 1.5, -(10**9), 10**9, [], {}, None, "", "x" * 300, [1] * 300)


def _mutations(example: dict[str, Any]) -> Iterator[Any]:
    for path in list(_paths(example))[1:]:
        for value in (*BAD, ...):
            body = copy.deepcopy(example)
            node = body
            for key in path[:-1]:
                node = node[key]
            if value is ...:
                del node[path[-1]]
            else:
                node[path[-1]] = value
            yield body
    yield {**example, "unknown": 1}
    yield [example]


@cache
def refusals() -> dict[str, list[dict[str, Any]]]:
    """Every error type the request models give a refused mutation of an example, with them."""
    found: dict[str, list[dict[str, Any]]] = {}
    for model, example in _examples():
        for body in _mutations(example):
            try:
                model.model_validate_json(json.dumps(body))
            except ValidationError as exc:
                for error in problems.from_validation_error(exc)["errors"]:
                    found.setdefault(error["type"], []).append(error)
    return found


def test_every_error_type_our_requests_give_is_translated() -> None:
    """The types the models produce are those the catalog has (a model's own check, ``value_error``,
    among them): a new kind of refusal fails here until it is given its texts."""
    types = set(refusals())
    assert types - set(problem_texts.ERROR) == set()
    assert {"missing", "extra_forbidden", "int_type", "less_than_equal", "literal_error"} <= types


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_refusal_of_a_translated_type_is_told_in_the_language(lang: str) -> None:
    """Each English message the models give is read back by its template (its values found) and
    told in the language: a change of pydantic's or a model's words fails here."""
    for kind, errors in refusals().items():
        for error in errors[:25]:
            out = localized({**problems.problem("validation-error", "x"), "errors": [error]}, lang)
            assert out["errors"][0]["lang"] == lang, (kind, error["msg"])


# ---------------------------------------------------------------- the catalogs


def named(text: str) -> set[str]:
    """The values a text shows (a term such as "expected `,` or `}`" shows none)."""
    return set(re.findall(r"\{(\w+)\}", text))


def po(lang: str) -> Any:
    with open(problem_texts.LOCALE_DIR / lang / "LC_MESSAGES" / "problems.po", "rb") as f:
        return read_po(f, locale=lang)


@cache
def source() -> dict[str, Any]:
    return {
        context: message
        for _, _, (context, *message), _ in problem_catalog.extract(io.BytesIO(), None, None, None)
    }


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_catalog_holds_the_source_texts_all_translated_with_their_fields(lang: str) -> None:
    catalog = po(lang)
    assert {m.context for m in catalog if m.id} == source().keys()
    for message in catalog:
        if not message.id:
            continue
        english = source()[message.context]
        assert (message.id if isinstance(message.id, tuple) else (message.id,)) == tuple(english)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings) and not message.fuzzy, message.context
        allowed = set().union(*(named(e) for e in english))
        for text in strings:
            assert named(text) <= allowed, f"{lang} {message.context}: {text!r}"


def test_the_template_and_the_compiled_catalogs_are_current(tmp_path: Path) -> None:
    out = tmp_path / "problems.pot"
    subprocess.run(
        [
            str(Path(sys.executable).with_name("pybabel")),
            *("-q", "extract", "-F", "babel-problems.cfg", "--add-comments=TRANSLATORS:"),
            *("--no-location", "--omit-header", "--sort-output", "-o", str(out), "."),
        ],
        cwd=ROOT,
        check=True,
    )
    assert out.read_text() == (problem_texts.LOCALE_DIR / "problems.pot").read_text()
    for lang in TRANSLATED:
        buffer = io.BytesIO()
        write_mo(buffer, po(lang))
        mo = problem_texts.LOCALE_DIR / lang / "LC_MESSAGES" / "problems.mo"
        assert buffer.getvalue() == mo.read_bytes(), "run `make catalogs-problems`"


# ---------------------------------------------------------------- the engine's own messages


def _shape(english: str) -> tuple[re.Pattern[str], list[str]]:
    """A template as a pattern over the engine's formats (``engine_messages``): a value a ``{}``,
    a field that is a text of its own (:data:`problem_texts.FIELDS`, and a prefix's ``msg``) any
    part, to be checked in turn; and the names of those fields, by group."""
    parts: list[str] = []
    nested: list[str] = []
    for literal, name, _, _ in string.Formatter().parse(english):
        parts.append(re.escape(engine_messages.escaped(literal)))
        if name is None:
            continue
        spec = problem_texts.FIELDS.get(name)
        if name != "msg" and (spec is None or (spec.texts is None and not spec.raw)):
            parts.append(r"\{\}")
        else:
            parts.append(f"(?P<f{len(nested)}>.*?)")
            nested.append(name)
    return re.compile("".join(parts) + r"\Z", re.DOTALL), nested


ALL_TEXTS = (
    *problem_texts.ERRORS,
    *problem_texts.CHECKS,
    *problem_texts.PREFIXES,
    *problem_texts.ENGINE_PIECES,
)


def covered(found: str, texts: tuple[problem_texts.Text, ...] = ALL_TEXTS) -> bool:
    """Whether a format the engine writes is one of ``texts``' templates, each part of it that is
    a text of its own one of its table's (or a value written as it is, where the field says)."""
    for t in texts:
        for english in dict.fromkeys((t.text, t.plural or t.text)):
            compiled, nested = _shape(english)
            match = compiled.match(found)
            if match is not None and all(
                _part(name, match.group(f"f{i}")) for i, name in enumerate(nested)
            ):
                return True
    return False


def _part(name: str, found: str) -> bool:
    if name == "msg":  # a model's prefix: "combatant '{id}': {msg}"
        return found == "{}" or covered(found)
    spec = problem_texts.FIELDS[name]
    if found == "{}" or spec.raw:
        return True
    assert spec.texts is not None
    items = found.split(spec.split) if spec.split else [found]
    return all(i == "{}" or covered(i, problem_texts.TEXTS[spec.texts]) for i in items)


#: The pieces that are the request's own words and stay as written: a field's name in a budget's
#: count ("pool = 60 base dice"), a modifier's name ("expected the value cs compares with"), the
#: list a duplicate id is found in ("combatants[0] already has it").
WRITTEN = frozenset({"pool", "skill", "a.skill + b.skill", "cs", "cf", "f", "combatants"})


def test_every_message_the_engine_writes_has_its_template() -> None:
    """Each message a raise site of ``rules/`` can give, found in the source, is a template of the
    catalog (its parts that are texts of their own too): a new raise site, or a changed wording,
    fails here until its template follows."""
    found = engine_messages.find()
    assert len(found.sinks) > 200, len(found.sinks)  # the walk finds them
    missing = {f: where for f, where in found.sinks.items() if not covered(f)}
    missing |= {
        f: where for f, where in found.pieces.items() if f not in WRITTEN and not covered(f)
    }
    assert not missing, "\n".join(f"{where}: {f}" for f, where in sorted(missing.items()))


def test_the_walk_finds_a_new_raise_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above fails for a raise site it has no template for."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "new.py").write_text(
        "def check(n):\n"
        "    what = 'the pool' if n else 'the skill'\n"
        "    raise InvalidRequest.at(('pool',), f'{what} holds {n} dice, a new refusal')\n"
    )
    monkeypatch.setattr(engine_messages, "ROOT", tmp_path)
    monkeypatch.setattr(engine_messages, "RULES", tmp_path / "rules")
    found = engine_messages.find()
    assert set(found.sinks) == {
        "the pool holds {} dice, a new refusal",
        "the skill holds {} dice, a new refusal",
    }
    assert not any(covered(f) for f in found.sinks)


@cache
def apps() -> dict[str, Api]:
    big = 1024 * 1024
    return {
        "default": Api(log_level="warning", body_limit=big),
        "tight": Api(log_level="warning", max_dice=1),
        "loose": Api(log_level="warning", max_dice=10_000_000, body_limit=big),
        "none": Api(log_level="warning", max_dice=0),
    }


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """The contexts of the texts the catalogs tell, as they tell them."""
    contexts: set[str] = set()
    say = problem_texts.Catalog.say

    def recorded(self: problem_texts.Catalog, known: problem_texts.Text, *args: Any) -> str | None:
        told = say(self, known, *args)
        if told is not None:
            contexts.add(known.context)
        return told

    monkeypatch.setattr(problem_texts.Catalog, "say", recorded)
    return contexts


ENGINE_CONTEXTS = frozenset(
    t.context for t in (*problem_texts.CHECKS, *problem_texts.ENGINE_PIECES)
) | {"prefix=combatant"}


def _unisolated(text: str) -> str:
    """``text`` without what its isolates hold."""
    return re.sub(f"{FSI}[^{FSI}{PDI}]*{PDI}", "", re.sub(f"{FSI}[^{FSI}{PDI}]*{PDI}", "", text))


def test_every_engine_message_is_told_in_every_language(said: set[str]) -> None:
    """Each request of ``engine_refusals`` refused in every language: its detail and every error
    told in the language, by the template the case names among the others; in Arabic no Latin
    letter or digit outside its isolates. Together they reach every template of the engine's but
    those ``UNREACHED`` lists (and those none)."""
    reached: set[str] = set()
    for case in engine_refusals.CASES:
        for lang in LANGUAGES:
            said.clear()
            response = apps()[case.app].post(
                case.path, case.body, headers={"accept-language": lang}
            )
            assert 400 <= response.status_code < 500, (case, response.text)
            body = response.json()
            assert response.headers["content-language"] == lang, case
            texts = [body["detail"], *(e["msg"] for e in body.get("errors") or [])]
            assert body["detail_lang"] == lang, (case, lang, texts)
            assert all(e["lang"] == lang for e in body.get("errors") or []), (case, lang, texts)
            if lang == DEFAULT:
                continue
            assert case.context in said, (case.context, lang, texts, said)
            reached |= said
            if lang in RTL:
                for text in texts:
                    assert not re.search("[A-Za-z0-9]", _unisolated(text)), (case.context, text)
    engine = ENGINE_CONTEXTS
    assert engine - reached == set(engine_refusals.UNREACHED), sorted(engine - reached)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_message_no_request_reaches_is_told_too(lang: str, said: set[str]) -> None:
    for context, (_, english, *kind) in engine_refusals.UNREACHED.items():
        said.clear()
        error = {"loc": ["body"], "msg": english, **({"type": kind[0]} if kind else {})}
        body = problems.problem("invalid-request", english, errors=[error])
        out = localized(body, lang)
        assert out["errors"][0]["lang"] == lang, (context, out)
        assert context in said, (context, said)
