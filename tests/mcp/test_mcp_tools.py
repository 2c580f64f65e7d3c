"""The MCP tool list an assistant pays for before its first question: its size and its shapes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from starlette.testclient import TestClient

from service.app import create_app
from service.mcp_tools import DESCRIBE, Catalog
from service.settings import Settings

#: The whole tools/list result, in bytes of JSON: issue 43's budget (the list it measured, 11,756
#: bytes for 6 tools), and one tool's.
LIST_LIMIT = 11_756
TOOL_LIMIT = 4_000
#: An output schema is only given where it is small.
OUTPUT_SCHEMA_LIMIT = 1_000
HEADERS = {
    "accept": "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": "2025-11-25",
}


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app(Settings(log_level="warning"))


@pytest.fixture(scope="module")
def listed(app: Any) -> dict[str, Any]:
    """The tools/list result as a host receives it."""
    with TestClient(app, base_url="http://127.0.0.1") as client:
        message = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        r = client.post("/mcp", json=message, headers=HEADERS)
        assert r.status_code == 200
        result: dict[str, Any] = r.json()["result"]
        return result


def size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def test_the_list_fits_an_assistants_context(listed: dict[str, Any]) -> None:
    assert size(listed) < LIST_LIMIT
    for tool in listed["tools"]:
        assert size(tool) <= TOOL_LIMIT, tool["name"]


def test_input_schemas_are_plain_objects(listed: dict[str, Any]) -> None:
    for tool in listed["tools"]:
        schema = tool["inputSchema"]
        Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object" and "properties" in schema, tool["name"]
        assert not {"allOf", "anyOf", "oneOf", "not", "if", "$ref"} & schema.keys(), tool["name"]
        assert schema.get("additionalProperties") is False
        output = tool.get("outputSchema")
        assert output is None or size(output) <= OUTPUT_SCHEMA_LIMIT, tool["name"]


def test_descriptions_say_when_to_use_the_tool(listed: dict[str, Any]) -> None:
    for tool in listed["tools"]:
        first = tool["description"].split("\n", 1)[0]
        assert 40 <= len(first) <= 400, (tool["name"], first)
        assert tool["annotations"]["readOnlyHint"] is True
        assert tool["annotations"]["destructiveHint"] is False
        assert tool.get("title")


def test_every_post_endpoint_is_reachable_and_derived_from_the_registry(
    app: Any, listed: dict[str, Any]
) -> None:
    """One tool per system the app serves (named by its path prefix), whose endpoints are that
    system's POST paths; together every POST operation of the OpenAPI document."""
    tools = {t["name"]: t for t in listed["tools"]}
    systems = {s.prefix.strip("/"): s for s in app.state.systems}
    assert set(tools) == {*systems, DESCRIBE}
    posts = {path for path, item in app.openapi()["paths"].items() if "post" in item}
    reached: set[str] = set()
    for name, system in systems.items():
        paths = tools[name]["inputSchema"]["properties"]["endpoint"]["enum"]
        assert all(p.startswith(system.prefix + "/") for p in paths)
        for path in paths:
            assert path in tools[name]["description"]
        reached |= set(paths)
    assert reached == posts
    assert set(tools[DESCRIBE]["inputSchema"]["properties"]["endpoint"]["enum"]) == posts


def test_a_served_subset_of_systems_has_its_tools_only() -> None:
    """A test app serving some systems (create_app's ``systems``) lists those."""
    from rules.registry import SYSTEMS

    served = SYSTEMS[1:3]
    app = create_app(Settings(log_level="warning"), systems=served)
    names = [spec.name for spec in Catalog(app).specs]
    assert names == [*(s.prefix.strip("/") for s in served), DESCRIBE]


def test_the_list_is_built_without_the_openapi_document(app: Any) -> None:
    """The first tools/list of a process was 1.15 s (the OpenAPI document built for it): it is
    made from the registry, in milliseconds, and never reads the document."""
    fresh = create_app(Settings(log_level="warning"))

    def refuse() -> dict[str, Any]:
        raise AssertionError("tools/list read the OpenAPI document")

    fresh.openapi = refuse  # type: ignore[method-assign]
    specs = Catalog(fresh).specs
    assert [s.name for s in specs] == [s.name for s in Catalog(app).specs]


def test_each_tool_says_which_game_it_is(app: Any, listed: dict[str, Any]) -> None:
    """Issue 43: three dragon-named systems (`dos`, `dragon`, `riders`) confused a first reader:
    each tool opens with its game in a phrase (its descriptor's ``about``), and names the card
    that shows its answers (MCP Apps)."""
    tools = {t["name"]: t for t in listed["tools"]}
    for system in app.state.systems:
        assert system.about, f"{system.id}: its descriptor says what game it is (about=...)"
        tool = tools[system.prefix.strip("/")]
        assert tool["description"].startswith(f"{system.name['en']}: {system.about}.")
        assert tool["_meta"]["ui"]["resourceUri"] == "ui://dragonroll/roll-card.html"
    firsts = [t["description"].split("\n", 1)[0] for t in listed["tools"]]
    assert len(set(firsts)) == len(firsts)


def test_every_resolving_endpoint_has_an_example_that_answers(
    app: Any, listed: dict[str, Any]
) -> None:
    """Issue 43, right the first time: every resolving endpoint's line in its tool's description
    shows an example request short enough to inline, and each example shown is answered (200)."""
    tools = {t["name"]: t for t in listed["tools"]}
    with TestClient(app, base_url="http://127.0.0.1") as client:
        for system in app.state.systems:
            description = tools[system.prefix.strip("/")]["description"]
            for endpoint in system.endpoints:
                path = system.prefix + endpoint.path
                line = next(x for x in description.split("\n") if x.startswith(f"- {path}: "))
                assert ", e.g. {" in line, line
                shown = line.split(", e.g. ", 1)[1].split("; options ", 1)[0].split(" or ")
                for text in shown:
                    r = client.post(
                        path, content=text, headers={"content-type": "application/json"}
                    )
                    assert r.status_code == 200, (path, text, r.text[:300])
