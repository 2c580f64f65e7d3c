"""The registry (``rules.registry``, STYLE 21): one list of systems, and everything kept outside the
code that lists them (the compiled modules, the docs' navigation, the bench's bodies, the files that
name the systems) checked against it."""

from __future__ import annotations

import importlib
import re
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from rules.models import FoundryRollRequest, RollRequest
from rules.registry import IDS, SHARED_COMPILED, SYSTEMS, compiled, find, having
from rules.system import Capability, Endpoint, System

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_a_system_is_its_package_s_descriptor(system: System) -> None:
    assert importlib.import_module(f"rules.{system.id}").SYSTEM is system
    assert find(system.id) is system
    assert "en" in system.name and all(system.name.values())
    paths = [e.path for e in system.endpoints]
    odds = [o.path for o in (*system.odds, *system.simulations)]
    assert len(set(paths + odds)) == len(paths + odds), "two routes on one path"
    for entry in (*system.odds, *system.simulations):
        assert not entry.of or entry.of in paths, f"{entry.path} answers for {entry.of}, not one"
        assert bool(entry.shapes) != (entry.answer is not None), entry.path
    codes = {m.context.split(".", 1)[0] for m in (*system.texts, *system.flavors)}
    assert codes <= {system.id}, "a system's texts live under its own id"


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_a_system_s_capabilities_are_what_its_descriptor_holds(system: System) -> None:
    has = system.capabilities
    assert (Capability.FOUNDRY in has) == (system.foundry is not None)
    assert (Capability.ODDS in has) == bool(system.odds)
    assert (Capability.SIMULATE in has) == bool(system.simulations)
    assert (Capability.COUNTED in has) == any(m.plural for m in system.texts)
    # a system has Foundry rolls iff at least one of its requests offers `foundry` (an endpoint
    # that draws for a client, /dice/draw, offers none beside one that rolls)
    offered = ["foundry" in e.request.model_json_schema()["properties"] for e in system.endpoints]
    assert any(offered) == (Capability.FOUNDRY in has)
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


class _Plain(RollRequest):
    n: int = 1


class _WithFoundry(FoundryRollRequest):
    n: int = 1


def _endpoint(request: type) -> Endpoint:
    return Endpoint(
        path="/x",
        summary="x",
        description="x",
        request=request,
        result=dict,
        resolve=lambda req, dice: {},
        slots=lambda req: {},
        slot_doc="none",
        work=lambda req: None,  # type: ignore[arg-type,return-value]
        examples={},
    )


def test_a_descriptor_whose_requests_and_foundry_pools_disagree_is_refused() -> None:
    plain = System(id="x", name={"en": "X"}, rules_version="x-1", endpoints=(), texts=())
    assert plain.capabilities == frozenset()
    System(id="x", name={"en": "X"}, rules_version="x-1", endpoints=(_endpoint(_Plain),), texts=())
    with pytest.raises(ValueError, match="offers `foundry` but the system has no Foundry pools"):
        System(
            id="x",
            name={"en": "X"},
            rules_version="x-1",
            endpoints=(_endpoint(_WithFoundry),),
            texts=(),
        )
    with pytest.raises(ValueError, match="no request offers `foundry`"):
        System(
            id="x",
            name={"en": "X"},
            rules_version="x-1",
            endpoints=(_endpoint(_Plain),),
            texts=(),
            foundry=lambda req, res, say: [],
        )
    # Pools with one request offering them and one not (a draw beside a roll): accepted.
    both = System(
        id="x",
        name={"en": "X"},
        rules_version="x-1",
        endpoints=(_endpoint(_WithFoundry), _endpoint(_Plain)),
        texts=(),
        foundry=lambda req, res, say: [],
    )
    assert Capability.FOUNDRY in both.capabilities


def test_ids_and_versions_are_each_a_system_s_own() -> None:
    assert len(set(IDS)) == len(IDS)
    versions = [s.rules_version for s in SYSTEMS]
    assert len(set(versions)) == len(versions)
    # A version names its system, so a client comparing two never mistakes one for the other.
    assert all(s.rules_version.startswith(f"{s.id}-") for s in SYSTEMS)
    with pytest.raises(KeyError, match="one of dos, "):
        find("chess")


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_every_example_is_a_valid_request(system: System) -> None:
    for entry in (*system.endpoints, *system.odds, *system.simulations):
        models = [s.request for s in getattr(entry, "shapes", ())] or [entry.request]
        for name, body in entry.examples.items():
            errors = []
            for model in models:
                try:
                    model.model_validate(body)
                    break
                except ValidationError as exc:
                    errors.append(exc)
            else:
                pytest.fail(f"{system.prefix}{entry.path} example {name!r}: {errors}")


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
