"""The OpenAPI document: generated from the app, with every problem response declared."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from service.examples import examples
from service.problems import PROBLEM_JSON, Problem, ProblemError
from service.routing import resolver_paths


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
        add_examples(app, schema)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def add_examples(app: FastAPI, schema: dict[str, Any]) -> None:
    """Each resolver's request example (``service.examples``) and the answer it gets, resolved here:
    the examples are seeded, so the document stays the same from one build to the next."""
    known = examples(app.state.systems)
    for path, route in resolver_paths(app.router.routes):
        example = known.get(path)
        op = schema["paths"].get(path, {}).get("post")
        if example is None or op is None:
            continue
        op["requestBody"]["content"]["application/json"]["example"] = example
        answer = orjson.loads(route.resolve(orjson.dumps(example))[0])
        op["responses"]["200"]["content"]["application/json"]["example"] = answer
