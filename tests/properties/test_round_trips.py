"""State round trips: every state an answer returns for the caller to send back is accepted as the
next request, for many seeds and several rounds, starting from situations at the schema's limits.

- ``/dos/attack``'s ``defender`` and ``/dos/damage``'s ``target``, ``/dragon/battle``'s
  ``next_state`` and ``/riders/combat``'s ``state`` are sent back exactly as returned;
- ``/dos/turn``'s ``combatants`` and ``/dnd5e/attack``'s ``target`` are states, not whole request
  parts: every key of the state that the request's part declares is sent back as returned (the rest
  of the part is the caller's sheet, unchanged);
- ``/dnd5e/death-save``'s ``successes`` and ``failures`` are sent back as returned.

A chain ends where the game does: a dead 5e creature takes no more attacks or saves, a stable one
no more saves, a finished dragon battle (``continues`` false) no more rounds.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules.dnd5e.models import Target as FifthTarget
from rules.dos.models import TurnCombatant
from rules.models import MAX_ATTEMPTS, MAX_STAT
from tests.conftest import Api
from tests.properties.strategies import PROFILE

ROUNDS = 6
api = Api(log_level="warning")

skill = st.integers(0, 100)
small_skill = st.integers(0, 12)
hp = st.one_of(st.integers(0, 40), st.just(MAX_STAT), st.just(0))
weapon = st.one_of(
    st.just({"kind": "unarmed"}),
    st.builds(lambda d: {"kind": "melee", "damage": d}, st.integers(0, 20)),
)


def post(path: str, body: dict[str, Any], seed: int, n: int) -> dict[str, Any]:
    r = api.post(path, json={**body, "seed": f"{seed}.{n}"})
    assert r.status_code == 200, f"round {n} of {path}: {r.text[:1500]}\nrequest: {body}"
    answer: dict[str, Any] = r.json()
    return answer


def merge(part: dict[str, Any], state: dict[str, Any], fields: set[str]) -> dict[str, Any]:
    """The request part with every key of ``state`` it declares set as returned."""
    return {**part, **{k: v for k, v in state.items() if k in fields}}


@st.composite
def life(draw: st.DrawFn) -> dict[str, Any]:
    """A DoS life state (DOS-28), hp within max_hp when one is given."""
    max_hp = draw(st.one_of(st.none(), st.integers(1, 40), st.just(MAX_STAT)))
    now = draw(hp) if max_hp is None else draw(st.integers(0, max_hp))
    return {
        "hp": now,
        "max_hp": max_hp,
        "incapacitated": draw(st.booleans()) and now == 0,
        "critical": draw(st.booleans()),
    }


@st.composite
def dos_defender(draw: st.DrawFn) -> dict[str, Any]:
    block, dodge = draw(skill), draw(skill)
    running = draw(st.booleans())
    return {
        **draw(life()),
        "dexterity": draw(st.integers(-5, 30)),
        "block": block,
        "dodge": dodge,
        "blocks_used": draw(st.integers(0, block + 1)),
        "dodges_used": draw(st.integers(0, dodge)),
        "armor": draw(st.integers(0, 3)),
        "running": running,
        "stopped": not running and draw(st.booleans()),
    }


@PROFILE
@given(defender=dos_defender(), attack_skill=skill, arm=weapon, seed=st.integers(0, 2**32))
def test_dos_attack_defender_round_trips(
    defender: dict[str, Any], attack_skill: int, arm: dict[str, Any], seed: int
) -> None:
    attacker = {"dexterity": 10, "strength": 8, "skill": attack_skill, "weapon": arm}
    for n in range(ROUNDS):
        defender = post("/dos/attack", {"attacker": attacker, "defender": defender}, seed, n)[
            "defender"
        ]


@PROFILE
@given(
    target=life(),
    hit=st.one_of(
        st.builds(lambda w: {"weapon": w, "strength": 9}, weapon),
        st.builds(
            lambda a, k: {"amount": a, "kind": k},
            st.integers(0, 15),
            st.sampled_from(["light", "serious", "critical"]),
        ),
    ),
    seed=st.integers(0, 2**32),
)
def test_dos_damage_target_round_trips(
    target: dict[str, Any], hit: dict[str, Any], seed: int
) -> None:
    for n in range(ROUNDS):
        target = post("/dos/damage", {**hit, "target": target}, seed, n)["target"]


@st.composite
def dos_side(draw: st.DrawFn, side: str, foes: list[str]) -> list[dict[str, Any]]:
    out = []
    for i in range(draw(st.integers(1, 3))):
        out.append(
            {
                "id": f"{side}{i}",
                "side": side,
                "speed": draw(st.integers(1, 30)),
                "dexterity": draw(st.integers(0, 30)),
                "strength": draw(st.integers(0, 20)),
                "skills": {
                    "weapon": draw(small_skill),
                    "block": draw(small_skill),
                    "dodge": draw(small_skill),
                    "unarmed": draw(small_skill),
                },
                "weapon": draw(weapon),
                **draw(life()),
                "declare": [{"action": "attack", "target": draw(st.sampled_from(foes))}],
            }
        )
    return out


@PROFILE
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_dos_turn_combatants_round_trip(data: st.DataObject, seed: int) -> None:
    fields = set(TurnCombatant.model_fields)
    combatants = data.draw(dos_side("a", ["b0"])) + data.draw(dos_side("b", ["a0"]))
    for n in range(ROUNDS):
        states = post("/dos/turn", {"combatants": combatants}, seed, n)["combatants"]
        combatants = [merge(c, s, fields) for c, s in zip(combatants, states, strict=True)]


@st.composite
def battle(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 4))
    entities = [
        {
            "id": f"e{i}",
            "controller": "gm",
            "kind": draw(st.sampled_from(["individual", "group"])),
            "prosperity": draw(st.integers(0, 100)),
            "level": draw(st.integers(1, 6)),
            "dragonslayer": draw(st.booleans()),
            "target": "dragon",
        }
        for i in range(n)
    ]
    battle_dice = draw(st.integers(1, 100))
    return {
        "dragon": {
            "age": draw(st.integers(1, 6)),
            "battle": battle_dice,
            "wounds": draw(st.integers(0, battle_dice - 1)),
            "features_used": draw(st.integers(0, 100 - battle_dice)),
            "dragon_die": draw(st.booleans()),
            "target": "e0",
        },
        "entities": entities,
        "location": draw(st.one_of(st.none(), st.just({"id": "hill", "prosperity": 0}))),
        "round": draw(st.one_of(st.integers(1, 5), st.just(999), st.just(1000))),
    }


@PROFILE
@given(body=battle(), seed=st.integers(0, 2**32))
def test_dragon_next_state_round_trips(body: dict[str, Any], seed: int) -> None:
    for n in range(ROUNDS):
        # DRG-16: the battle goes on while it may (a battle lasts at most 1000 rounds)
        continues = body["round"] < MAX_ATTEMPTS
        answer = post("/dragon/battle", {**body, "continues": continues}, seed, n)
        if answer["battle_ended"]:
            return
        body = answer["next_state"]


@st.composite
def rider_side(draw: st.DrawFn, name: str, element: str) -> dict[str, Any]:
    fatigue = draw(st.integers(0, 3))
    extra = draw(st.integers(0, 3))
    items = (
        [
            {
                "id": f"{name}-potion",
                "name": "Rage Potion",
                "timing": "pre",
                "extra_rolloff_dice": extra,
            }
        ]
        if extra
        else []
    )
    return {
        "id": name,
        "element": element,
        "riders": [{"id": f"{name}-rider", "current": fatigue < 3}],
        "has_rider": fatigue < 3,
        "fatigue": fatigue,
        "rage": draw(st.one_of(st.integers(0, 5), st.integers(90, 98 - extra))),
        "terrain_bonus": draw(st.integers(0, 4)),
        "items": items,
    }


@PROFILE
@given(
    initiator=rider_side("red", "fire"),
    defender=rider_side("blue", "water"),
    seed=st.integers(0, 2**32),
)
def test_riders_state_round_trips(
    initiator: dict[str, Any], defender: dict[str, Any], seed: int
) -> None:
    for n in range(ROUNDS):
        state = post(
            "/riders/combat", {"initiator": initiator, "defender": defender, "auto": True}, seed, n
        )["state"]
        initiator, defender = state["initiator"], state["defender"]


@PROFILE
@given(
    max_hp=st.integers(1, 30),
    data=st.data(),
    monster=st.booleans(),
    failures=st.integers(0, 2),
    seed=st.integers(0, 2**32),
)
def test_dnd5e_attack_target_round_trips(
    max_hp: int, data: st.DataObject, monster: bool, failures: int, seed: int
) -> None:
    fields = set(FifthTarget.model_fields)
    now = data.draw(st.integers(0, max_hp))
    target = {
        "ac": 12,
        "hp": now,
        "max_hp": max_hp,
        "monster": monster,
        "death_save_failures": failures if now == 0 else 0,
    }
    body = {"attack_bonus": 4, "damage": [{"dice": "1d8+2", "type": "slashing"}]}
    for n in range(ROUNDS):
        state = post("/dnd5e/attack", {**body, "target": target}, seed, n)["target"]
        if state["dead"]:
            return  # the game ends here: a dead creature is not attacked again
        target = merge(target, state, fields)


@PROFILE
@given(successes=st.integers(0, 2), failures=st.integers(0, 2), seed=st.integers(0, 2**32))
def test_dnd5e_death_save_counts_round_trip(successes: int, failures: int, seed: int) -> None:
    counts = {"successes": successes, "failures": failures}
    for n in range(ROUNDS):
        answer = post("/dnd5e/death-save", counts, seed, n)
        if answer["dead"] or answer["stable"] or answer["conscious"]:
            return  # no more death saves: dead, stable, or back on its feet (a natural 20)
        counts = {"successes": answer["successes"], "failures": answer["failures"]}
