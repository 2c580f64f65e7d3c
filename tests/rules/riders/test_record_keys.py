"""A combat result and its records are typed dicts, and the sides' states and the decisions taken
plain dicts of the request models' fields, all written by orjson in insertion order: every dict the
engine builds must hold exactly its type's keys (a typed dict's, the ``NotRequired`` ones too since
they are only optional in the schema, or a model's fields), in declaration order, or the response's
bytes change. The golden file pins the order for its case only; this walks every dict of many
results (the golden requests with several seeds, and requests reaching every place a record is
built)."""

from __future__ import annotations

from typing import Any

from rules.riders import models
from rules.riders.models import CombatResult
from tests.rules.record_keys import KeyWalk, golden_requests, seeded, typed_dicts
from tests.rules.riders.helpers import ROLL, blue, dec, item, red, rolled, run

POS = {"x": 0, "y": 0, "facing": "E"}
CONCEDE_D = dec("defender", "concede")
FATIGUE_I = dec("initiator", "damage", damage="fatigue")
HOOK = item("hook", "damage", damage="Pull the loser next to you.")

#: Requests reaching the places a record is built that the golden request may not reach: every
#: damage kind (fatigue below and at 3, knockback, swap, item), both concessions, counter steps with
#: and without a lead change, pre items with dice, what the combat awaits in each phase (with every
#: kind of option), and the auto policy.
EXTRA: list[dict[str, Any]] = [
    {  # conceding without rolling: fatigue below 3, then a knockback
        "initiator": red(riders=[{"id": "ash", "bonuses": {"water": 2}}]),
        "defender": blue(fatigue=2, riders=[{"id": "kai"}], position=POS),
        "dice": rolled([2, 2]),
        "decisions": [
            CONCEDE_D,
            FATIGUE_I,
            dec("initiator", "damage", damage="knockback", direction="SE"),
        ],
    },
    {  # fatigue at 3: the rider is lost
        "defender": blue(
            fatigue=3, rage=1, riders=[{"id": "kai"}, {"id": "old", "current": False}]
        ),
        "dice": rolled([6, 6], [1, 1, 1]),
        "decisions": [ROLL, CONCEDE_D, FATIGUE_I],
    },
    {  # a swap
        "initiator": red(position={"x": 1, "y": 2, "facing": "NE"}),
        "defender": blue(position={"x": 2, "y": 2, "facing": "SW"}),
        "dice": rolled([6, 6], [1, 1]),
        "decisions": [ROLL, CONCEDE_D, dec("initiator", "damage", damage="swap")],
    },
    {  # a damage item
        "initiator": red(items=[HOOK]),
        "dice": rolled([6, 6], [1, 1]),
        "decisions": [ROLL, CONCEDE_D, dec("initiator", "damage", damage="item", item="hook")],
    },
    {  # pre items with dice, counter steps with and without a lead change, a counterattack concession
        "initiator": red(
            riders=[{"id": "ash", "bonuses": {"water": 1}}],
            items=[
                item("potion", "pre", dice="1d6", extra_rolloff_dice=1),
                item("lance", dice="1d6"),
            ],
        ),
        "defender": blue(items=[item("bolt", bonus=2), item("storm", dice="2d6")]),
        "dice": rolled([4, 4, 1], [2, 3], potion=[1], storm=[5, 6], lance=[1]),
        "decisions": [
            ROLL,
            dec("defender", "use_item", item="bolt"),
            dec("defender", "use_item", item="storm"),
            dec("initiator", "use_item", item="lance"),
            dec("initiator", "concede"),
            dec("defender", "damage", damage="fatigue"),
        ],
    },
    {  # awaiting the roll-off decision
        "dice": rolled([3, 3]),
    },
    {  # awaiting a counterattack decision, with an item to play
        "defender": blue(items=[item("bolt", bonus=1), HOOK | {"id": "hook2"}]),
        "dice": rolled([6, 6], [1, 1]),
        "decisions": [ROLL],
    },
    {  # awaiting the damage, with every kind of option
        "initiator": red(position=POS, items=[HOOK]),
        "defender": blue(position={"x": 1, "y": 0, "facing": "W"}),
        "dice": rolled([6, 6], [1, 1]),
        "decisions": [ROLL, CONCEDE_D],
    },
    {  # the auto policy, riders and items on both sides
        "auto": True,
        "initiator": red(
            riders=[{"id": "ash", "bonuses": {"water": 2, "fire": 1}}],
            position=POS,
            items=[item("lance", dice="1d6"), HOOK],
        ),
        "defender": blue(
            fatigue=3,
            riders=[{"id": "kai", "bonuses": {"fire": 3}}],
            items=[item("bolt", bonus=3), item("shield", "pre", hide_shield=False)],
        ),
    },
    {  # every object's keys in reverse declaration order
        "seed": "reversed",
        "auto": True,
        "attack": {"ranged": False},
        "initiator": dict(
            reversed(
                red(
                    riders=[dict(reversed({"id": "ash", "current": True, "bonuses": {}}.items()))],
                    position=dict(reversed(POS.items())),
                    items=[dict(reversed(item("lance", dice="1d6", bonus=1).items()))],
                ).items()
            )
        ),
        "defender": dict(
            reversed(blue(fatigue=1, position={"facing": "W", "y": 0, "x": 1}).items())
        ),
    },
]


def _bodies() -> list[dict[str, Any]]:
    golden = [body for _, body in golden_requests("riders")]
    return [seeded_body for body in [*golden, *EXTRA] for seeded_body in seeded(body)]


def _site(name: str, record: dict[str, Any], where: str) -> str:
    """Which of the engine's constructions of a record type built this one (for coverage)."""
    field = where.split(": ", 1)[1].lstrip(".")  # after "request <n>: "
    if name == "ItemUse":
        return "counter" if field.startswith("counterattack") else "pre"
    if name == "Totals":
        return "step" if field.startswith("counterattack") else "now"
    if name == "Concession":
        return record["phase"]
    if name == "Awaiting":
        return record["phase"]
    if name == "Option":
        return " ".join(str(record[k]) for k in ("choice", "damage") if record[k] is not None)
    return ""


def test_every_record_holds_its_keys_in_declaration_order() -> None:
    walk = KeyWalk(_site)
    seen = walk.seen
    codes: set[str] = set()
    for n, body in enumerate(_bodies()):
        res = run(**body)
        walk.check(res, CombatResult, f"request {n}: ")
        codes.update(e["code"] for e in res["events"])
    # Every record type of the combat, and every place the engine builds one, was walked.
    records = {record.__name__ for record in typed_dicts(models)}
    assert records <= set(seen), records - set(seen)  # the result, Roll and Event are walked too
    assert seen["ItemUse"] == {"pre", "counter"}
    assert seen["Totals"] == {"step", "now"}
    assert seen["Concession"] == {"rolloff", "counterattack"}
    assert seen["Awaiting"] == {"rolloff", "counterattack", "damage"}
    assert seen["Option"] == {
        "roll",
        "concede",
        "use_item",
        "damage fatigue",
        "damage knockback",
        "damage swap",
        "damage item",
    }
    # The two places a fatigue damage is built (below 3 and at 3).
    assert {"riders.damage.fatigue", "riders.damage.fatigue_at_max"} <= codes
    # Each side's state and its parts are dicts of the models' fields (also inside a swap's record),
    # and so are the decisions taken.
    assert {"Side", "Rider", "Position", "Item", "Decision"} <= set(seen)
