"""Work budget of ``/riders/combat`` (``rules.budget``): the base dice of one combat.

Both roll-offs (2d6 + rage + pre items' extra dice, RDR-3) and every item's dice (RDR-5, RDR-6), each
item counted once (an item is used at most once a combat).
"""

from __future__ import annotations

from math import isqrt, log2, log10

from rules.budget import Work
from rules.riders.models import BASE_ROLLOFF_DICE, CombatRequest, Side, parse_dice
from rules.riders.odds import D6, CombatOddsRequest
from rules.riders.simulate import CombatSimulateRequest


def combat_work(req: CombatRequest) -> Work:
    ini_rolloff, ini_items = _side_dice(req.initiator)
    dfd_rolloff, dfd_items = _side_dice(req.defender)
    most = "defender" if dfd_items > ini_items else "initiator"  # the initiator on a tie
    dice = ini_rolloff + ini_items + dfd_rolloff + dfd_items
    return Work(dice, (most, "items"), "both roll-offs + the items' dice")


def _side_dice(side: Side) -> tuple[int, int]:
    """A side's roll-off dice (RDR-3) and its items' dice, in one pass over its items."""
    rolloff = BASE_ROLLOFF_DICE + side.rage
    dice = 0
    for item in side.items:
        if item.timing == "pre":
            rolloff += item.extra_rolloff_dice
        if item.dice is not None:
            dice += parse_dice(item.dice)[0]
    return rolloff, dice


#: Dice a simulation may roll, all its runs together (docs/hardening.md, "Calibration").
SIMULATION_DICE = 500_000
#: Each item counts as this many dice besides its own in every run (its decision, its events).
ITEM_OVERHEAD = 20


def simulate_work(req: CombatSimulateRequest) -> Work:
    """Every run is the whole combat (:func:`combat_work`: both roll-offs and every item's dice)
    plus :data:`ITEM_OVERHEAD` an item."""
    combat = combat_work(req)
    items = len(req.initiator.items) + len(req.defender.items)
    per_run = combat.dice + ITEM_OVERHEAD * (items + 2)
    return Work(
        req.runs * per_run,
        ("runs",),
        f"runs x (both roll-offs, the items' dice and {ITEM_OVERHEAD} an item) = "
        f"{req.runs} x {per_run:,}",
        unit="dice",
        budget=SIMULATION_DICE,
    )


#: Steps an odds request may take (docs/hardening.md, "Calibration": about 0.7 s of CPU here, some
#: 90-110 ns a step).
ODDS_WORK = 8_000_000
#: A pair of totals costs one step, and one more per this many decimal digits of its two counts
#: (the big-integer products grow with them: 120 ns a pair of 40-digit counts, 300 of 90-digit).
# The answer's bytes at most: its fixed part, and a listed value's besides the digits of its
# probability's fraction (``{"value": v, "p": {"p": <float>, "exact": "n/d"}}``).
ODDS_ANSWER_BASE = 400
ODDS_VALUE_BYTES = 60
COUNTER_BYTES = 200
PAIR_DIGITS = 100
#: Bits x sqrt(bits) of a polynomial per step (``polynomial_steps``).
POLYNOMIAL_SCALE = 1500


def polynomial_steps(values: int, bits: float) -> int:
    """A polynomial of ``values`` coefficients below ``2**bits`` (a Kronecker integer of about
    ``values x bits`` bits), raised or multiplied once: its steps grow as the integer's size to the
    power 1.5 (CPython's Karatsuba; measured: 20 d1000, 4 Mbit, 0.54 s; 100 d100, 6.6 Mbit, 1.0 s;
    50 d1000, 25 Mbit, 8.9 s; 100 d1000, 100 Mbit, 71 s)."""
    size = values * ((int(bits) // 8 + 1) * 8)
    return size * isqrt(size) // POLYNOMIAL_SCALE


def odds_work(req: CombatOddsRequest) -> Work:
    """The steps :func:`rules.riders.odds.combat_odds` takes, counted as its loops run: every
    polynomial raised and multiplied (``rules.odds.dice`` and ``Counts.plus``: one big-integer
    power or product each, :func:`polynomial_steps`), then every pair of the two totals' values
    once for the roll-off's chance and once more for each counter item of either side (``_chance``,
    ``_turns``), each pair weighed by its counts' digits. A total takes ``1 + dice x (sides - 1)``
    values over its dice (flat bonuses only shift it); the answer lists both totals' values, each
    with a fraction of as many digits as the rolls' count."""
    sizes: dict[str, int] = {}
    digits: dict[str, float] = {}
    polynomials = counters = 0
    for name, side in (("initiator", req.initiator), ("defender", req.defender)):
        rolloff = BASE_ROLLOFF_DICE + side.rage + side.extra_rolloff_dice
        for item in side.items:
            if item.timing == "pre":
                rolloff += item.extra_rolloff_dice
        size, bits = 1 + rolloff * (D6 - 1), rolloff * log2(D6)
        polynomials += polynomial_steps(size, bits)
        for item in side.items:
            if item.timing == "counter":
                counters += 1
            if item.dice is None:
                continue
            count, sides = parse_dice(item.dice)
            polynomials += polynomial_steps(1 + count * (sides - 1), count * log2(sides))
            if item.timing == "pre":
                size += count * (sides - 1)
                bits += count * log2(sides)
                polynomials += polynomial_steps(size, bits)  # the total times the item's dice
        sizes[name], digits[name] = size, bits * log10(2)
    weight = PAIR_DIGITS + int(digits["initiator"] + digits["defender"])
    pairs = sizes["initiator"] * sizes["defender"] * weight // PAIR_DIGITS
    most = "defender" if sizes["defender"] > sizes["initiator"] else "initiator"
    answer = ODDS_ANSWER_BASE + counters * (COUNTER_BYTES + 4 * int(sum(digits.values()) + 2))
    for name, size in sizes.items():
        answer += size * (ODDS_VALUE_BYTES + 2 * int(digits[name] + 2))
    return Work(
        polynomials + pairs * (1 + counters),
        (most, "items"),
        "the polynomials' steps + the totals' pairs x their digits x (1 + counter items) ="
        f" {polynomials:,} + {sizes['initiator']:,} x {sizes['defender']:,}"
        f" x {weight / PAIR_DIGITS:.2f} x {1 + counters}",
        unit="odds steps",
        budget=ODDS_WORK,
        answer=answer,
        answer_how="the answer's size: both totals' values and every counter's chances",
    )
