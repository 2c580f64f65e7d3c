"""clients/python (``dragonroll_client``): generated from the committed OpenAPI document, and
working against a real uvicorn, sync and async."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dragonroll_client import OPERATIONS, AsyncClient, Client, DragonrollError

from tests.service.test_ops_server import Server

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
POSTS = [(path, item["post"]) for path, item in DOCUMENT["paths"].items() if "post" in item]
IGNORED = shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
BAD_TEST = {"stat": "many", "skill": 3, "dc": 43}


def load_generator() -> Any:
    spec = importlib.util.spec_from_file_location("generate", ROOT / "clients/python/generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    srv = Server()
    try:
        yield srv
    finally:
        srv.stop()


def test_the_generated_module_is_what_the_document_makes() -> None:
    generator = load_generator()
    committed = generator.TARGET.read_text(encoding="utf-8")
    assert generator.render(DOCUMENT) == committed, "stale: run `make clients` and commit"


def test_every_operation_has_a_method_and_every_method_a_path() -> None:
    in_document = {
        op["operationId"]: path for path, item in DOCUMENT["paths"].items() for op in item.values()
    }
    assert in_document == OPERATIONS
    for name in OPERATIONS:
        assert callable(getattr(Client, name)) and asyncio.iscoroutinefunction(
            getattr(AsyncClient, name)
        )
    public = {n for n in vars(Client) if not n.startswith("_")}
    assert public == set(OPERATIONS)


def check_answer(example: dict[str, Any], answer: dict[str, Any]) -> None:
    if "rng" not in answer:  # odds ({p, exact}) and simulations (win rates): no dice envelope
        assert '"exact"' in json.dumps(answer) or "outcomes" in answer
        return
    assert answer["rng"] == "sha256-v1"
    assert answer["events"] and all(isinstance(e["code"], str) for e in answer["events"])
    assert all(1 <= die["value"] <= die["sides"] for die in answer["rolls"])
    if "seed" in example:
        assert answer["seed"] == example["seed"]


def request_example(op: dict[str, Any]) -> Any:
    """An operation's request example: ``example``, or the first of its named ``examples``."""
    media = op["requestBody"]["content"]["application/json"]
    if "example" in media:
        return media["example"]
    return next(iter(media["examples"].values()))["value"]


def check_problem(error: DragonrollError) -> None:
    assert error.status == 422 and error.problem["status"] == 422
    assert error.type and error.title and error.detail
    assert any("stat" in e["loc"] for e in error.errors), error.errors
    assert error.request_id


@pytest.mark.slow
def test_sync_client_calls_every_endpoint_with_its_example(server: Server) -> None:
    with Client(server.url("")) as client:
        for path, op in POSTS:
            example = request_example(op)
            answer: Any = getattr(client, op["operationId"])(example)
            check_answer(example, answer)
            assert answer == getattr(client, op["operationId"])(example), path
        systems = client.list_systems()
        assert [s["id"] for s in systems][:1] == ["dos"] and systems[0]["rules_version"]
        result = client.dos_test({"stat": 24, "skill": 3, "dc": 43, "seed": "Sarathael"})
        assert result["success"] is (result["total"] > 43)
        with pytest.raises(DragonrollError) as caught:
            client.dos_test(BAD_TEST)  # type: ignore[typeddict-item]
        with pytest.raises(DragonrollError) as missing:
            client._post("/dos/nothing", {}, {"X-Request-ID": "client-404"})
    check_problem(caught.value)
    assert (missing.value.status, missing.value.request_id) == (404, "client-404")


@pytest.mark.slow
def test_async_client_gives_the_same_answers_and_errors(server: Server) -> None:
    # Four at a time: one client's share of the heavy lane (a job running, a few queued); more at
    # once from one client is a 503 with Retry-After by design (docs/operations.md).
    within_share = asyncio.Semaphore(4)

    async def call(client: AsyncClient, op: dict[str, Any]) -> Any:
        async with within_share:
            return await getattr(client, op["operationId"])(request_example(op))

    async def run() -> tuple[list[Any], DragonrollError]:
        async with AsyncClient(server.url(""), headers={"Accept-Language": "pl"}) as client:
            answers = await asyncio.gather(*(call(client, op) for _, op in POSTS))
            with pytest.raises(DragonrollError) as caught:
                await client.dos_test(BAD_TEST)  # type: ignore[typeddict-item]
        return answers, caught.value

    answers, error = asyncio.run(run())
    with Client(server.url("")) as client:
        for (_, op), answer in zip(POSTS, answers, strict=True):
            example = request_example(op)
            check_answer(example, answer)
            english: Any = getattr(client, op["operationId"])(example)
            assert answer.get("rolls") == english.get("rolls")
    check_problem(error)


@pytest.mark.skipif(
    not os.environ.get("DRAGONROLL_CLIENT_INSTALL_CHECK"),
    reason="set DRAGONROLL_CLIENT_INSTALL_CHECK=1 to build the client in a fresh venv",
)
def test_the_client_installs_without_the_service(tmp_path: Path) -> None:
    source = shutil.copytree(ROOT / "clients" / "python", tmp_path / "src", ignore=IGNORED)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "--quiet", str(source)], check=True)
    probe = (
        "import importlib.util as u, dragonroll_client as d; "
        "print(d.Client.__name__, [m for m in ('fastapi', 'uvicorn', 'rules', 'service', 'pydantic')"
        " if u.find_spec(m)])"
    )
    out = subprocess.run(
        [python, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "Client []"
