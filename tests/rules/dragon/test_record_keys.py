"""The records of a battle result are typed dicts, and its next state plain dicts of the state models'
fields, all written by orjson in insertion order: every dict the engine builds must hold exactly its
type's keys (a typed dict's, or a model's fields), in declaration order, or the response's bytes
change. The golden files pin the order for their cases only; this walks every dict of many results
(the golden requests with several seeds, and requests reaching every place a record is built)."""

from __future__ import annotations

from typing import Any

from rules.dragon import models
from rules.dragon.models import BattleResult
from tests.rules.dragon.helpers import dragon, ent, run
from tests.rules.record_keys import KeyWalk, golden_requests, seeded, typed_dicts

#: Requests reaching the places a record is built that the golden requests may not reach: the four
#: kinds of pair (swept, unresolved, interrupted, won), the left-over actions (join, failed join,
#: auto win, wait), both kinds of revealed dragonslayer, a location's prosperity change.
EXTRA: list[dict[str, Any]] = [
    {  # a sweep taking a pair's parties: swept, unresolved and won pairs, the location, both changes
        "dragon": dragon("g1", age=3, battle=2, dragon_die=True),
        "entities": [
            ent("g1", prosperity=5, level=2, target="dragon"),
            ent("s1", "player", prosperity=1, target="g2"),
            ent("g2", prosperity=2, target="s1"),
            ent("g4", prosperity=3, target="s2"),
            ent("s2", "player", prosperity=3, target="g4"),
        ],
        "location": {"id": "vale", "prosperity": 4},
        "dice": {"pool.dragon": [5, 3], "dragon_die": [15], "pool.g1": [6, 2, 1, 1, 1]},
    },
    {  # a join and an interrupted pair
        "dragon": dragon("g4"),
        "entities": [
            ent("s1", "player", prosperity=3, target="g2"),
            ent("g2", prosperity=3, target="s1"),
            ent("g3", prosperity=1, target="s1", if_left_over="join:g2"),
            ent("g4", prosperity=1, target="dragon"),
        ],
        "dice": {"pool.dragon": [1, 1], "pool.g4": [1]},
    },
    {  # a failed join and a plain wait
        "dragon": dragon("g1"),
        "entities": [
            ent("g1", prosperity=3, target="dragon"),
            ent("g2", prosperity=2, target="dragon"),
            ent("g3", prosperity=1, target="dragon", if_left_over="join:g2"),
        ],
    },
    {  # an automatic win outside the battle
        "dragon": dragon("g1"),
        "entities": [
            ent("g1", target="dragon"),
            ent("s1", "player", target="g1", if_left_over="auto_win:the mill"),
        ],
    },
    {  # a group reveals a dragonslayer minority
        "dragon": dragon("tribe", battle=3),
        "entities": [
            ent("tribe", prosperity=4, level=2, target="dragon", slayer_prosperity=2),
            ent("ally", "player", prosperity=1, target="tribe"),
        ],
        "dice": {"pool.dragon": [2, 3, 1], "pool.tribe": [6, 1, 1, 1]},
        "continues": True,
    },
    {  # every object's keys in reverse declaration order: the next state's are in declaration order
        "seed": "reversed",
        "location": {"prosperity": 2, "id": "moor"},
        "entities": [
            dict(reversed(ent("g1", prosperity=3, level=2, target="dragon", name="G").items())),
            dict(reversed(ent("s1", "player", target="g1", if_left_over="join:dragon").items())),
        ],
        "dragon": dict(reversed(dragon("g1", dragon_die=True, features_used=1).items())),
    },
    {  # an individual gains the feature
        "dragon": dragon("hero", battle=2),
        "entities": [ent("hero", kind="individual", prosperity=1, level=3, target="dragon")],
        "dice": {"pool.dragon": [2, 3], "pool.hero": [8]},
    },
]


def _bodies() -> list[dict[str, Any]]:
    golden = [body for _, body in golden_requests("dragon")]
    return [seeded_body for body in [*golden, *EXTRA] for seeded_body in seeded(body)]


def _site(name: str, record: dict[str, Any], where: str) -> str:
    """Which of the engine's constructions of a record type built this one (for coverage)."""
    if name == "Pair":
        if record["swept"]:
            return "swept"
        if not record["resolved"]:
            return "unresolved"
        return "interrupted" if record["interrupted"] else "won"
    if name == "LeftOverParty":
        return record["action"] + (" (failed join)" if record["note"] else "")
    if name == "SlayerRevealed":
        return record["kind"]
    if name == "ProsperityChange":
        return record["what"]
    if name == "Change":
        return record["by"]
    return ""


def test_every_record_holds_its_keys_in_declaration_order() -> None:
    walk = KeyWalk(_site)
    seen = walk.seen
    for n, body in enumerate(_bodies()):
        walk.check(run(**body), BattleResult, f"request {n}")
    # Every record type of the battle, and every place the engine builds one, was walked.
    records = {record.__name__ for record in typed_dicts(models)}
    assert records <= set(seen), records - set(seen)  # BattleResult, Roll and Event too
    assert {"BattleState", "Dragon", "Entity", "Location"} <= set(seen)
    assert seen["Pair"] == {"swept", "unresolved", "interrupted", "won"}
    assert seen["LeftOverParty"] == {"join", "wait (failed join)", "auto_win", "wait"}
    assert seen["SlayerRevealed"] == {"individual", "group"}
    assert seen["ProsperityChange"] == {"entity", "location"}
    assert seen["Change"] == {"player", "others"}
