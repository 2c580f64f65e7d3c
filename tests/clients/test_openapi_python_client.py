"""A client made by a tool nobody on the project wrote: openapi-python-client (locked in
requirements/dev.txt) generates a package from the service's live ``/openapi.json`` with no warning,
one function per operation, each parsing its 200 answer into a model; then ``/dos/test`` and
``/dragon/battle`` are called through it against a real uvicorn."""

from __future__ import annotations

import contextlib
import importlib
import inspect
import json
import os
import subprocess
import sys
import typing
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.service.test_ops_server import Server

pytestmark = pytest.mark.slow

BIN = Path(sys.executable).parent
PACKAGE = "dragonroll_opc"


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    srv = Server()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def generated(server: Server, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, Any]:
    """The generated package's folder, the generator's output, and the live document."""
    root = tmp_path_factory.mktemp("opc")
    with urllib.request.urlopen(server.url("/openapi.json"), timeout=10) as answer:
        document = json.loads(answer.read())
    (root / "openapi.json").write_text(json.dumps(document), encoding="utf-8")
    generator = BIN / "openapi-python-client"
    assert generator.exists(), "openapi-python-client is missing: `make venv` installs the dev lock"
    run = subprocess.run(
        [
            str(generator),
            "generate",
            "--path",
            "openapi.json",
            "--meta",
            "none",
            "--output-path",
            PACKAGE,
        ],
        check=False,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        # Its post-generation hook formats the code with ruff, found on PATH (the venv's).
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"},
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    return root, output, document


def test_the_generator_warns_about_nothing(generated: tuple[Path, str, Any]) -> None:
    _, output, _ = generated
    assert "warning" not in output.lower(), output
    assert "omitted" not in output and "will not be generated" not in output, output


def request_example(op: dict[str, Any]) -> Any:
    media = op["requestBody"]["content"]["application/json"]
    if "example" in media:
        return media["example"]
    return next(iter(media["examples"].values()))["value"]


def body_of(function: Any, example: dict[str, Any]) -> Any:
    """The example as the operation's body model (the first member of a union that takes it)."""
    annotation = inspect.signature(function).parameters["body"].annotation
    last: Exception | None = None
    for model in typing.get_args(annotation) or (annotation,):
        try:
            return model.from_dict(example)
        except (KeyError, TypeError, ValueError) as error:
            last = error
    raise AssertionError(f"no body model of {function.__module__} takes its example: {last}")


def test_every_operation_answers_its_example_as_a_model(
    generated: tuple[Path, str, Any], server: Server
) -> None:
    root, _, document = generated
    modules = {p.stem: p for p in (root / PACKAGE / "api").glob("*/*.py") if p.stem != "__init__"}
    operations = {
        op["operationId"]: op for item in document["paths"].values() for op in item.values()
    }
    assert set(modules) == set(operations)
    with imported(root) as package:
        problem = importlib.import_module(f"{PACKAGE}.models").Problem
        with package.Client(base_url=server.url(""), timeout=30) as client:
            for name, module in modules.items():
                group = module.parent.name
                function = importlib.import_module(f"{PACKAGE}.api.{group}.{name}").sync_detailed
                if "requestBody" in operations[name]:  # a POST, with its example
                    example = request_example(operations[name])
                    answer = function(client=client, body=body_of(function, example))
                else:  # GET /systems
                    answer = function(client=client)
                assert answer.status_code == 200, (name, answer.content[:300])
                assert answer.parsed is not None and not isinstance(answer.parsed, problem), name
                parsed = answer.parsed
                dicts = (
                    [m.to_dict() for m in parsed] if isinstance(parsed, list) else parsed.to_dict()
                )
                assert dicts == json.loads(answer.content), name


@contextlib.contextmanager
def imported(root: Path) -> Iterator[Any]:
    """The generated package, importable from ``root`` while the block runs."""
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_dos_test_and_a_dragon_battle_through_the_generated_client(
    generated: tuple[Path, str, Any], server: Server
) -> None:
    root, _, _ = generated
    with imported(root) as client_module:
        models = importlib.import_module(f"{PACKAGE}.models")
        dos_test = importlib.import_module(f"{PACKAGE}.api.dragons_of_shadows.dos_test")
        battle = importlib.import_module(f"{PACKAGE}.api.dragon_battle.dragon_battle")
        with client_module.Client(base_url=server.url(""), timeout=10) as client:
            request = models.TestRequest.from_dict(
                {"stat": 24, "skill": 3, "dc": 43, "seed": "Sarathael"}
            )
            answer = dos_test.sync_detailed(client=client, body=request)
            assert answer.status_code == 200
            result = answer.parsed
            assert isinstance(result, models.TestResult)
            assert result.success is (result.total > 43)
            assert result.rng == "sha256-v1" and result.seed == "Sarathael"
            # The pool's dice are objects, each with its fate (cancelled, extra), not bare numbers.
            assert all(
                isinstance(d, models.PoolDie) and 1 <= d.value <= 10 for d in result.roll.dice
            )

            bad = dos_test.sync_detailed(
                client=client,
                body=models.TestRequest.from_dict({"stat": 24, "skill": -1, "dc": 43}),
            )
            assert bad.status_code == 422 and isinstance(bad.parsed, models.Problem)

            body = models.BattleRequest.from_dict(
                {
                    "seed": "vale",
                    "dragon": {"age": 3, "battle": 2, "target": "tribe"},
                    "entities": [
                        {
                            "id": "tribe",
                            "controller": "gm",
                            "kind": "group",
                            "prosperity": 4,
                            "level": 2,
                            "target": "dragon",
                        }
                    ],
                }
            )
            fought = battle.sync_detailed(client=client, body=body)
            assert fought.status_code == 200
            assert isinstance(fought.parsed, models.BattleResult)
            assert fought.parsed.seed == "vale"
            assert {p.owner for p in fought.parsed.pools} == {"dragon", "tribe"}
            # The typed answer is the service's answer, field for field.
            assert fought.parsed.to_dict() == json.loads(fought.content)
