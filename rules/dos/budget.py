"""Work budgets of the ``/dos`` endpoints (``rules.budget``): the base d10s a request can roll (a
pool's extra dice, DOS-3, and the initiative tie-breaks, DOS-15, bound themselves), the answer's
size, the odds terms and a simulation's dice (docs/hardening.md, "The work budget").
"""

from __future__ import annotations

import orjson

from rules.budget import NO_DICE, Work
from rules.dos.models import (
    ActionsRequest,
    AttackRequest,
    ComplexRequest,
    DamageRequest,
    InitiativeRequest,
    ManeuverRequest,
    ManeuverSide,
    OpposedRequest,
    PoolRequest,
    TestRequest,
    TurnCombatant,
    TurnRequest,
)
from rules.dos.odds import MAX_ODDS_POOL, AttackOddsRequest, OpposedOddsRequest, TestOddsRequest
from rules.dos.simulate import TurnSimulateRequest

#: An attack's dice besides the two pools: run_stop, location and damage (one d10 each, DOS-22..27).
ATTACK_EXTRA = 3


def roll_work(req: PoolRequest) -> Work:
    return Work(req.pool, ("pool",), "pool")


def test_work(req: TestRequest) -> Work:
    return Work(req.skill, ("skill",), "skill")


def opposed_work(req: OpposedRequest) -> Work:
    side = "a" if req.a.skill >= req.b.skill else "b"
    return Work(req.a.skill + req.b.skill, (side, "skill"), "a.skill + b.skill")


#: An attempt's bytes in an answer of /dos/complex at most, and a die's: measured 602 B an attempt
#: at skill 0 and 1,373 at skill 1 (ar, Foundry rolls: the widest), 230 B a die at skill 10.
#: Counted so that 1,000 attempts at skill 0 (no dice, a 0.6 MB answer) are not light work.
ATTEMPT_BYTES = 1_200
ATTEMPT_DIE_BYTES = 230


def complex_work(req: ComplexRequest) -> Work:
    return Work(
        req.attempts * req.skill,
        ("attempts",),
        f"attempts x skill = {req.attempts} x {req.skill}",
        answer=ANSWER_BASE + req.attempts * (ATTEMPT_BYTES + ATTEMPT_DIE_BYTES * req.skill),
        answer_how="the answer's size, counted from the attempts and their dice",
    )


def actions_work(req: ActionsRequest) -> Work:
    return NO_DICE


def initiative_work(req: InitiativeRequest) -> Work:
    rolled = len(req.combatants) - len(set(req.first))
    return Work(rolled, ("combatants",), "one d10 per combatant not placed first")


def damage_work(req: DamageRequest) -> Work:
    return Work(1, ("weapon",), "the damage die") if req.weapon is not None else NO_DICE


def attack_work(req: AttackRequest) -> Work:
    defense = max(req.defender.block, req.defender.dodge)
    return Work(
        req.attacker.skill + defense + ATTACK_EXTRA,
        ("attacker", "skill"),
        "attacker.skill + the defender's larger defense skill + 3",
    )


def _maneuver_pool(side: ManeuverSide) -> int:
    return max(side.unarmed, side.weapon, side.dodge)


def maneuver_work(req: ManeuverRequest) -> Work:
    a, b = _maneuver_pool(req.a), _maneuver_pool(req.b)
    return Work(a + b, ("a" if a >= b else "b",), "the two sides' largest skills")


def _attack_pool(c: TurnCombatant) -> int:
    """The skill of the combatant's weapon kind (DOS-17, DOS-21): its attack pool."""
    kind = c.weapon.kind
    return int(getattr(c.skills, "weapon" if kind == "melee" else kind))


def _maneuver_skill(c: TurnCombatant) -> int:
    s = c.skills
    return max(s.unarmed, s.weapon, s.dodge)


def _defense_skill(c: TurnCombatant) -> int:
    return max(c.skills.block, c.skills.dodge)


# What an answer of /dos/turn holds at most, in bytes, measured (docs/hardening.md, "The answer's
# size"): per declared attack or maneuver its events, records and Foundry roll, in the widest
# language (ar) with a critical wound; per character of the longer id of the two (ids are in
# slots, params and, without a name, texts); per byte of the longer name (a text shows it); per
# die of its pools (the roll record, the event's dice, a Foundry term); per combatant its state,
# initiative and actions entries. Measured 1,985 B an attack (2,715 with Foundry rolls), 19.5 B an
# id character, 6 B a name byte, 135 B a die (188): the figures below leave about a tenth more.
ATTACK_BYTES = {False: 2_200, True: 3_000}
ID_BYTES = 26
NAME_BYTES = 7
DIE_BYTES = {False: 150, True: 210}
COMBATANT_BYTES = 1_500
ANSWER_BASE = 2_000


