"""The OpenAPI document: generated from the app, with every body, answer and problem declared.

FastAPI documents each route it knows: its answer (the route's ``response_model``) and its problem
responses. The endpoints read their bodies themselves (``service.routing``), so FastAPI does not see
the request models: they are put in here, generated together with the answers by pydantic
(``TypeAdapter.json_schemas``, what FastAPI itself calls), so that a model used in both directions
gets FastAPI's ``-Input`` / ``-Output`` names. Components no operation refers to are dropped.
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import FastAPI
from fastapi.encoders import jsonable_encoder
from fastapi.openapi.models import OpenAPI
from fastapi.openapi.utils import get_openapi
from pydantic import TypeAdapter

from service.examples import EXAMPLES
from service.problems import PROBLEM_JSON, Problem, ProblemError
from service.routing import Endpoint, endpoints

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
    """The component names reachable from the operations."""
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
    for path, endpoint in endpoints(app).items():
        example = EXAMPLES.get(path)
        op = schema["paths"].get(path, {}).get("post")
        if example is None or op is None:
            continue
        op["requestBody"]["content"]["application/json"]["example"] = example
        answer = orjson.loads(endpoint.resolve(orjson.dumps(example))[0])
        op["responses"]["200"]["content"]["application/json"]["example"] = answer
