"""Work budget of ``/dragon/battle`` (``rules.budget``): the base dice of one round.

The dragon's pool (battle + features used, DRG-6) and its dragon die (DRG-7), each entity's
prosperity dice (DRG-5) and an individual dragonslayer's extra die (DRG-8); an entity standing
aside (DRG-4) rolls nothing.
"""

from __future__ import annotations

from math import log10, prod

from rules.budget import MAX_DICE, Work
from rules.dragon.models import BattleRequest
from rules.dragon.odds import BattleOddsRequest, Dice, Sweep, round_of, sweep_of
from rules.dragon.simulate import BattleSimulateRequest


def battle_work(req: BattleRequest) -> Work:
    dragon = req.dragon
    dice = dragon.battle + dragon.features_used + int(dragon.dragon_die)
    for e in req.entities:
        if not e.aside:
            dice += e.prosperity + int(e.dragonslayer and e.kind == "individual")
    return Work(dice, ("entities",), "the dragon's pool + the entities' prosperity dice")


#: Dice a simulation may roll, all its runs and rounds together (docs/hardening.md, "Calibration").
SIMULATION_DICE = 5_000_000
#: Each party (the dragon and every entity) counts as this many dice a round besides its pool:
#: ordering, pairing, the next state cost about that much (measured: 7-15 us a party and round,
#: 0.1 us a die drawn in a pool).
ROUND_OVERHEAD = 100


def simulate_work(req: BattleSimulateRequest) -> Work:
    """Every run plays up to ``rerolls + 1`` rounds, each rolling at most the first round's dice
    (:func:`battle_work`: a round's next state never adds dice) plus :data:`ROUND_OVERHEAD` a
    party."""
    rounds = req.rerolls + 1
    per_round = battle_work(req).dice + ROUND_OVERHEAD * (len(req.entities) + 1)
    return Work(
        req.runs * rounds * per_round,
        ("runs",),
        f"runs x rounds x (a round's dice and {ROUND_OVERHEAD} a party) = "
        f"{req.runs} x {rounds} x {per_round:,}",
        unit="dice",
        budget=SIMULATION_DICE,
    )


# ---------------------------------------------------------------- /dragon/odds

#: Odds steps a request may take (docs/hardening.md, "Calibration": about half a second of CPU here).
ODDS_STEPS = 1_500_000


def odds_work(req: BattleOddsRequest) -> Work:
    """The steps :func:`rules.dragon.odds.battle_odds` takes, counted over the round's structure
    (who fights whom with which dice: the round resolved once, its dice never read, within the
    base dice :func:`battle_work` counts) before any odds are computed, and before any of the
    sweep's fractions (``sweep_of(exact=False)``: a refusal costs a few ms):

    - each distinct pair (DRG-9, DRG-10): for every value ``m`` of the loser's highest die, each
      side's binomial terms, their convolutions and the winner's row, weighed by the digits of
      the pair's numbers;
    - the sweep (DRG-11): every joint value of the parties counted twice, times every dragon-die
      value, times the running sum's values against each candidate's highest die (a Fraction
      product and sum each), plus the sizes written, weighed as a pair's by the digits of the
      fractions (every party's rolls).
    """
    rolled = battle_work(req)
    if rolled.dice > MAX_DICE:  # the structure is a round: the resolver's own bound first
        return rolled
    r = round_of(req)
    dice = r.pair_dice()
    pairs = PAIR_STEP * sum(
        _pair_steps(a, b) * (PAIR_DIGITS + _digits([*a, *b])) // PAIR_DIGITS
        for a, b in set(map(_key, dice))
    )
    answer = ANSWER_BASE
    for p, (a, b) in zip(r.shape["pairs"], dice, strict=True):
        members = p["a_side"]["members"] + p["b_side"]["members"]
        prob = PROB_BYTES + 2 * _digits(a + b)
        ids = sum(len(m) + 3 for m in members) + len(p["a"]) + len(p["b"])
        count = sum(c for _, c in a) + sum(c for _, c in b)
        answer += PAIR_BYTES + ids + 3 * prob + count * (VALUE_BYTES + prob)
    sweep = 0
    if r.dragon_die and r.shape["pairs"]:
        sw = sweep_of(req, r.shape, r.own, exact=False)
        every = [d for party in r.own.values() for d in party] + [(r.dragon_die, 1)]
        digits = _digits(every)
        sweep = _sweep_steps(sw, r.dragon_die) * (PAIR_DIGITS + digits) // PAIR_DIGITS
        prob = PROB_BYTES + 2 * digits
        answer += PAIR_BYTES + len(sw.opponent) + (len(sw.candidates) + 3) * (VALUE_BYTES + prob)
    return Work(
        pairs + sweep,
        ("entities",),
        f"the pairs' odds + the sweep's = {pairs:,} + {sweep:,}",
        unit="odds steps",
        budget=ODDS_STEPS,
        answer=answer,
        answer_how="the answer's size: every pair's successes and the sweep's sizes, exactly",
    )