def shown(name: str | None, id_: str) -> int:
    """The bytes a text spends on someone: the name as JSON writes it, else the id."""
    return len(orjson.dumps(name)) - 2 if name else len(id_)


def _action_bytes(c: TurnCombatant, target: TurnCombatant | None, dice: int, foundry: bool) -> int:
    ids = max(len(c.id), len(target.id) if target else 64)
    names = max(shown(c.name, c.id), shown(target.name, target.id) if target else 64)
    return (
        ATTACK_BYTES[foundry]
        + ID_BYTES * ids
        + NAME_BYTES * names
        + dice * (DIE_BYTES[foundry] + ids)
    )


def turn_work(req: TurnRequest) -> Work:
    """Initiative, then each declared attack (its pool, the target's larger defense pool and the
    three single dice) and maneuver (both sides' largest skills); an unknown target counts 0 (the
    resolver refuses it). The answer: every action's bytes (:data:`ATTACK_BYTES` ...)."""
    by_id = {c.id: c for c in req.combatants}
    dice = len(req.combatants) if req.order is None else 0
    answer = ANSWER_BASE
    for c in req.combatants:
        answer += COMBATANT_BYTES + ID_BYTES * len(c.id) + NAME_BYTES * shown(c.name, c.id)
        for d in c.declare:
            target = by_id.get(d.target) if d.target is not None else None
            if d.action == "attack":
                pools = _attack_pool(c) + (_defense_skill(target) if target else 0)
                dice += d.count * (pools + ATTACK_EXTRA)
                answer += d.count * _action_bytes(c, target, pools + ATTACK_EXTRA, req.foundry)
            elif d.action in ("grab", "break_free", "push", "feint_push"):
                pools = _maneuver_skill(c) + (_maneuver_skill(target) if target else 0)
                dice += pools
                answer += _action_bytes(c, target, pools, req.foundry)
    return Work(
        dice,
        ("combatants",),
        "the declared attacks' and maneuvers' pools",
        answer=answer,
        answer_how="the answer's size, counted from the declared attacks and maneuvers",
    )


#: Dice a simulation may roll, all its runs and turns together: about a second of CPU here
#: (docs/hardening.md, "Calibration").
SIMULATION_DICE = 500_000
#: Each combatant's turn counts as this many dice besides its pools, each declaration as this
#: many besides its pools (an attack, a maneuver at any skill, a step, a run, a wait: none is
#: free), and a maneuver's pools twice (both sides' opposed tests, their events). Measured at
#: load 8 (issue 46): a declaration resolved in a turn 56-76 us at skill 0, a maneuver of two
#: 10-die pools 150 us, an attack of two 10-die pools 118 us; a counted unit about 1.8 us (a
#: grab at skill 0 used to count nothing: 1,000 of them for 20 turns cost 5.7 s).
TURN_OVERHEAD = 40
ATTACK_OVERHEAD = 35
DECLARATION_OVERHEAD = 50
MANEUVER_POOLS = 2


