"""d20 tests, attacks with damage, and death saving throws (D5E-10..16).

Attack draw order: the attack d20(s) in slot `attack`; on a hit, each damage part n in request order in
slot `damage.<n>`: its dice terms left to right, each term's dice one after another; on a critical hit
the part's dice terms are then rolled a second time in the same order (D5E-12). A miss draws no damage.
"""

from __future__ import annotations

from rules.dice import DiceSource, SlotSpec
from rules.dnd5e.d20 import D20, mode, roll_d20
from rules.dnd5e.damage import DiceTerm
from rules.dnd5e.models import (
    Applied,
    AttackRequest,
    AttackResult,
    CheckRequest,
    CheckResult,
    DamagePart,
    DeathSaveRequest,
    DeathSaveResult,
    PartRoll,
    Target,
    TargetState,
    TypeDamage,
)
from rules.dnd5e.sentences import SENTENCES
from rules.events import EventLog, foundry_trace

DEATH_SAVE_DC = 10
THREE = 3


def check_slots(req: CheckRequest) -> SlotSpec:
    return {"d20": D20}


def check(req: CheckRequest, dice: DiceSource) -> CheckResult:
    """D5E-10: d20 + modifier, success when it meets or beats the DC (no automatic 1 or 20)."""
    log = EventLog(SENTENCES)
    r = roll_d20(dice, "d20", mode(req.advantage, req.disadvantage), req.modifier)
    total = r["total"]
    success = total >= req.dc
    log.add(
        "dnd5e.check.success" if success else "dnd5e.check.failure",
        total=total,
        d20s=r["d20s"],
        mode=r["mode"],
        modifier=r["modifier"],
        dc=req.dc,
    )
    return {
        **foundry_trace(dice, log),
        "d20s": r["d20s"],
        "natural": r["natural"],
        "mode": r["mode"],
        "total": total,
        "dc": req.dc,
        "success": success,
    }


def attack_slots(req: AttackRequest) -> SlotSpec:
    return {"attack": D20} | {f"damage.{n}": p.formula.sides for n, p in enumerate(req.damage)}


def _roll_terms(dice: DiceSource, slot: str, terms: tuple[DiceTerm, ...]) -> list[int]:
    """D5E-12: each term's dice in order, signed by the term."""
    out: list[int] = []
    for t in terms:
        values = dice.roll_many(slot, t.sides, t.count)
        out += values if t.sign > 0 else [-v for v in values]
    return out


def roll_part(
    dice: DiceSource, n: int, part: DamagePart, critical: bool, log: EventLog
) -> PartRoll:
    """D5E-12: the dice plus the modifiers, never below 0; a critical rolls the dice twice."""
    formula = part.formula
    slot = f"damage.{n}"
    rolls = _roll_terms(dice, slot, formula.dice_terms)
    crit = _roll_terms(dice, slot, formula.dice_terms) if critical else []
    total = max(0, sum(rolls) + sum(crit) + formula.modifier)
    log.add(
        "dnd5e.damage.critical" if critical else "dnd5e.damage.part",
        n=n,
        dice=formula.text,
        type=part.type,
        rolls=rolls,
        critical_rolls=crit,
        modifier=formula.modifier,
        total=total,
    )
    return {
        "dice": formula.text,
        "type": part.type,
        "rolls": rolls,
        "critical_rolls": crit,
        "modifier": formula.modifier,
        "total": total,
    }


def by_type(parts: list[PartRoll], target: Target, log: EventLog) -> list[TypeDamage]:
    """D5E-13, per damage type (parts of one type are summed first, in order of appearance):
    immunity makes it 0; otherwise resistance halves it (rounded down), then vulnerability doubles."""
    rolled: dict[str, int] = {}
    for p in parts:
        rolled[p["type"]] = rolled.get(p["type"], 0) + p["total"]
    out: list[TypeDamage] = []
    for kind, amount in rolled.items():
        applied: list[Applied] = []
        total = amount
        if kind in target.immunities:
            applied.append("immunity")
            total = 0
        else:
            if kind in target.resistances:
                applied.append("resistance")
                total //= 2
            if kind in target.vulnerabilities:
                applied.append("vulnerability")
                total *= 2
        if applied:
            log.add(
                "dnd5e.damage.type",
                type=kind,
                rolled=amount,
                total=total,
                applied=", ".join(applied),
            )
        out.append({"type": kind, "rolled": amount, "applied": applied, "total": total})
    return out


