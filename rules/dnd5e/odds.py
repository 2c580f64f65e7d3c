"""Odds of a fifth-edition check and attack before anyone rolls (D5E-10..15): every d20 counted, what
each natural roll does asked of the engine's own resolvers, damage dice summed exactly, so that the
odds follow the rules the service resolves with (docs/odds.md, "How the numbers are made").
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

from rules.dice import DiceSource
from rules.dnd5e import attack as engine
from rules.dnd5e.d20 import D20, mode
from rules.dnd5e.models import (
    AttackRequest,
    CheckRequest,
    D20Mode,
    DamagePart,
    PartRoll,
    Target,
)
from rules.dnd5e.sentences import SENTENCES
from rules.events import EventLog
from rules.odds import Counts, Distribution, NoDice, Prob, counts, dice, distribution, prob


class CheckOddsRequest(NoDice, CheckRequest):
    """The `/dnd5e/check` request without `seed` and `dice`."""


class AttackOddsRequest(NoDice, AttackRequest):
    """The `/dnd5e/attack` request without `seed` and `dice`."""


@with_config(ConfigDict(extra="forbid"))
class CheckOdds(TypedDict):
    success: Annotated[Prob, Field(description="d20 + modifier meets or beats the DC (D5E-10).")]
    failure: Prob
    natural: Annotated[Distribution, Field(description="The d20 kept (mode applied).")]


@with_config(ConfigDict(extra="forbid"))
class AttackOdds(TypedDict):
    hit: Annotated[Prob, Field(description="Any hit, critical hits included (D5E-11).")]
    critical: Annotated[Prob, Field(description="A natural 20 (D5E-11).")]
    miss: Prob
    damage: Annotated[
        Distribution,
        Field(description="Damage dealt after resistance, vulnerability, immunity; 0 on a miss."),
    ]
    drops_to_0: Annotated[
        Prob, Field(description="A target above 0 hp is at 0 hp after the attack (D5E-14).")
    ]
    dies: Annotated[
        Prob, Field(description="The target is dead after the attack (D5E-14, D5E-15).")
    ]


def naturals(how: D20Mode) -> Counts:
    """The d20 kept (D5E-10): one d20, or the higher (lower) of two."""
    if how == "normal":
        return Counts({v: 1 for v in range(1, D20 + 1)}, D20)
    if how == "advantage":
        return Counts({v: 2 * v - 1 for v in range(1, D20 + 1)}, D20 * D20)
    return Counts({v: 2 * (D20 - v) + 1 for v in range(1, D20 + 1)}, D20 * D20)


def check_odds(req: CheckOddsRequest) -> CheckOdds:
    """P(success) of a d20 check (D5E-10)."""
    kept = naturals(mode(req.advantage, req.disadvantage))
    plain = CheckRequest(modifier=req.modifier, dc=req.dc)
    success = kept.fraction(
        lambda v: engine.check(plain, DiceSource("odds", {"d20": [v]}, None))["success"]
    )
    return {"success": prob(success), "failure": prob(1 - success), "natural": distribution(kept)}


def attack_odds(req: AttackOddsRequest) -> AttackOdds:
    """Hit, critical, damage and what it does to the target (D5E-11..15); the work checked first
    (``rules.dnd5e.budget.attack_odds_work``)."""
    kept = naturals(mode(req.advantage, req.disadvantage))
    bare = AttackRequest(attack_bonus=req.attack_bonus, damage=[], target=req.target)
    hit = critical = Fraction(0)
    for v, c in kept.counts.items():
        r = engine.attack(bare, DiceSource("odds", {"attack": [v]}, None))
        p = Fraction(c, kept.denominator)
        hit += p if r["hit"] else 0
        critical += p if r["critical"] else 0
    plain = _damage(req.damage, req.target, critical=False)
    crit = _damage(req.damage, req.target, critical=True)
    dealt: dict[int, Fraction] = {0: 1 - hit}
    drops, dies = _effects(req.target, 0, False, 1 - hit)
    for d, share, is_crit in ((plain, hit - critical, False), (crit, critical, True)):
        for v, c in d.counts.items():
            p = share * Fraction(c, d.denominator)
            dealt[v] = dealt.get(v, Fraction(0)) + p
            down, dead = _effects(req.target, v, is_crit, p)
            drops += down
            dies += dead
    return {
        "hit": prob(hit),
        "critical": prob(critical),
        "miss": prob(1 - hit),
        "damage": distribution(counts(dealt)),
        "drops_to_0": prob(drops),
        "dies": prob(dies),
    }


def _effects(target: Target, damage: int, critical: bool, p: Fraction) -> tuple[Fraction, Fraction]:
    """(P drops to 0, P dead) contributed by ``damage`` dealt with probability ``p`` (D5E-14/15)."""
    if not p:
        return Fraction(0), Fraction(0)
    state = engine.apply_damage(target, damage, critical, EventLog(SENTENCES))
    return (p if target.hp > 0 and state["hp"] == 0 else Fraction(0)), (
        p if state["dead"] else Fraction(0)
    )


def _damage(parts: list[DamagePart], target: Target, critical: bool) -> Counts:
    """The total after D5E-13, each part never below 0 and a critical's dice twice (D5E-12)."""
    by_type: dict[str, Counts] = {}
    for part in parts:
        d = Counts({part.formula.modifier: 1}, 1)
        for term in part.formula.dice_terms:
            count = term.count * (2 if critical else 1)
            d = d.plus(dice(count, term.sides).mapped(lambda v, s=term.sign: s * v))
        d = d.mapped(lambda v: max(0, v))
        by_type[part.type] = by_type[part.type].plus(d) if part.type in by_type else d
    total = Counts({0: 1}, 1)
    for kind, d in by_type.items():
        total = total.plus(d.mapped(lambda v, k=kind: _after_type(k, v, target)))
    return total


def _after_type(kind: str, amount: int, target: Target) -> int:
    """Immunity, resistance, vulnerability on one type's amount: the engine's ``by_type``."""
    part = PartRoll(dice="", type=kind, rolls=[], critical_rolls=[], modifier=0, total=amount)
    return engine.by_type([part], target, EventLog(SENTENCES))[0]["total"]
