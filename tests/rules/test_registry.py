"""The registry (``rules.registry``, STYLE 21): one list of systems, and everything kept outside the
code that lists them (the compiled modules, the docs' navigation, the bench's bodies, the files that
name the systems) checked against it."""

from __future__ import annotations

import importlib
import re
import subprocess
import tomllib
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import yaml

from rules.budget import NO_DICE
from rules.models import (
    Envelope,
    FoundryEnvelope,
    FoundryRollRequest,
    RollRequest,
    offers_foundry,
)
from rules.narration import sentence
from rules.odds import NoDice
from rules.registry import IDS, SHARED_COMPILED, SYSTEMS, compiled, find, having, served
from rules.system import ODDS_DOC, Capability, Endpoint, Odds, System, exact_odds
from service.app import create_app

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_a_system_is_its_package_s_descriptor(system: System) -> None:
    assert importlib.import_module(f"rules.{system.id}").SYSTEM is system
    assert find(system.id) is system


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_a_system_s_capabilities_are_what_its_descriptor_holds(system: System) -> None:
    has = system.capabilities
    assert (Capability.FOUNDRY in has) == (system.foundry is not None)
    assert (Capability.FOUNDRY in has) == any(e.foundry for e in system.endpoints)
    assert (Capability.ODDS in has) == bool(system.odds)
    assert (Capability.SIMULATE in has) == bool(system.simulations)
    assert (Capability.COUNTED in has) == any(m.plural for m in system.texts)
    for endpoint in system.endpoints:
        # a request offers `foundry` exactly where its endpoint says so, and its answer has it
        assert ("foundry" in endpoint.request.model_json_schema()["properties"]) == endpoint.foundry
        assert offers_foundry(endpoint.result) == endpoint.foundry
    for capability in Capability:
        assert (system in having(capability)) == system.has(capability)


def test_the_capabilities_today() -> None:
    # What these systems have (a change here is a change GET /systems shows); a system added to
    # the registry is not pinned here.
    today = {
        "dos": ["counted", "foundry", "gendered", "odds", "simulate"],
        "dragon": ["counted", "foundry", "gendered", "odds", "simulate"],
        "riders": ["counted", "foundry", "gendered", "odds", "simulate"],
        "dnd5e": ["counted", "foundry", "gendered", "odds"],
        "notation": ["counted", "foundry", "gendered", "odds"],
    }
    assert {s.id: sorted(s.capabilities) for s in SYSTEMS if s.id in today} == today


# ---------------------------------------------------------------- what a descriptor refuses


class _Plain(RollRequest):
    n: int = 1


class _PlainResult(Envelope):
    n: int


class _WithFoundry(FoundryRollRequest):
    n: int = 1


class _FoundryResult(FoundryEnvelope):
    n: int


class _PlainOdds(NoDice, _Plain):
    pass


def _resolve(req: Any, dice: Any) -> Any:
    return {}


def _endpoint(
    request: type = _Plain, result: type = _PlainResult, **given: Any
) -> Endpoint[Any, Any]:
    fields: dict[str, Any] = {
        "path": "/x",
        "summary": "x",
        "description": "x",
        "request": request,
        "result": result,
        "resolve": _resolve,
        "slots": lambda req: {},
        "slot_doc": "none",
        "work": lambda req: NO_DICE,
        "examples": {"one": {"seed": 1}},
        "outcome": ("x.done",),
    }
    return Endpoint(**{**fields, **given})


def _odds(**given: Any) -> Odds[Any, Any]:
    fields: dict[str, Any] = {
        "path": "/odds",
        "of": "/x",
        "summary": "x",
        "description": "x",
        "request": _PlainOdds,
        "result": dict,
        "answer": lambda req: {},
        "work": lambda req: NO_DICE,
        "examples": {"one": {"n": 2}},
    }
    return Odds(**{**fields, **given})


_HELPER: dict[str, Any] = {
    "work": lambda req: NO_DICE,
    "summary": "x",
    "description": "x",
    "examples": {},
}


def _unannotated(req: _PlainOdds):  # type: ignore[no-untyped-def]
    return {}


def _plain_odds(req: _PlainOdds) -> dict[str, int]:
    return {}


