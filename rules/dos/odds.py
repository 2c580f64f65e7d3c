"""Odds of a DoS test, opposed test and attack before anyone rolls (DOS-1..12, DOS-17..28): the pools
from :func:`rules.dos.poolodds.pool_odds`, the rules on top of them the engine's own functions (the
damage resolver itself once per damage die), so that the odds follow the rules the service resolves
with (docs/odds.md, "How the numbers are made").
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Literal, cast

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

from rules.dice import DiceSource
from rules.dos import combat
from rules.dos.models import (
    AttackRequest,
    DamageRequest,
    DamageTarget,
    DefenseKind,
    OpposedRequest,
    Outcome,
    PoolRoll,
    TestRequest,
)
from rules.dos.pool import D10, opposed_winner, outcome, total
from rules.dos.poolodds import TAIL_BELOW, PoolOdds, pool_odds
from rules.errors import FieldError, InvalidRequest, LimitExceeded
from rules.odds import (
    Counts,
    Distribution,
    NoDice,
    Prob,
    counts,
    distribution,
    merge,
    prob,
)

#: Pools larger than this are refused with a 422 naming the field: the first call for a pool size
#: costs about n^4 (docs/odds.md: 50 dice take about 0.08 s of CPU, 70 dice 0.3 s, 100 dice 1.4 s),
#: and its answer lists every result with its exact fraction (50 dice: 0.5 MB, 70 dice: 0.87 MB
#: to 30 bytes asked, issue 25): an opposed test or an attack computes two pools.
MAX_ODDS_POOL = 50

Flag = Literal["none", "luck", "bad_luck"]
FLAGS: tuple[Flag, ...] = ("none", "luck", "bad_luck")


class TestOddsRequest(NoDice, TestRequest):
    """The `/dos/test` request without `seed` and `dice`."""

    __test__ = False


class OpposedOddsRequest(NoDice, OpposedRequest):
    """The `/dos/opposed` request without `seed` and `dice`."""


class AttackOddsRequest(NoDice, AttackRequest):
    """The `/dos/attack` request without `seed` and `dice`."""


# ---------------------------------------------------------------- results


@with_config(ConfigDict(extra="forbid"))
class Truncation(TypedDict):
    """Where the explosion chains were cut (DOS-3)."""

    tail_below: Annotated[
        float, Field(description="Each pool's chains are cut where the mass beyond is below this.")
    ]
    tail: Annotated[
        Prob,
        Field(
            description="The mass of the cut rolls (all pools); each is counted as its pool's "
            "`tail_from` result in the outcomes, means and percentiles."
        ),
    ]
    tail_from: Annotated[
        list[int], Field(description="Per pool rolled (a, then b or the defense): the cut result.")
    ]


@with_config(ConfigDict(extra="forbid"))
class TestOutcomes(TypedDict):
    success: Annotated[Prob, Field(description="The total beats the DC, without luck (DOS-8).")]
    failure: Annotated[Prob, Field(description="The total falls short, without bad luck.")]
    luck: Annotated[Prob, Field(description="Luck: a success whatever the total (DOS-5).")]
    bad_luck: Annotated[Prob, Field(description="Bad luck: a failure whatever the total (DOS-5).")]


@with_config(ConfigDict(extra="forbid"))
class TestOdds(TypedDict):
    outcomes: Annotated[
        TestOutcomes,
        Field(
            description="How the test ends, one of four (`/dos/test`'s `outcome`): they sum to 1."
        ),
    ]
    succeeds: Annotated[
        Prob,
        Field(
            description="The test succeeds, luck included: `outcomes.success` + `outcomes.luck`"
            " (`/dos/test`'s `success`)."
        ),
    ]
    pool: Annotated[Distribution, Field(description="The pool's dice result (DOS-4).")]
    total: Annotated[Distribution, Field(description="The total (DOS-8).")]
    truncation: Truncation


@with_config(ConfigDict(extra="forbid"))
class OpposedOdds(TypedDict):
    a_wins: Prob
    b_wins: Prob
    tie: Annotated[Prob, Field(description="Equal totals, no override (DOS-12).")]
    a_total: Annotated[Distribution, Field(description="Side a's total.")]
    b_total: Annotated[Distribution, Field(description="Side b's total.")]
    truncation: Truncation


@with_config(ConfigDict(extra="forbid"))
class AttackOdds(TypedDict):
    defense: Annotated[
        DefenseKind | None,
        Field(description="The defense the attack meets (`auto` resolved as `/dos/attack` does)."),
    ]
    hit: Prob
    blocked: Annotated[Prob | None, Field(description="The block holds; null without a block.")]
    dodged: Annotated[Prob | None, Field(description="The dodge holds; null without a dodge.")]
    missed: Annotated[Prob, Field(description="No hit, whatever the reason (1 - hit).")]
    damage: Annotated[
        Distribution, Field(description="Damage dealt after armor (DOS-26); 0 on a miss.")
    ]
    incapacitated: Annotated[
        Prob, Field(description="The defender, not incapacitated before, is after it (DOS-28).")
    ]
    critical: Annotated[Prob, Field(description="The attack deals a critical wound (DOS-28).")]
    truncation: Truncation


# ---------------------------------------------------------------- sides


@dataclass(frozen=True)
class Side:
    """A pool's totals by flag (counts over one denominator), and its pool."""

    pool: PoolOdds
    totals: dict[Flag, Counts]
    tail_total: int

    def all(self) -> Counts:
        return merge(self.totals.values())


