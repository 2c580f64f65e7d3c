"""Contract fuzzing: schemathesis over every operation of the committed ``openapi/openapi.json``, with
every check it has, ``positive_data_acceptance`` and ``negative_data_rejection`` included.

The document is the one clients read, so the fuzz runs against it (not the app's live copy) and the
app answers in-process. Where JSON Schema can say a rule, the document says it (slot names, a
difficulty or a percentage but not both, integer seeds a browser can send), so schema-valid data is
accepted and schema-violating data refused. What is left is listed in :data:`KNOWN`: consistency
between fields that JSON Schema cannot express, each with its reason; a refusal of schema-valid data
for any other reason fails the test. Two notes on the checks' settings:

- a 413 (the request body limit, ``DRAGONROLL_BODY_LIMIT``) is a refusal of any data, valid or not:
  a document bounds each list and string, not the bytes of a whole body;
- JSON Schema's ``integer`` includes ``5.0``; the service reads integers strictly (a JSON number
  with a fraction or an exponent is not one; browsers' ``JSON.stringify`` never writes ``5.0``), so
  schema-valid cases have integral floats written as integers (``ints``); a regression case pins the
  strict reading.

``/dragon/battle`` bodies (and the odds and simulations that take them) refer to their own entities by id, which generated data almost never does:
``battle_ids`` rewrites the ids of positive cases so that the references hold and the battle can be
resolved. ``DRAGONROLL_FUZZ_EXAMPLES`` raises the number of examples per operation (``make
fuzz-long``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.checks import CHECKS
from schemathesis.config import SchemathesisConfig
from schemathesis.core.failures import Failure
from schemathesis.specs.openapi.checks import positive_data_acceptance
from starlette.testclient import TestClient

from service.app import create_app
from service.settings import Settings
from tests.properties.strategies import ints

DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
#: Per operation: 30 in `make test` (60 before: with the coverage cases the file takes about 3
#: minutes of one core, and CI's time is bounded), 1000 in `make fuzz-long`; derandomized, so
#: every run sends the same ones.
MAX_EXAMPLES = int(os.environ.get("DRAGONROLL_FUZZ_EXAMPLES", "30"))

#: Refusals of schema-valid data that JSON Schema cannot prevent: (pattern of the problem's error
#: message, why the document cannot say it). Each was seen in the fuzz; anything else fails.
KNOWN: list[tuple[str, str]] = [
    (
        r"is not a combatant|no combatant or group|is not an entity of the request|"
        r"has dodge skill 0 and so no dodge",
        "a reference to an id given elsewhere in the request: JSON Schema cannot say that a "
        "string equals another field's value (or what that other object holds)",
    ),
    (
        r"duplicate id|is listed twice|appears twice|is already used by|is also a combatant id|"
        r"order must list every combatant",
        "ids unique across lists of objects, an order naming every combatant: uniqueItems "
        "compares whole items, not one key, and nothing relates two lists",
    ),
    (
        r"cannot be its own opponent|cannot target itself|cannot be its own parent|"
        r"parent cycle|cycle",
        "a field equal to its own object's id: JSON Schema cannot compare two values",
    ),
    (
        r"hp \(\d+\) is more than max_hp|successes_needed \(\d+\) is more than attempts|"
        r"blocks_used \(\d+\) is more than|dodges_used \(\d+\) is more than|"
        r"has no (block|dodge) left this turn|wounds >= battle|dragonslayer minority's prosperity",
        "one number against another field (hp <= max_hp, successes_needed <= attempts, uses <= "
        "skill): JSON Schema compares a number with constants only",
    ),
    (
        r"base dice; the budget is|a pool holds at most|the roll-off would be|"
        r"declares \d+ actions but has \d+",
        "a sum, product or ratio of several fields against a limit (the work budget, a pool's "
        "100 dice, the actions a combatant's speed gives, DOS-14): JSON Schema bounds one field "
        "at a time",
    ),
    (
        r"at most \d+ dice for odds|"
        r"(dice|odds terms|odds steps|dice x sides); the budget is [\d,]+ (dice|odds terms|odds "
        r"steps|dice x sides) a request|bytes at most; the budget is [\d,]+ bytes an answer",
        "odds and simulations take the resolving endpoint's request as it is (issue 18), so its "
        "schema allows what exact odds or a simulation cannot afford (a pool over 50 dice, runs x "
        "the fight's dice over the simulation's work budget, issue 25), and an answer's size "
        "grows with names, languages and Foundry rolls over the 4 MiB bound; the service names "
        "the field",
    ),
    (
        r"reveals a dragonslayer minority, but the battle already holds|at most 100 entities",
        "a group that loses to the dragon reveals its dragonslayer minority as a new entity "
        "(DRG-14): a battle already holding 100 entities cannot take it, which the dice decide",
    ),
    (
        r"this request draws no dice in slot",
        "scripted dice name the slots this request draws from, which depend on the rest of the "
        "request (ids, attempts, declarations)",
    ),
    (
        r"rolls once for identical creatures",
        "a 5e group's members share their modifiers (D5E-5): equality across items of a list",
    ),
    (
        r"every opponent hides",
        "a creature gives its passive Perception when every opponent hides (D5E-3): it depends "
        "on the other creatures of the list",
    ),
    (
        r"^decision \d+ \(|^decision \d+: the combat is over after",
        "a riders combat's decisions are read in the order the combat asks for them (RDR-8): "
        "which one is valid, and how many the combat takes, depends on the dice and the "
        "decisions before it",
    ),
    (
        r"^at position \d+: ",
        "a 5e damage formula is parsed by the notation's plain subset and held to the 5e caps "
        "(rules/dnd5e/damage.py: terms, at most 100 dice in all); the document describes it in "
        "words",
    ),
    (
        r"^notation: ",
        "a dice notation is parsed by its grammar (rules/notation/parser.py, docs/notation.md: "
        "the column and what was expected there), and odds refuse questions too large to answer "
        "exactly; the document describes both in words",
    ),
]

CONFIG = SchemathesisConfig.from_dict(
    {
        "checks": {
            "negative_data_rejection": {
                "expected-statuses": ["400", "413", "415", "422"],
            },
            "positive_data_acceptance": {"expected-statuses": ["2xx", "413"]},
        }
    }
)
schema = schemathesis.openapi.from_path(DOCUMENT, config=CONFIG)
#: The operations whose path matches this regular expression alone (the toy-system proof,
#: tests/service/test_new_system.py, fuzzes its new system's: collecting every operation builds
#: each one's coverage cases, about 16 s of CPU).
if os.environ.get("DRAGONROLL_CONTRACT_PATHS"):
    schema = schema.include(path_regex=os.environ["DRAGONROLL_CONTRACT_PATHS"])
schema.app = create_app(Settings(log_level="warning"))


def unknown_refusals(response: Any, case: Any) -> list[str]:
    """The error messages of a 422 problem that :data:`KNOWN` does not list (all, for another
    status). :data:`KNOWN` reads the English: a refusal told in another language (the case's
    `lang`) is asked again in English."""
    if response.status_code != 422:
        return [f"status {response.status_code}"]
    problem = response.json()
    if problem.get("lang", "en") != "en" and isinstance(case.body, dict):
        english = TestClient(schema.app).post(case.operation.path, json={**case.body, "lang": "en"})
        problem = english.json()
    errors = problem.get("errors") or [{"msg": "a 422 without errors"}]
    return [e["msg"] for e in errors if not any(re.search(pat, e["msg"]) for pat, _ in KNOWN)]


def positive_data_accepted_or_known(ctx: Any, response: Any, case: Any) -> bool | None:
    """``positive_data_acceptance``, where a refusal listed in :data:`KNOWN` passes."""
    try:
        return positive_data_acceptance(ctx, response, case)
    except Failure:
        unknown = unknown_refusals(response, case)
        if unknown:
            msg = f"schema-valid data refused, not a known refusal: {unknown}"
            raise AssertionError(msg) from None
        return None


CHECKS_RUN = [check for check in CHECKS.get_all() if check is not positive_data_acceptance] + [
    positive_data_accepted_or_known
]


def is_positive(case: Any) -> bool:
    meta = case.meta
    return meta is None or meta.generation.mode is GenerationMode.POSITIVE


@schema.hook
def map_case(ctx: Any, case: Any) -> Any:
    if is_positive(case) and isinstance(case.body, dict):
        case.body = ints(case.body)
        if case.operation.path in ("/dragon/battle", "/dragon/odds", "/dragon/simulate"):
            case.body = battle_ids(case.body)
    return case


def battle_ids(body: dict[str, Any]) -> dict[str, Any]:
    """A generated battle whose references hold: entities are ``e0``, ``e1`` ...; the first is a
    free (gm) entity taking part, the dragon's target; gm entities attack the dragon, the player's
    the first; no parents or joins; a battle that may go on (DRG-15, DRG-16)."""
    entities = [dict(e) for e in body.get("entities", []) if isinstance(e, dict)]
    if not entities:
        entities = [{"controller": "gm", "kind": "individual", "prosperity": 1, "level": 1}]
    for i, e in enumerate(entities):
        e.update(id=f"e{i}", parent=None, if_left_over="wait")
        if i == 0:
            e.update(controller="gm", aside=False)
        e["target"] = "dragon" if e.get("controller") == "gm" else "e0"
        if e.get("kind") != "group":
            e["slayer_prosperity"] = None
        elif e.get("slayer_prosperity") is not None:
            e["slayer_prosperity"] = min(e["slayer_prosperity"], e.get("prosperity", 0))
    dragon = dict(body.get("dragon") or {})
    dragon["target"] = "e0"
    if isinstance(dragon.get("battle"), int) and isinstance(dragon.get("wounds"), int):
        dragon["wounds"] = min(dragon["wounds"], dragon["battle"] - 1)
    out = {**body, "dragon": dragon, "entities": entities}
    if isinstance(out.get("location"), dict) and out["location"].get("id") == "dragon":
        out["location"] = {**out["location"], "id": "place"}
    if out.get("round", 1) >= 1000:
        out["continues"] = False
    return out


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_operation_keeps_its_contract(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS_RUN)
