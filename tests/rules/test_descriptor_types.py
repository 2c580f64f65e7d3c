"""The descriptor is typed (STYLE 24): mypy --strict, as ``make typecheck`` runs it, refuses each
line of a descriptor whose parts do not fit together, and passes the right one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parents[2]

#: Each wrong line ends with ``# expect:`` and what mypy must say of it.
WRONG = """
from rules.dos import budget, checks, odds, simulate
from rules.dos.models import PoolRequest, RollResult, TestRequest, TestResult
from rules.system import Endpoint, Odds, Simulator, System, exact_odds, simulation

Endpoint(path="/roll", summary="x", description="x", slot_doc="x", examples={}, request=PoolRequest, result=RollResult, resolve=checks.roll, slots=checks.roll_slots, work=budget.roll_work)
Endpoint(path="/x", summary="x", description="x", slot_doc="x", examples={}, request=PoolRequest, result=TestResult, resolve=checks.test, slots=checks.test_slots, work=budget.test_work)  # expect: Argument "resolve" to "Endpoint" has incompatible type
Endpoint(path="/x", summary="x", description="x", slot_doc="x", examples={}, request=TestRequest, result=TestResult, resolve=checks.test, slots=checks.test_slots, work=budget.roll_work)  # expect: Argument "work" to "Endpoint" has incompatible type
Endpoint(path="/x", summary="x", description="x", slot_doc="x", examples={}, request=PoolRequest, result=RollResult, resolve=checks.roll, slots=checks.roll_slots)  # expect: Missing named argument "work"
Odds(path="/odds", summary="x", description="x", examples={}, request=simulate.TurnSimulateRequest, result=dict, answer=simulate.simulate, work=budget.simulate_work)  # expect: Value of type variable "Question" of "Odds" cannot be "TurnSimulateRequest"
SIMULATE = Simulator(path="/simulate", summary="x", description="x", examples={}, request=simulate.TurnSimulateRequest, answer=simulate.simulate, work=budget.simulate_work)
System(id="x", name={"en": "X"}, rules_version="x-1", endpoints=(), texts=(), odds=(SIMULATE,))  # expect: Argument "odds" to "System" has incompatible type
Simulator(path="/simulate", summary="x", description="x", examples={}, request=odds.TestOddsRequest, answer=odds.test_odds, work=budget.test_odds_work)  # expect: Value of type variable "Runs" of "Simulator" cannot be "TestOddsRequest"
exact_odds(odds.TestOddsRequest, odds.test_odds, path="/o", of="/test", work=budget.test_odds_work, summary="x", description="x", examples={})
exact_odds(odds.TestOddsRequest, odds.test_odds, path="/o", of="/test", work=budget.opposed_odds_work, summary="x", description="x", examples={})  # expect: Argument "work" to "exact_odds" has incompatible type
exact_odds(odds.TestOddsRequest, odds.opposed_odds, path="/o", of="/test", work=budget.test_odds_work, summary="x", description="x", examples={})  # expect: Argument 2 to "exact_odds" has incompatible type
simulation(simulate.TurnSimulateRequest, simulate.simulate, of="/turn", work=budget.simulate_work, summary="x", description="x", examples={})
simulation(odds.TestOddsRequest, odds.test_odds, of="/test", work=budget.test_odds_work, summary="x", description="x", examples={})  # expect: Value of type variable "Runs" of "simulation" cannot be "TestOddsRequest"
"""


@pytest.mark.slow
def test_mypy_refuses_each_wrong_line_and_passes_the_right_ones(tmp_path: Path) -> None:
    source = tmp_path / "wrong_descriptor.py"
    source.write_text(WRONG, encoding="utf-8")
    out, err, _ = api.run(
        ["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(ROOT / ".mypy_cache"),
         "--no-error-summary", "--hide-error-context", str(source)]
    )  # fmt: skip
    said: dict[int, str] = {}
    for line, message in re.findall(r"^[^\n]*wrong_descriptor\.py:(\d+): error: (.*)$", out, re.M):
        said[int(line)] = said.get(int(line), "") + message + "\n"
    expected = {
        i + 1: line.split("# expect: ", 1)[1]
        for i, line in enumerate(WRONG.splitlines())
        if "# expect: " in line
    }
    assert set(said) == set(expected), out + err
    for line, message in expected.items():
        assert message in said[line], (line, said[line])