def _helper_odds(answer: Any) -> Odds[Any, Any]:
    return exact_odds(_PlainOdds, answer, path="/odds", of="/x", **_HELPER)


def test_the_odds_helper_reads_the_answer_s_model_from_its_function_and_ends_with_the_odds_doc() -> (
    None
):
    odds = exact_odds(
        _PlainOdds, partial(_plain_odds), path="/odds", of="/x", **{**_HELPER, "then": " Y."}
    )
    assert (odds.request, odds.result) == (_PlainOdds, dict[str, int])
    assert odds.description == f"x {ODDS_DOC} Y."
    assert [e.path for e in _system(_endpoint(), odds=(odds,)).entries()] == ["/x", "/odds"]


def _system(*endpoints: Endpoint[Any, Any], **given: Any) -> System:
    fields: dict[str, Any] = {
        "id": "x",
        "name": {"en": "X"},
        "rules_version": "x-1",
        "endpoints": endpoints,
        "texts": (sentence("x.done", "Done."),),
    }
    return System(**{**fields, **given})


def _pools(req: Any, result: Any, say: Any) -> list[Any]:
    return []


def test_a_system_with_foundry_pools_may_have_an_endpoint_without_foundry_rolls() -> None:
    plain = _system()
    assert plain.capabilities == frozenset()
    mixed = _system(_endpoint(_WithFoundry, _FoundryResult), _endpoint(path="/y"), foundry=_pools)
    assert [e.foundry for e in mixed.endpoints] == [True, False]
    assert Capability.FOUNDRY in mixed.capabilities


@pytest.mark.parametrize(
    ("build", "says"),
    [
        (
            lambda: _endpoint(_WithFoundry, _PlainResult),
            "base _PlainResult on rules.models.FoundryEnvelope",
        ),
        (lambda: _endpoint(_Plain, _FoundryResult), "base _FoundryResult on rules.models.Envelope"),
        (
            lambda: _system(_endpoint(_WithFoundry, _FoundryResult)),
            "offer `foundry` but the system has no Foundry pools",
        ),
        (lambda: _system(_endpoint(), foundry=_pools), "no endpoint offers `foundry`"),
        (lambda: _endpoint(work=None), "`work` must be a function"),
        (lambda: _odds(work=None), "`work` must be a function"),
        (lambda: _system(_endpoint(), rules_version="y-1"), "name its rules_version `x-<n>`"),
        (lambda: _system(_endpoint(), name={"pl": "X"}), "an English entry"),
        (lambda: _system(_endpoint(), texts=(sentence("y.done", "Done."),)), "under its own id"),
        (lambda: _system(_endpoint(), _endpoint()), "two entries at /x"),
        (lambda: _system(_endpoint(path="x")), "begin the path 'x' with `/`"),
        (lambda: _system(_endpoint(path="/x/{n}")), "take the parameter out of '/x/{n}'"),
        (lambda: _system(_endpoint(), odds=(_odds(of="/z"),)), "answers for '/z'"),
        (lambda: _system(_endpoint(outcome=("x.won",))), "its outcome 'x.won' is none of"),
        (lambda: _system(_endpoint(examples={"one": {"n": 1}})), "give the example 'one' a `seed`"),
        (lambda: _system(_endpoint(examples={"one": {"seed": 1, "m": 1}})), "not a valid request"),
        (
            lambda: _system(_endpoint(), odds=(_odds(examples={"one": {"seed": 1}}),)),
            "not a valid request",
        ),
        (lambda: _helper_odds(_unannotated), "annotate the return type of '_unannotated'"),
    ],
)
def test_a_descriptor_that_breaks_a_rule_is_refused_saying_what_to_do(
    build: Callable[[], object], says: str
) -> None:
    with pytest.raises((ValueError, TypeError), match=re.escape(says)):
        build()


