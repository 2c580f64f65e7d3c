"""Golden files (STYLE 11): each recorded request gives exactly the recorded bytes, and every
endpoint of every system has one.

When a change of behaviour is intended, `make golden` re-records them and the diff is reviewed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.registry import SYSTEMS
from rules.system import System
from scripts.gen_golden import load, requests, response_file
from tests.conftest import Api


@pytest.mark.parametrize("request_file", requests(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden(api: Api, request_file: Path) -> None:
    golden = load(request_file)
    response = api.post(golden.path, golden.body)
    assert response.status_code == golden.status
    assert response.content + b"\n" == response_file(request_file).read_bytes()


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.id)
def test_every_endpoint_of_every_system_has_a_golden_request(system: System) -> None:
    covered = {load(r).path for r in requests()}
    paths = [system.prefix + entry.path for entry in system.entries()]
    missing = [path for path in paths if path not in covered]
    assert not missing, f"no golden request (tests/golden/{system.id}/) for {missing}"


@pytest.mark.parametrize(
    ("directory", "spec", "says"),
    [
        ("dos", {"path": "/dos/roll", "body": {"pool": 3}}, 'add a "seed"'),
        ("dos", {"path": "/dos/roll", "body": {"pool": 1, "dice": {"roll": [5]}}}, 'add a "seed"'),
        ("dos", {"path": "/dos/simulate", "body": {"runs": 2}}, 'add a "seed"'),
        ("dos", {"path": "/dragon/battle", "body": {"seed": 1}}, "is not one of /dos/roll"),
        ("chess", {"path": "/dos/roll", "body": {"seed": 1}}, "put it under tests/golden/<id>/"),
    ],
)
def test_a_golden_request_that_breaks_a_rule_is_refused_saying_what_to_do(
    tmp_path: Path, directory: str, spec: dict[str, object], says: str
) -> None:
    request_file = tmp_path / directory / "x.request.json"
    request_file.parent.mkdir()
    request_file.write_text(json.dumps(spec), encoding="utf-8")
    with pytest.raises(ValueError, match=says):
        load(request_file)


def test_what_needs_no_seed_is_loaded_without_one(tmp_path: Path) -> None:
    for name, spec in {
        "odds": {"path": "/dos/odds/test", "body": {"stat": 1, "skill": 1, "dc": 5}},
        "refused": {"path": "/dos/roll", "body": {"pool": 0}, "status": 422},
    }.items():
        request_file = tmp_path / "dos" / f"{name}.request.json"
        request_file.parent.mkdir(exist_ok=True)
        request_file.write_text(json.dumps(spec), encoding="utf-8")
        assert load(request_file).path == spec["path"]
