"""Where rules/dos.md and the Polish source differ, the source's plain reading is the default and the
rule file's reading an option (issue 19): DOS-26 thrown weapons, DOS-28 light damage at 0 hp and
critical wounds. Each rule holds alike in ``/dos/damage``, ``/dos/attack`` and ``/dos/turn``."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dos import combat, turn
from rules.dos.models import AttackRequest, DamageRequest, TurnRequest
from tests.rules.dos.helpers import build, source

ENDPOINTS = ["damage", "attack", "turn"]
LIFE = ("hp", "max_hp", "incapacitated", "critical", "beaten")
FISTS = {"kind": "unarmed"}
SWORD = {"kind": "melee", "damage": 0}


def hit(
    endpoint: str,
    state: dict[str, Any],
    *,
    weapon: dict[str, Any],
    strength: int,
    die: int = 6,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One hit of ``weapon`` with ``strength`` and damage die ``die`` on a target in ``state``,
    through ``endpoint``: how it counted, the amount, the event codes and the target's new state."""
    extra = {"options": options} if options is not None else {}
    res: Any
    ranged = {"ranged": {"dc": 0}} if weapon["kind"] in ("thrown", "shooting") else {}
    if endpoint == "damage":
        req: Any = build(
            DamageRequest,
            strength=strength,
            weapon=weapon,
            target=state,
            dice={"damage": [die]},
            **extra,
        )
        res = combat.damage(req, source(req, combat.damage_slots))
        damage, after = res, res["target"]
    elif endpoint == "attack":
        attacker = {"dexterity": 50, "strength": strength, "skill": 1, "weapon": weapon}
        req = build(
            AttackRequest,
            attacker=attacker,
            defender={"dexterity": 0, **state},
            defense="none",
            dice={"attack": [5], "location": [6], "damage": [die]},
            **ranged,
            **extra,
        )
        res = combat.attack(req, source(req, combat.attack_slots))
        damage, after = res["damage"], res["defender"]
    else:
        hitter = {
            "id": "hitter",
            "side": "a",
            "speed": 10,
            "dexterity": 50,
            "strength": strength,
            "skills": {"unarmed": 1, "weapon": 1, "thrown": 1, "shooting": 1},
            "weapon": weapon,
            "hp": 10,
            "declare": [
                {"action": "attack", "target": "t", "stop_when_down": False, "defense": "none"}
                | ranged
            ],
        }
        req = build(
            TurnRequest,
            combatants=[hitter, {"id": "t", "side": "b", "speed": 10, "dexterity": 0, **state}],
            order=["hitter", "t"],
            dice={"hitter.1.attack": [5], "hitter.1.location": [6], "hitter.1.damage": [die]},
            **extra,
        )
        res = turn.turn(req, source(req, turn.turn_slots))
        damage, after = res["results"][0]["attack"]["damage"], res["combatants"][1]
    return {
        "applied_as": damage["applied_as"],
        "amount": damage["amount"],
        "halved": damage["halved"],
        "codes": [e["code"] for e in res["events"]],
        **{k: after[k] for k in LIFE},
    }


def life(**fields: Any) -> dict[str, Any]:
    return {
        "hp": 0,
        "max_hp": 12,
        "incapacitated": False,
        "critical": False,
        "beaten": False,
        **fields,
    }