def simulate_work(req: TurnSimulateRequest) -> Work:
    """Every run plays up to ``max_turns`` turns of the request's declarations: the first with its
    initiative d10s, each its attacks' and maneuvers' pools with the largest defense any foe of
    another side could bring (an attack on a fallen target turns on another; a maneuver's pools
    :data:`MANEUVER_POOLS` times), plus :data:`TURN_OVERHEAD` a combatant,
    :data:`ATTACK_OVERHEAD` an attack and :data:`DECLARATION_OVERHEAD` every other declaration."""
    foes: dict[str, tuple[int, int]] = {}
    for side in {c.side for c in req.combatants}:
        others = [c for c in req.combatants if c.side != side]
        foes[side] = (
            max((_defense_skill(c) for c in others), default=0),
            max((_maneuver_skill(c) for c in others), default=0),
        )
    by_id = {c.id: c for c in req.combatants}
    pools = 0
    for c in req.combatants:
        defense, skill = foes[c.side]
        for d in c.declare:
            target = by_id.get(d.target) if d.target is not None else None
            if d.action == "attack":
                most = max(defense, _defense_skill(target) if target else 0)
                pools += d.count * (_attack_pool(c) + most + ATTACK_EXTRA + ATTACK_OVERHEAD)
            elif d.action in ("grab", "break_free", "push", "feint_push"):
                most = max(skill, _maneuver_skill(target) if target else 0)
                pools += MANEUVER_POOLS * (_maneuver_skill(c) + most) + DECLARATION_OVERHEAD
            else:
                pools += DECLARATION_OVERHEAD
    turn = pools + TURN_OVERHEAD * len(req.combatants)
    initiative = len(req.combatants) if req.order is None else 0
    dice = req.runs * (initiative + req.max_turns * turn)
    return Work(
        dice,
        ("runs",),
        f"runs x (initiative + max_turns x a turn: its pools, {ATTACK_OVERHEAD} an attack,"
        f" {DECLARATION_OVERHEAD} another declaration, {TURN_OVERHEAD} a combatant) = "
        f"{req.runs} x ({initiative} + {req.max_turns} x {turn:,})",
        unit="dice",
        budget=SIMULATION_DICE,
    )


# ---------------------------------------------------------------- /dos/odds

#: Odds terms a request may enumerate: a backstop, the pools' own limit (``MAX_ODDS_POOL`` dice,
#: refused in ``rules.dos.odds.side``) binds first (two pools of 50 dice: 26,000 terms at most).
ODDS_TERMS = 50_000
#: Rule calls per enumerated (flag, total) of the first pool: ``outcome`` for a test; for an
#: opposed test or an attack ``opposed_winner`` twice per flag of the other pool, and ``outcome``
#: for a ranged attack's DC.
TEST_CALLS = 1
OPPOSED_CALLS = 6
ATTACK_CALLS = 7
#: Each damage die resolved by the damage resolver (DOS-26).
DAMAGE_DIE = 10
# The answer's bytes: a distribution's value besides the digits of its fraction, and the fixed part.
VALUE_BYTES = 70
ODDS_BASE = 2_000


def pool_values(n: int) -> int:
    """The results an ``n``-dice pool can show below its cut chains, at most, over its three flags
    (measured: 144 for 1 die, 1,115 for 50, 1,495 for 70: at most 20 n + 211 each)."""
    return 3 * (20 * n + 250)


def _digits(n: int) -> int:
    """Digits of a pool's denominator, 10^(2n + cut) (the cut is at most 30 chain tens here)."""
    return 2 * n + 32


def _listed(n: int) -> int:
    return (20 * n + 250) * (VALUE_BYTES + 2 * _digits(n))


def _odds_work(terms: int, loc: tuple[str, ...], how: str, answer: int) -> Work:
    return Work(
        terms,
        loc,
        how,
        unit="odds terms",
        budget=ODDS_TERMS,
        answer=answer,
        answer_how="the answer's size: every value of its distributions with its exact fraction",
    )


def _pool(n: int) -> int:
    return min(n, MAX_ODDS_POOL)  # beyond it the pool is refused before any term


def test_odds_work(req: TestOddsRequest) -> Work:
    n = _pool(req.skill)
    return _odds_work(
        TEST_CALLS * pool_values(n),
        ("skill",),
        "each result of the pool",
        ODDS_BASE + 2 * _listed(n),  # the pool's result and the total
    )


def opposed_odds_work(req: OpposedOddsRequest) -> Work:
    a, b = _pool(req.a.skill), _pool(req.b.skill)
    return _odds_work(
        OPPOSED_CALLS * pool_values(a),
        ("a" if a >= b else "b", "skill"),
        "each result of a's pool against b's flags",
        ODDS_BASE + _listed(a) + _listed(b),
    )


def attack_odds_work(req: AttackOddsRequest) -> Work:
    n = _pool(req.attacker.skill)
    d = _pool(max(req.defender.block, req.defender.dodge))
    prob = VALUE_BYTES + 2 * (_digits(n) + _digits(d))  # over both pools' denominators
    return _odds_work(
        ATTACK_CALLS * pool_values(n) + DAMAGE_DIE,
        ("attacker", "skill"),
        "each result of the attacker's pool against the defense's flags + the damage dice",
        ODDS_BASE + (DAMAGE_DIE + 8) * prob,  # 11 damage values at most, 7 chances
    )
