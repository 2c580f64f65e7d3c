"""The OpenAPI document, generated from the app, with every body, answer and problem declared.

The endpoints read their bodies themselves (``service.routing``), so their request models are put in
here, generated with the answers by pydantic as FastAPI does (``TypeAdapter.json_schemas``). Every
schema gets one readable name, its system's in front where two systems share a class name
(``DosAttackRequest``): code generators name their types after them.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import orjson
from fastapi import FastAPI
from fastapi.encoders import jsonable_encoder
from fastapi.openapi.models import OpenAPI
from fastapi.openapi.utils import get_openapi
from pydantic import TypeAdapter

from service.endpoints import Endpoint, endpoints
from service.examples import examples
from service.problems import PROBLEM_JSON, Problem, ProblemError

REF = "#/components/schemas/{model}"


def install_openapi(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title,
            version=app.version,
            description=app.description,
            routes=app.routes,
        )
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        components.pop("HTTPValidationError", None)
        components.pop("ValidationError", None)
        components["ProblemError"] = ProblemError.model_json_schema(
            ref_template="#/components/schemas/{model}"
        )
        problem = Problem.model_json_schema(ref_template="#/components/schemas/{model}")
        problem.pop("$defs", None)
        components["Problem"] = problem
        for path in schema.get("paths", {}).values():
            for op in path.values():
                responses = op.get("responses", {})
                for status, response in responses.items():
                    if status.startswith(("4", "5")):
                        response["content"] = {
                            PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}
                        }
        add_models(endpoints(app), schema)
        # As get_openapi writes its own document: through FastAPI's OpenAPI model (its key order,
        # its number types), the components by name; the examples (their nulls kept) after.
        schema = dict(jsonable_encoder(OpenAPI(**schema), by_alias=True, exclude_none=True))
        components = schema["components"]["schemas"]
        schema["components"]["schemas"] = {name: components[name] for name in sorted(components)}
        add_examples(app, schema)
        name_components(schema)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def add_models(found: dict[str, Endpoint], schema: dict[str, Any]) -> None:
    """Each endpoint's request body and answer schemas, and their components."""
    inputs: list[tuple[tuple[str, str], Any, TypeAdapter[Any]]] = []
    for path, endpoint in found.items():
        op = schema["paths"].get(path, {}).get("post")
        if op is None:
            continue
        inputs.append(((path, "body"), "validation", TypeAdapter(endpoint.request_model)))
        answer = op["responses"]["200"]["content"]["application/json"].get("schema")
        if answer is not None:
            adapter = TypeAdapter(endpoint.response_model)
            inputs.append(((path, "answer"), "serialization", adapter))
    generated, definitions = TypeAdapter.json_schemas(inputs, ref_template=REF)
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name, definition in definitions.get("$defs", {}).items():
        if "description" in definition:  # as FastAPI does: a docstring's text up to a form feed
            definition["description"] = definition["description"].split("\f")[0]
        components[name] = definition
    for ((path, part), _), body in generated.items():
        op = schema["paths"][path]["post"]
        if "$ref" not in body:  # a union: FastAPI's titles for it
            title = "Response " + op["operationId"].replace("_", " ").title()
            body.setdefault("title", "Body" if part == "body" else title)
        if part == "body":
            op["requestBody"]["content"]["application/json"]["schema"] = body
        else:
            op["responses"]["200"]["content"]["application/json"]["schema"] = body
    used = _referenced(schema["paths"], components)
    for name in [name for name in components if name not in used]:
        del components[name]


def _referenced(paths: dict[str, Any], components: dict[str, Any]) -> set[str]:
    seen: set[str] = set()
    todo: list[Any] = [paths]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
                name = ref.rsplit("/", 1)[-1]
                if name not in seen:
                    seen.add(name)
                    todo.append(components.get(name))
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return seen


def add_examples(app: FastAPI, schema: dict[str, Any]) -> None:
    """Each endpoint's request example (``service.examples``) and the answer it gets, resolved
    here: the examples are seeded, so the document stays the same from one build to the next."""
    known = examples(app.state.systems)
    for path, endpoint in endpoints(app).items():
        example = known.get(path)
        op = schema["paths"].get(path, {}).get("post")
        if example is None or op is None:
            continue
        op["requestBody"]["content"]["application/json"]["example"] = example
        answer = orjson.loads(endpoint.resolve(orjson.dumps(example))[0])
        op["responses"]["200"]["content"]["application/json"]["example"] = answer


_REF = "#/components/schemas/"
_MODULE_KEY = re.compile(r"^rules__(?P<system>[a-z0-9]+)__\w+__(?P<name>\w+)$")


def _refs(node: Any) -> set[str]:
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and ref.startswith(_REF):
                found.add(ref.removeprefix(_REF))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _systems_reaching(schema: dict[str, Any]) -> dict[str, set[str]]:
    """Each component's systems: the first path segments of the operations that use it."""
    components = schema["components"]["schemas"]
    edges = {key: _refs(component) for key, component in components.items()}
    reached: dict[str, set[str]] = {key: set() for key in components}
    for path, item in schema.get("paths", {}).items():
        system = path.split("/")[1]
        todo = list(_refs(item))
        seen: set[str] = set()
        while todo:
            key = todo.pop()
            if key in seen or key not in components:
                continue
            seen.add(key)
            reached[key].add(system)
            todo.extend(edges[key])
    return reached


def component_names(schema: dict[str, Any]) -> dict[str, str]:
    """Each component key's readable, unique name (most keep theirs)."""
    components = schema["components"]["schemas"]
    titles = Counter(component.get("title", key) for key, component in components.items())
    reached = _systems_reaching(schema)
    names: dict[str, str] = {}
    for key, component in components.items():
        title = str(component.get("title", key))
        module = _MODULE_KEY.match(key)
        if module is None and titles[title] == 1 and key.isidentifier():
            names[key] = key
            continue
        suffix = next((s for s in ("Input", "Output") if key.endswith("-" + s)), "")
        if module is not None:
            system = module["system"]
        elif len(reached[key]) == 1:
            (system,) = reached[key]
        else:
            raise ValueError(
                f"schema {key!r}: its name {title!r} needs a system, used by {reached[key]}"
            )
        names[key] = system.capitalize() + title + suffix  # dnd5e -> Dnd5eAttackRequest
    clashes = [name for name, n in Counter(names.values()).items() if n > 1]
    if clashes:
        raise ValueError(f"schemas named twice: {clashes}")
    return names


def name_components(schema: dict[str, Any]) -> None:
    """Rename the components (keys, titles and every ``$ref``) to ``component_names``, sorted."""
    names = component_names(schema)
    components = schema["components"]["schemas"]

    def rename(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(_REF):
                node["$ref"] = _REF + names[ref.removeprefix(_REF)]
            for value in node.values():
                rename(value)
        elif isinstance(node, list):
            for value in node:
                rename(value)

    rename(schema.get("paths", {}))
    renamed = {}
    for key, component in components.items():
        rename(component)
        component["title"] = names[key]
        renamed[names[key]] = component
    schema["components"]["schemas"] = dict(sorted(renamed.items()))