# ---------------------------------------------------------------- DOS-28 light damage at 0 hp


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_DOS_28_light_at_zero_full_bar(endpoint: str) -> None:
    """«W razie gdy postać pozbawiona jest całkowicie punktów życia zaczynają zadawać obrażenia
    poważne tak jakby pasek życia inicjalnie był pełny.»

    A light 4 at 0 hp (max_hp 12) is dealt as serious against a full bar: hp 8, not incapacitated,
    and the target is beaten; later light hits count as serious against that second bar, which is
    not refilled again; the one that takes it to 0 incapacitates; a light hit on a beaten target at
    0 hp is a serious hit at 0 hp, so a critical wound.
    """
    first = hit(endpoint, life(), weapon=FISTS, strength=4)
    assert {k: first[k] for k in ("applied_as", "amount", *LIFE)} == {
        "applied_as": "serious",
        "amount": 4,
        **life(hp=8, beaten=True),
    }
    at = first["codes"].index("dos.damage.full_bar")
    assert first["codes"][at + 1 : at + 2] == ["dos.damage.applied"]
    assert "dos.damage.incapacitated" not in first["codes"]
    state = {k: first[k] for k in LIFE}
    second = hit(endpoint, state, weapon=FISTS, strength=5)
    assert (second["applied_as"], second["hp"], second["beaten"]) == ("serious", 3, True)
    assert "dos.damage.beaten" in second["codes"] and "dos.damage.full_bar" not in second["codes"]
    state = {k: second[k] for k in LIFE}
    third = hit(endpoint, state, weapon=FISTS, strength=5)
    assert {k: third[k] for k in ("applied_as", *LIFE)} == {
        "applied_as": "serious",
        **life(hp=0, incapacitated=True, beaten=True),
    }
    state = {k: third[k] for k in LIFE}
    fourth = hit(endpoint, state, weapon=FISTS, strength=5)
    assert {k: fourth[k] for k in ("applied_as", *LIFE)} == {
        "applied_as": "critical",
        **life(hp=0, incapacitated=True, critical=True, beaten=True),
    }


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_DOS_28_light_at_zero_full_bar_overflow_and_incapacitated(endpoint: str) -> None:
    """A light hit at 0 hp bigger than the full bar empties it and incapacitates, without a
    critical wound; a light hit at 0 hp on an incapacitated target refills its bar the same way."""
    big = hit(endpoint, life(), weapon=FISTS, strength=15)
    assert {k: big[k] for k in ("applied_as", *LIFE)} == {
        "applied_as": "serious",
        **life(hp=0, incapacitated=True, beaten=True),
    }
    down = hit(endpoint, life(incapacitated=True), weapon=FISTS, strength=4)
    assert {k: down[k] for k in ("applied_as", *LIFE)} == {
        "applied_as": "serious",
        **life(hp=8, incapacitated=True, beaten=True),
    }


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_DOS_28_light_at_zero_without_max_hp(endpoint: str) -> None:
    """With no `max_hp` there is no full bar to refill: the light hit counts as serious at 0 hp
    (it incapacitates, and is no critical wound: it follows the light-damage rule)."""
    res = hit(endpoint, {"hp": 0}, weapon=FISTS, strength=4)
    assert (res["applied_as"], res["hp"], res["incapacitated"], res["critical"]) == (
        "serious",
        0,
        True,
        False,
    )
    assert (res["beaten"], res["max_hp"]) == (False, None)
    assert "dos.damage.no_full_bar" in res["codes"]


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_DOS_28_light_at_zero_no_refill_option(endpoint: str) -> None:
    """``light_at_zero: no_refill`` keeps the rule file's reading: the light hit counts as serious
    and the bar is not refilled, so hp stays 0 and the target is incapacitated."""
    res = hit(endpoint, life(), weapon=FISTS, strength=4, options={"light_at_zero": "no_refill"})
    assert {k: res[k] for k in ("applied_as", *LIFE)} == {
        "applied_as": "serious",
        **life(hp=0, incapacitated=True),
    }
    assert "dos.damage.light_as_serious" in res["codes"]


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_DOS_28_light_with_life_left_stays_light(endpoint: str) -> None:
    """Light damage with hp left takes hp down to 0 at most, with no status (DOS-28)."""
    res = hit(endpoint, life(hp=3), weapon=FISTS, strength=4)
    assert {k: res[k] for k in ("applied_as", *LIFE)} == {"applied_as": "light", **life(hp=0)}