def apply_damage(target: Target, damage: int, critical: bool, log: EventLog) -> TargetState:
    """D5E-14/15: temporary hit points first; 0 hp: unconscious, a monster dies, massive damage
    (left over >= max) kills; damage at 0 hp adds one failure (two on a critical), three kill."""
    temp = target.temp_hp
    absorbed = min(temp, damage)
    if absorbed:
        log.add("dnd5e.target.temp_hp", absorbed=absorbed)
    temp -= absorbed
    rest = damage - absorbed
    hp = target.hp
    failures = target.death_save_failures
    dead = target.monster and hp == 0
    massive = False
    if rest > 0 and not dead:
        if hp > 0:
            left_over = max(0, rest - hp)
            new_hp = max(0, hp - rest)
            log.add("dnd5e.target.hp", before=hp, after=new_hp)
            hp = new_hp
            if hp == 0:
                if left_over >= target.max_hp:
                    massive = dead = True
                    log.add("dnd5e.target.massive", left_over=left_over, max_hp=target.max_hp)
                elif target.monster:
                    dead = True
                    log.add("dnd5e.target.monster_dies")
                else:
                    log.add("dnd5e.target.unconscious")
        elif rest >= target.max_hp:
            massive = dead = True
            log.add("dnd5e.target.massive", left_over=rest, max_hp=target.max_hp)
        else:
            added = 2 if critical else 1
            failures = min(THREE, failures + added)
            log.add("dnd5e.target.failures", added=added, failures=failures)
            if failures >= THREE:
                dead = True
                log.add("dnd5e.target.dead")
    return {
        "hp": hp,
        "temp_hp": temp,
        "unconscious": hp == 0 and not dead,
        "dead": dead,
        "death_save_failures": failures,
        "massive_damage": massive,
    }


def attack(req: AttackRequest, dice: DiceSource) -> AttackResult:
    """D5E-11: a natural 20 hits (critically), a natural 1 misses, else total >= AC hits."""
    log = EventLog(SENTENCES)
    ac = req.target.ac
    r = roll_d20(dice, "attack", mode(req.advantage, req.disadvantage), req.attack_bonus)
    natural, d20s, how = r["natural"], r["d20s"], r["mode"]
    critical = natural == D20
    hit = critical or (natural != 1 and r["total"] >= ac)
    params = {"total": r["total"], "ac": ac}
    if critical:
        log.add("dnd5e.attack.critical", **params)
    elif natural == 1:
        log.add("dnd5e.attack.fumble", **params)
    else:
        code = "dnd5e.attack.hit" if hit else "dnd5e.attack.miss"
        log.add(code, d20s=d20s, mode=how, **params)
    parts = [roll_part(dice, n, p, critical, log) for n, p in enumerate(req.damage)] if hit else []
    types = by_type(parts, req.target, log)
    total = sum(t["total"] for t in types)
    if hit:
        log.add("dnd5e.damage.total", total=total)
    state = apply_damage(req.target, total, critical, log)
    return {
        **foundry_trace(dice, log),
        "hit": hit,
        "critical": critical,
        "attack": {"d20s": d20s, "natural": natural, "mode": how, "total": r["total"]},
        "ac": ac,
        "damage": parts,
        "by_type": types,
        "damage_total": total,
        "target": state,
    }


def death_save_slots(req: DeathSaveRequest) -> SlotSpec:
    return {"d20": D20}


def death_save(req: DeathSaveRequest, dice: DiceSource) -> DeathSaveResult:
    """D5E-16: 10 or more succeeds; three successes: stable; three failures: dead; a natural 1 is
    two failures; a natural 20 restores 1 hp. Stable or back to 1 hp, the creature is no longer
    dying: both counts reset to 0 (SRD 5.1)."""
    log = EventLog(SENTENCES)
    r = roll_d20(dice, "d20", mode(req.advantage, req.disadvantage), req.modifier)
    successes, failures = req.successes, req.failures
    natural, total = r["natural"], r["total"]
    hp = 0
    if natural == D20:
        success = True
        hp = 1
        log.add("dnd5e.death_save.nat20")
    elif natural == 1:
        success = False
        failures = min(THREE, failures + 2)
        log.add("dnd5e.death_save.nat1", failures=failures)
    elif total >= DEATH_SAVE_DC:
        success = True
        successes += 1
        log.add("dnd5e.death_save.success", total=total, successes=successes)
    else:
        success = False
        failures += 1
        log.add("dnd5e.death_save.failure", total=total, failures=failures)
    stable = successes >= THREE
    dead = failures >= THREE
    if stable:
        log.add("dnd5e.death_save.stable")
    if dead:
        log.add("dnd5e.death_save.dead")
    if stable or hp:
        log.add("dnd5e.death_save.reset", successes=successes, failures=failures)
        successes, failures = 0, 0
    return {
        **foundry_trace(dice, log),
        "d20s": r["d20s"],
        "natural": natural,
        "total": total,
        "success": success,
        "successes": successes,
        "failures": failures,
        "stable": stable,
        "dead": dead,
        "hp": hp,
        "conscious": hp > 0,
    }