def side(stat: int, skill: int, percent: int, loc: tuple[str | int, ...]) -> Side:
    """The totals (DOS-8) of ``stat`` + a pool of ``skill`` dice at ``percent``."""
    if skill > MAX_ODDS_POOL:
        raise LimitExceeded(
            f"odds are computed for pools of at most {MAX_ODDS_POOL} dice; {skill} asked",
            [FieldError(loc, f"at most {MAX_ODDS_POOL} dice for odds")],
        )
    pool = pool_odds(skill)
    parts = pool.flags()
    totals = {
        flag: part.mapped(lambda r: total(stat, r, percent))
        for flag, part in zip(FLAGS, parts, strict=True)
    }
    return Side(pool, totals, total(stat, pool.tail_from, percent))


def _roll(flag: Flag) -> PoolRoll:
    """A stand-in roll carrying only the flags the rule functions read."""
    return cast(
        PoolRoll,
        {
            "slot": "",
            "dice": [],
            "result": 0,
            "luck": flag == "luck",
            "bad_luck": flag == "bad_luck",
        },
    )


def truncation(*pools: PoolOdds) -> Truncation:
    tail = sum((Fraction(p.tail, p.denominator) for p in pools), Fraction(0))
    return {
        "tail_below": float(TAIL_BELOW),
        "tail": prob(tail),
        "tail_from": [p.tail_from for p in pools],
    }


def pool_distribution(pool: PoolOdds) -> Distribution:
    """The dice result (DOS-4): the tail apart, at ``tail_from`` in the mean and percentiles."""
    return distribution(merge(pool.flags()), pool.result(), pool.tail)


# ---------------------------------------------------------------- test (DOS-11)


def test_odds(req: TestOddsRequest) -> TestOdds:
    """The odds of a simple test (DOS-11)."""
    s = side(req.stat, req.skill, req.percent, ("skill",))
    counted: dict[Outcome, int] = {o: 0 for o in ("success", "failure", "luck", "bad_luck")}
    for flag, totals in s.totals.items():
        roll = _roll(flag)
        for t, c in totals.counts.items():
            counted[outcome(roll, t, req.dc, req.options.ties)] += c
    found = {o: Fraction(c, s.pool.denominator) for o, c in counted.items()}
    assert sum(found.values()) == 1
    return {
        "outcomes": {
            "success": prob(found["success"]),
            "failure": prob(found["failure"]),
            "luck": prob(found["luck"]),
            "bad_luck": prob(found["bad_luck"]),
        },
        "succeeds": prob(found["success"] + found["luck"]),
        "pool": pool_distribution(s.pool),
        "total": total_distribution(s),
        "truncation": truncation(s.pool),
    }