def test_systems_served_together_each_have_their_own_id_prefix_and_version() -> None:
    assert served(SYSTEMS) == SYSTEMS
    x = _system(_endpoint())
    for other, says in (
        (_system(_endpoint(), rules_version="x-2"), "the id 'x'"),
        (
            _system(_endpoint(outcome=()), id="y", path="/x", rules_version="y-1", texts=()),
            "the path prefix '/x'",
        ),
    ):
        with pytest.raises(ValueError, match=re.escape(says)):
            served((x, other))
    with pytest.raises(ValueError, match="the id 'dos'"):
        create_app(systems=(*SYSTEMS, SYSTEMS[0]))
    with pytest.raises(KeyError, match="one of dos, "):
        find("chess")


def test_the_compiled_modules_are_the_systems_and_the_shared_ones() -> None:
    listed = compiled()
    assert len(listed) == len(set(listed))
    assert listed == (*SHARED_COMPILED, *(m for s in SYSTEMS for m in s.compiled))
    for module in listed:
        assert (ROOT / Path(*module.split("."))).with_suffix(".py").is_file(), module
    # A shared module belongs to no system; a system's modules are its own package's.
    assert not any(m.split(".")[1] in IDS for m in SHARED_COMPILED)
    for system in SYSTEMS:
        assert all(m.startswith(f"rules.{system.id}.") for m in system.compiled), system.id
    with open(ROOT / "pyproject.toml", "rb") as f:
        assert "dragonroll" not in tomllib.load(f).get("tool", {}), "the list is the registry's"


def test_the_docs_have_a_page_per_system_in_the_nav() -> None:
    from scripts.mkdocs_hooks import SECTION, on_config, systems_nav

    class Loader(yaml.SafeLoader):
        pass

    # mkdocs.yml holds Python tags (pymdownx emoji functions): read them as plain strings.
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: suffix)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    assert "scripts/mkdocs_hooks.py" in config["hooks"]
    (written,) = [entry[SECTION] for entry in config["nav"] if SECTION in entry]
    assert written == [], "mkdocs.yml names no system: the hook fills the section"
    (pages,) = [entry[SECTION] for entry in on_config(config)["nav"] if SECTION in entry]
    assert pages == systems_nav()
    listed = [next(iter(page.values())) for page in pages]
    assert listed == [f"systems/{s.id}.md" for s in SYSTEMS if s.game]
    for page in listed:
        assert (ROOT / "docs" / page).is_file(), page


def test_the_bench_measures_every_endpoint_with_a_valid_body() -> None:
    from bench.bench import every_endpoint, url_path

    bodies = {url_path(row): body for row, body in every_endpoint()}
    for system in SYSTEMS:
        for endpoint in system.endpoints:
            path = system.prefix + endpoint.path
            body = bodies.get(path)
            assert body is not None, f"bench/bench.py ENDPOINTS has no body for {path}"
            endpoint.request.model_validate({**body, "seed": "bench"})
    known = {s.prefix + e.path for s in SYSTEMS for e in (*s.endpoints, *s.odds, *s.simulations)}
    assert set(bodies) <= known, "bench bodies for endpoints the registry does not serve"


#: Files outside tests, docs and bench that may name every system: the registry itself, nothing
#: kept beside it. Generated files (the OpenAPI document, the clients' generated code, the
#: catalogs) are made from the registry and tested against it.
NAMING_ALL = {"rules/registry.py"}
GENERATED = (
    "openapi/",
    "rules/locale/",
    "clients/python/src/dragonroll_client/_generated.py",
    "clients/typescript/src/schema.d.ts",
    "clients/foundry/endpoints.mjs",
    "service/locale/",  # the playground's catalogs, extracted from the OpenAPI document
    "service/static/playground/i18n/",
)
DOCS = ("tests/", "docs/", "bench/", "README.md", "CHANGELOG.md", "mkdocs.yml")


def test_only_the_registry_names_every_system() -> None:
    files = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    patterns = [re.compile(rf"\b{re.escape(i)}\b".encode()) for i in IDS]
    naming = set()
    for name in files:
        tests = "/test/" in name or "/tests/" in name
        if name.startswith(DOCS + GENERATED) or tests or not (ROOT / name).is_file():
            continue
        data = (ROOT / name).read_bytes()
        if all(p.search(data) for p in patterns):
            naming.add(name)
    assert naming <= NAMING_ALL, f"more files name every system: {sorted(naming - NAMING_ALL)}"