# ---------------------------------------------------------------- DOS-28 critical wounds


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_DOS_28_critical_at_zero_hp(endpoint: str) -> None:
    """«Obrażenia tego typu postać może otrzymać, jeśli zostanie zraniona nie posiadając punktów
    żywotności.»

    A serious hit on a character at 0 hp is a critical wound, incapacitated or not; a serious hit
    on an incapacitated character with hp left is not.
    """
    standing = hit(endpoint, life(), weapon=SWORD, strength=3)
    assert {k: standing[k] for k in ("applied_as", *LIFE)} == {
        "applied_as": "critical",
        **life(incapacitated=True, critical=True),
    }
    down = hit(endpoint, life(incapacitated=True), weapon=SWORD, strength=3)
    assert {k: down[k] for k in ("applied_as", *LIFE)} == {
        "applied_as": "critical",
        **life(incapacitated=True, critical=True),
    }
    willed = hit(endpoint, life(hp=5, incapacitated=True), weapon=SWORD, strength=3)
    assert {k: willed[k] for k in ("applied_as", *LIFE)} == {
        "applied_as": "serious",
        **life(hp=2, incapacitated=True),
    }


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_DOS_28_critical_while_incapacitated_option(endpoint: str) -> None:
    """``critical_wounds: while_incapacitated`` keeps the rule file's reading: any damage taken
    while already incapacitated is critical, and a serious hit at 0 hp on a character still
    standing only incapacitates."""
    options = {"critical_wounds": "while_incapacitated"}
    standing = hit(endpoint, life(), weapon=SWORD, strength=3, options=options)
    assert {k: standing[k] for k in ("applied_as", *LIFE)} == {
        "applied_as": "serious",
        **life(incapacitated=True),
    }
    for state in (life(incapacitated=True), life(hp=5, incapacitated=True)):
        res = hit(endpoint, state, weapon=FISTS, strength=3, options=options)
        assert (res["applied_as"], res["critical"], res["beaten"]) == ("critical", True, False)


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_DOS_28_the_rule_files_reading_as_options(endpoint: str) -> None:
    """Both options together give the rule file's reading: light at 0 hp counts as serious without
    a refill and incapacitates; the next hit, of any kind, is critical."""
    options = {"light_at_zero": "no_refill", "critical_wounds": "while_incapacitated"}
    first = hit(endpoint, life(), weapon=FISTS, strength=4, options=options)
    assert {k: first[k] for k in ("applied_as", *LIFE)} == {
        "applied_as": "serious",
        **life(incapacitated=True),
    }
    state = {k: first[k] for k in LIFE}
    second = hit(endpoint, state, weapon=FISTS, strength=4, options=options)
    assert {k: second[k] for k in ("applied_as", *LIFE)} == {
        "applied_as": "critical",
        **life(incapacitated=True, critical=True),
    }


# ---------------------------------------------------------------- DOS-26 thrown weapons


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_DOS_26_thrown_weapon_made_for_throwing(endpoint: str) -> None:
    """«Podczas miotania bronią nie stworzoną do rzucania obrażenia zmniejszane są o 50%.»

    Only a weapon not made for throwing is halved: a thrown weapon is made for throwing unless it
    says not, so strength 18 + damage 5 with a damage die of 6 deals 23; with
    ``made_for_throwing: false`` it deals floor(23 x 100 / 200) = 11.
    """
    knife = {"kind": "thrown", "damage": 5}
    res = hit(endpoint, life(hp=40, max_hp=40), weapon=knife, strength=18, die=6)
    assert (res["halved"], res["amount"], res["hp"]) == (False, 23, 17)
    chair = {**knife, "made_for_throwing": False}
    res = hit(endpoint, life(hp=40, max_hp=40), weapon=chair, strength=18, die=6)
    assert (res["halved"], res["amount"], res["hp"]) == (True, 11, 29)


# ---------------------------------------------------------------- invariants


life_case = st.fixed_dictionaries(
    {
        "endpoint": st.sampled_from(ENDPOINTS),
        "hp": st.integers(0, 12),
        "incapacitated": st.booleans(),
        "critical": st.booleans(),
        "beaten": st.booleans(),
        "weapon": st.sampled_from([FISTS, SWORD]),
        "strength": st.integers(0, 20),
        "options": st.sampled_from(
            [None, {"light_at_zero": "no_refill"}, {"critical_wounds": "while_incapacitated"}]
        ),
    }
)


@settings(max_examples=150, deadline=None)
@given(life_case)
def test_DOS_28_life_state_invariants(case: dict[str, Any]) -> None:
    """hp stays within 0..max_hp; statuses stick; the bar is refilled at most once (only a light
    hit at 0 hp on a target not beaten raises hp); what a hit returns is accepted as the next
    target's state."""
    endpoint, hp, weapon, strength, options = (
        case["endpoint"],
        case["hp"],
        case["weapon"],
        case["strength"],
        case["options"],
    )
    critical, incapacitated, beaten = case["critical"], case["incapacitated"], case["beaten"]
    state = life(hp=hp, incapacitated=incapacitated, critical=critical, beaten=beaten)
    res = hit(endpoint, state, weapon=weapon, strength=strength, options=options)
    assert 0 <= res["hp"] <= 12
    assert res["critical"] >= critical and res["incapacitated"] >= incapacitated
    assert res["beaten"] >= beaten
    refilled = res["beaten"] and not beaten
    if refilled:
        assert (weapon, hp, res["hp"]) == (FISTS, 0, max(0, 12 - res["amount"]))
        assert options != {"light_at_zero": "no_refill"}
    else:
        assert res["hp"] == max(0, hp - res["amount"])
    if res["applied_as"] == "critical":
        assert res["critical"]
    again = hit(endpoint, {k: res[k] for k in LIFE}, weapon=weapon, strength=strength)
    assert again["hp"] <= res["hp"] or (again["beaten"] and not res["beaten"])