def total_distribution(s: Side) -> Distribution:
    """The total (DOS-8); its tail is the pool's, counted at ``tail_from``'s total."""
    whole = s.all()
    tail = s.pool.tail * (whole.denominator // s.pool.denominator)
    listed = dict(whole.counts)
    if tail:
        listed[s.tail_total] -= tail
    return distribution(whole, Counts(listed, whole.denominator), tail)


# ---------------------------------------------------------------- opposed (DOS-12)


class Cumulative:
    """P(total < t) and P(total == t) of one flag's totals, by bisection."""

    def __init__(self, d: Counts) -> None:
        self.values = sorted(d.counts)
        self.below = [0]
        for v in self.values:
            self.below.append(self.below[-1] + d.counts[v])
        self.counts = d.counts
        self.denominator = d.denominator

    def less(self, t: int) -> int:
        return self.below[bisect_left(self.values, t)]

    def equal(self, t: int) -> int:
        return self.counts.get(t, 0)

    @property
    def mass(self) -> int:
        return self.below[-1]


def win_chances(a_flag: Flag, a_total: int, b: dict[Flag, Cumulative]) -> tuple[int, int]:
    """(a wins, tie) for side a with ``a_flag`` and ``a_total`` against side b (DOS-12), as
    counts over side b's denominator."""
    wins = ties = 0
    a = _roll(a_flag)
    for b_flag, cum in b.items():
        if not cum.mass:
            continue
        rb = _roll(b_flag)
        low, high = opposed_winner(a, 1, rb, 0), opposed_winner(a, 0, rb, 1)
        if low == high:  # the flags decide (DOS-12 overrides)
            wins += cum.mass if low == "a" else 0
            continue
        wins += cum.less(a_total)
        ties += cum.equal(a_total)
    return wins, ties


def opposed_odds(req: OpposedOddsRequest) -> OpposedOdds:
    """The odds of an opposed test (DOS-12)."""
    a = side(req.a.stat, req.a.skill, req.a.percent, ("a", "skill"))
    b = side(req.b.stat, req.b.skill, req.b.percent, ("b", "skill"))
    b_cum = {flag: Cumulative(d) for flag, d in b.totals.items()}
    wins = ties = 0
    for flag, totals in a.totals.items():
        for t, c in totals.counts.items():
            w, e = win_chances(flag, t, b_cum)
            wins += c * w
            ties += c * e
    denominator = a.pool.denominator * b.pool.denominator
    a_wins, tie = Fraction(wins, denominator), Fraction(ties, denominator)
    return {
        "a_wins": prob(a_wins),
        "b_wins": prob(1 - a_wins - tie),
        "tie": prob(tie),
        "a_total": total_distribution(a),
        "b_total": total_distribution(b),
        "truncation": truncation(a.pool, b.pool),
    }


# ---------------------------------------------------------------- attack (DOS-17..28)


def attack_odds(req: AttackOddsRequest) -> AttackOdds:
    """The odds of one attack (DOS-17..22) and of what its damage does (DOS-26, DOS-28)."""
    weapon = req.attacker.weapon
    ranged = weapon.ranged
    if ranged != (req.ranged is not None):
        raise InvalidRequest.at(
            ("ranged",),
            f"a {weapon.kind} attack needs `ranged: {{dc}}` exactly when it is thrown or shooting "
            "(DOS-21)",
        )
    kind = combat.choose_defense(req.defense, req.defender, ranged, ("defense",))
    att = side(req.attacker.dexterity, req.attacker.skill, req.percent, ("attacker", "skill"))
    pools = [att.pool]
    defense: dict[Flag, Cumulative] | None = None
    if kind is not None:
        percent = req.defense_percent + (combat.RUNNING_PERCENT if req.defender.running else 0)
        d = side(
            req.defender.dexterity,
            getattr(req.defender, kind),
            combat.clamp_percent(percent),
            ("defender", kind),
        )
        pools.append(d.pool)
        defense = {flag: Cumulative(t) for flag, t in d.totals.items()}
    hits = 0
    scale = pools[-1].denominator if defense is not None else 1
    for flag, totals in att.totals.items():
        for t, c in totals.counts.items():
            hits += c * _hit_chance(req, flag, t, defense, scale)
    hit = Fraction(hits, att.pool.denominator * scale)
    missed = 1 - hit
    damage, incapacitated, critical = _damage(req, hit)
    return {
        "defense": kind,
        "hit": prob(hit),
        "blocked": prob(missed) if kind == "block" else None,
        "dodged": prob(missed) if kind == "dodge" else None,
        "missed": prob(missed),
        "damage": damage,
        "incapacitated": prob(incapacitated),
        "critical": prob(critical),
        "truncation": truncation(*pools),
    }


def _hit_chance(
    req: AttackOddsRequest,
    flag: Flag,
    t: int,
    defense: dict[Flag, Cumulative] | None,
    scale: int,
) -> int:
    """Hits (over ``scale``: the defense's denominator) for an attack total ``t`` with ``flag``
    (DOS-17, DOS-19, DOS-21)."""
    if req.ranged is not None:
        out = outcome(_roll(flag), t, req.ranged.dc, req.ranged.ties)
        if out not in ("success", "luck"):
            return 0
        if defense is None:
            return scale
    elif defense is None:
        return 0 if flag == "bad_luck" else scale
    return win_chances(flag, t, defense)[0]


def _damage(req: AttackOddsRequest, hit: Fraction) -> tuple[Distribution, Fraction, Fraction]:
    """The damage (0 on a miss) and the chances of incapacitating and of a critical wound.

    Each damage die is resolved by the engine's own damage resolver with that die scripted.
    """
    d = req.defender
    target = DamageTarget.model_validate(
        {name: getattr(d, name) for name in DamageTarget.model_fields}
    )
    amounts: dict[int, Fraction] = {0: 1 - hit}
    incapacitated = critical = Fraction(0)
    each = hit / D10
    for die in range(1, D10 + 1):
        body = DamageRequest(
            strength=req.attacker.strength,
            weapon=req.attacker.weapon,
            armor=d.armor,
            target=target,
            options=req.options,
        )
        result = combat.damage(body, DiceSource("odds", {"damage": [die]}, None))
        amounts[result["amount"]] = amounts.get(result["amount"], Fraction(0)) + each
        if result["target"]["incapacitated"] and not d.incapacitated:
            incapacitated += each
        if result["applied_as"] == "critical":
            critical += each
    return distribution(counts(amounts)), incapacitated, critical