#: What a step costs, in odds steps: a term of a pair's big-integer polynomials 1, a Fraction
#: operation of the sweep 4 (measured: 0.2-0.3 us against 1.1-1.3 us, a Fraction made and read
#: besides each operation).
PAIR_STEP = 1
SWEEP_STEP = 4
#: A pair's term (a sweep's operation) costs one step, and one more per this many decimal digits of
#: its rolls' count (the big integers grow with them: 100 d1000 against 100 d1000 took 1.7 s at
#: 808,808 terms; a sweep over 6 x 20 d30 and the dragon's 100 d20 5.1 s at 4.5 M steps).
PAIR_DIGITS = 100
# The answer's bytes at most: a pair's fixed part, a probability's besides the digits of its
# fraction (``{"p": <float>, "exact": "n/d"}``), a listed value's besides its probability.
ANSWER_BASE = 100
PAIR_BYTES = 200
PROB_BYTES = 50
VALUE_BYTES = 30


def _digits(dice: Dice) -> int:
    """Decimal digits of the number of rolls of ``dice`` (every denominator of their odds divides
    it), at most."""
    return int(sum(c * log10(s) for s, c in dice if s > 1)) + 2


def _key(pair: tuple[Dice, Dice]) -> tuple[tuple[tuple[int, int], ...], ...]:
    return tuple(pair[0]), tuple(pair[1])


def _pair_steps(*sides: tuple[tuple[int, int], ...]) -> int:
    """``_pair_counts``: per value of the loser's highest die, each winner's ``_above`` (its
    binomials' terms, the convolutions of one die size's with the others') and its row."""
    top = max([s for side in sides for s, _ in side], default=0)
    per_m = 0
    for side in sides:
        terms = length = 0
        for _, count in side:
            terms += count + 1
            if length:
                terms += length * (count + 1)  # the convolution
                length += count
            else:
                length = count + 1
        per_m += terms + length
    return (top + 1) * per_m


def _sweep_steps(sw: Sweep, sides: int) -> int:
    """``_sweep_odds``'s Fraction operations: per joint value (the product of the twice-counted
    parties' values) and per dragon-die value ``v`` from the dragon's allies' highest up (below it
    the die cannot trigger), the trigger's sum, each step of the running sum (at most ``v`` values
    below ``v``, the opponent's own first) against a candidate's values, and each sweep size
    written; then :data:`SWEEP_STEP` steps each."""
    fixed = set(sw.twice)
    steps = [1 if c in fixed else len(sw.highest[c]) for c in sw.candidates]
    opponent = len(sw.highest[sw.opponent])
    per_v = [0] * (sides + 2)  # per_v[v]: the operations of v .. sides, summed
    for v in range(sides, 0, -1):
        running, taken = opponent, 0
        for size in steps:
            taken += running * size
            running = min(v, running * size)
        here = min(v, len(sw.dragon_dice)) + 2 * taken + running + 4 * (len(steps) + 2)
        per_v[v] = per_v[v + 1] + here
    allies = [sorted(sw.highest[p]) for p in sw.twice if p in sw.dragon_allies]
    others = prod(len(sw.highest[p]) for p in sw.twice if p not in sw.dragon_allies)
    tops = sorted({v for values in allies for v in values} | {0})
    ops, below = 0, 0
    for top in tops:  # joint values whose dragon allies' highest is ``top``
        at_most = prod(sum(1 for v in values if v <= top) for values in allies)
        # an ally's die above the dragon die's sides: no dragon-die value is left (per_v[sides + 1])
        here = per_v[min(max(top, 1), sides + 1)]
        ops += (at_most - below) * others * (len(sw.twice) + opponent + here)
        below = at_most
    return SWEEP_STEP * (ops + 2 * (len(steps) + 2))  # and the sweep's chance, once
