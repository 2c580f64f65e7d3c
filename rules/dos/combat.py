"""DoS combat resolvers: actions, initiative, one attack, damage, maneuvers (DOS-14..29).

The pieces (``roll_initiative``, ``attack_core``, ``deal_damage``, ``apply_damage``,
``maneuver_core``) take a slot prefix so that ``rules.dos.turn`` resolves a whole turn with the same
code under per-action slots (``<actor>.<n>.attack`` ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

from typing_extensions import TypedDict

from rules.dice import DiceSource, SlotSpec
from rules.dos.models import (
    ActionsEntry,
    ActionsRequest,
    ActionsResult,
    AppliedKind,
    Attacker,
    AttackRequest,
    AttackResult,
    AttackResultPart,
    AttackRoll,
    Damage,
    DamageKind,
    DamageOptions,
    DamageRequest,
    DamageResult,
    Defender,
    DefenseChoice,
    DefenseKind,
    DefenseRoll,
    InitiativeEntry,
    InitiativeRequest,
    InitiativeResult,
    Location,
    ManeuverKind,
    ManeuverPart,
    ManeuverRequest,
    ManeuverResult,
    ManeuverSide,
    ManeuverSideResult,
    Ranged,
    Reroll,
    RunStop,
    SkillName,
    StatName,
    Target,
    Weapon,
)
from rules.dos.pool import D10, opposed_reason, opposed_winner, outcome, roll_pool, total
from rules.dos.sentences import SENTENCES
from rules.errors import FieldError, InvalidRequest, LimitExceeded, Loc
from rules.events import EventLog, foundry_trace

#: DOS-26: percent of the base damage for each damage d10 (1 deals exactly 1 instead).
DAMAGE_PERCENT: dict[int, int] = {
    2: 30,
    3: 50,
    4: 70,
    5: 90,
    6: 100,
    7: 100,
    8: 100,
    9: 110,
    10: 120,
}
#: DOS-27: hit location by d10.
LOCATION: dict[int, Location] = {
    10: "head",
    9: "right_arm",
    8: "left_arm",
    7: "torso",
    6: "torso",
    5: "torso",
    4: "right_leg",
    3: "right_leg",
    2: "left_leg",
    1: "left_leg",
}
#: DOS-22: a running defender blocks and dodges as very_hard.
RUNNING_PERCENT = -50
#: DOS-22: a stop d10 of 1..RUN_STOP_MAX stops the runner.
RUN_STOP_MAX = 5
#: DOS-15: tie-break rerolls allowed before the service gives up (a script that keeps tying).
MAX_REROLLS = 100
#: DOS-24, DOS-25: (stat, skill) of side a and side b for each maneuver.
MANEUVER: dict[str, tuple[tuple[StatName, SkillName], tuple[StatName, SkillName]]] = {
    "grab": (("dexterity", "unarmed"), ("dexterity", "dodge")),
    "break_free": (("strength", "unarmed"), ("strength", "unarmed")),
    "push": (("strength", "unarmed"), ("strength", "unarmed")),
    "feint_push": (("dexterity", "weapon"), ("dexterity", "weapon")),
}


class Life(TypedDict):
    """A target's life state after damage (DOS-28): the fields of :class:`Target` it changes."""

    hp: int
    incapacitated: bool
    critical: bool
    beaten: bool


def slot(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def clamp_percent(percent: int) -> int:
    return max(-100, min(100, percent))


# ---------------------------------------------------------------- DOS-14 actions per turn


def actions_per_turn(speed: int, opponents_speed: int) -> int:
    """DOS-14: floor(speed / sum of the opponents' speeds), never less than 1 (1 with none)."""
    if opponents_speed <= 0:
        return 1
    return max(1, speed // opponents_speed)


def check_ids(ids: Sequence[str], where: str) -> list[FieldError]:
    """Duplicate ids, each named at its second occurrence."""
    seen: dict[str, int] = {}
    errors: list[FieldError] = []
    for i, id_ in enumerate(ids):
        if id_ in seen:
            errors.append(
                FieldError(
                    (where, i, "id"),
                    f"duplicate id '{id_}': {where}[{seen[id_]}] already has it",
                )
            )
        else:
            seen[id_] = i
    return errors


def check_refs(
    refs: Sequence[str], known: set[str], loc: Loc, owner: str | None, what: str
) -> list[FieldError]:
    """Ids in ``refs`` must be known, not ``owner`` itself, and not repeated."""
    errors: list[FieldError] = []
    seen: set[str] = set()
    who = f"combatant '{owner}': " if owner else ""
    for j, ref in enumerate(refs):
        if ref not in known:
            errors.append(FieldError((*loc, j), f"{who}{what} '{ref}' is not a combatant"))
        elif ref == owner:
            errors.append(FieldError((*loc, j), f"{who}a combatant cannot be its own {what}"))
        elif ref in seen:
            errors.append(FieldError((*loc, j), f"{who}{what} '{ref}' is listed twice"))
        seen.add(ref)
    return errors


def raise_if(errors: list[FieldError]) -> None:
    if errors:
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise InvalidRequest(errors[0].msg + more, errors)


def actions_slots(req: ActionsRequest) -> SlotSpec:
    return {}


def actions(req: ActionsRequest, dice: DiceSource) -> ActionsResult:
    """Actions per turn of each combatant (DOS-14). No dice."""
    errors = check_ids([c.id for c in req.combatants], "combatants")
    known = {c.id for c in req.combatants}
    for i, c in enumerate(req.combatants):
        errors += check_refs(c.opponents, known, ("combatants", i, "opponents"), c.id, "opponent")
    raise_if(errors)
    speed = {c.id: c.speed for c in req.combatants}
    log = EventLog(SENTENCES)
    entries: list[ActionsEntry] = []
    for c in req.combatants:
        opp = sum(speed[o] for o in c.opponents)
        n = actions_per_turn(c.speed, opp)
        log.add(
            "dos.actions.count",
            id=c.id,
            speed=c.speed,
            opponents=list(c.opponents),
            opponents_speed=opp,
            actions=n,
        )
        entries.append({"id": c.id, "actions": n, "opponents_speed": opp})
    return {**foundry_trace(dice, log), "actions": entries}


# ---------------------------------------------------------------- DOS-15 initiative


def _initiative_dice(
    dice: DiceSource, log: EventLog, combatants: Sequence[tuple[str, int]], placed: set[str]
) -> tuple[dict[str, int], dict[str, int]]:
    """DOS-15: each combatant not placed rolls d10 + speed in slot ``initiative.<id>``, in request
    order -> (rolls, totals)."""
    rolls: dict[str, int] = {}
    totals: dict[str, int] = {}
    for id_, spd in combatants:
        if id_ in placed:
            continue
        rolls[id_] = dice.roll(f"initiative.{id_}", D10)
        totals[id_] = rolls[id_] + spd
        log.add("dos.initiative.rolled", id=id_, roll=rolls[id_], speed=spd, total=totals[id_])
    return rolls, totals


def _break_tie(
    dice: DiceSource,
    log: EventLog,
    group: list[str],
    tied: int,
    *,
    speed: dict[str, int],
    rerolls: dict[str, list[Reroll]],
    depth: int = 0,
) -> list[str]:
    """DOS-15: ``group`` (tied at ``tied``) in order: the tied reroll among themselves, in request
    order, and ties among the rerolls reroll again, depth first from the highest total down."""
    if len(group) == 1:
        return group
    if depth >= MAX_REROLLS:
        raise LimitExceeded(
            f"initiative: {', '.join(group)} still tie after {MAX_REROLLS} rerolls; "
            "check the scripted `initiative.<id>` dice"
        )
    log.add("dos.initiative.tie", ids=group, total=tied)
    again: dict[str, int] = {}
    for id_ in group:
        r = dice.roll(f"initiative.{id_}", D10)
        again[id_] = r + speed[id_]
        rerolls[id_].append({"roll": r, "total": again[id_]})
        log.add("dos.initiative.reroll", id=id_, roll=r, speed=speed[id_], total=again[id_])
    out: list[str] = []
    for value in sorted(set(again.values()), reverse=True):
        same = [i for i in group if again[i] == value]
        out += _break_tie(dice, log, same, value, speed=speed, rerolls=rerolls, depth=depth + 1)
    return out


def roll_initiative(
    dice: DiceSource, log: EventLog, combatants: Sequence[tuple[str, int]], first: Sequence[str]
) -> tuple[list[str], list[InitiativeEntry]]:
    """DOS-15: d10 + speed in slot ``initiative.<id>``, highest first; ties reroll among themselves.

    Ids in ``first`` go ahead of everyone, in that order, and roll nothing. Every combatant's first
    value is its initiative die; later values are its tie-break rerolls, drawn group by group from
    the highest tied total down, in request order within a group. A reroll only orders the tied
    combatants among themselves; ties among the rerolls reroll again among those still tied.
    """
    placed = set(first)
    for position, id_ in enumerate(first, start=1):
        log.add("dos.initiative.placed", id=id_, position=position)
    rolls, totals = _initiative_dice(dice, log, combatants, placed)
    speed = dict(combatants)
    rerolls: dict[str, list[Reroll]] = {id_: [] for id_, _ in combatants}
    order = list(first)
    for value in sorted(set(totals.values()), reverse=True):
        group = [i for i in totals if totals[i] == value]
        order += _break_tie(dice, log, group, value, speed=speed, rerolls=rerolls)
    log.add("dos.initiative.order", order=order)
    entries: list[InitiativeEntry] = [
        {
            "id": id_,
            "placed": id_ in placed,
            "roll": rolls.get(id_),
            "total": totals.get(id_),
            "rerolls": rerolls[id_],
        }
        for id_, _ in combatants
    ]
    return order, entries


def check_first(first: Sequence[str], known: set[str], loc: Loc) -> list[FieldError]:
    return check_refs(first, known, loc, None, "placed id")


def initiative_slots(req: InitiativeRequest) -> SlotSpec:
    placed = set(req.first)
    return {f"initiative.{c.id}": D10 for c in req.combatants if c.id not in placed}


def initiative(req: InitiativeRequest, dice: DiceSource) -> InitiativeResult:
    """Initiative order (DOS-15)."""
    errors = check_ids([c.id for c in req.combatants], "combatants")
    errors += check_first(req.first, {c.id for c in req.combatants}, ("first",))
    raise_if(errors)
    log = EventLog(SENTENCES)
    order, entries = roll_initiative(
        dice, log, [(c.id, c.speed) for c in req.combatants], req.first
    )
    return {**foundry_trace(dice, log), "order": order, "entries": entries}


# ---------------------------------------------------------------- DOS-26..29 damage


def base_damage(strength: int, weapon: Weapon) -> tuple[int, DamageKind, bool]:
    """DOS-26: (base, kind, halved) by weapon kind."""
    kind: DamageKind
    if weapon.kind == "unarmed":
        base, kind = strength, "light"
    elif weapon.kind == "shooting":
        base, kind = weapon.damage, "serious"
    else:
        base, kind = strength + weapon.damage, "serious"
    halved = weapon.kind == "thrown" and not weapon.made_for_throwing
    return base, weapon.damage_kind or kind, halved


def deal_damage(
    dice: DiceSource, *, slot_: str, strength: int, weapon: Weapon, armor: int, log: EventLog
) -> tuple[int, int | None, int, bool, int, DamageKind]:
    """DOS-26: roll the damage d10 -> (die, percent, base, halved, amount, kind).

    Amount = floor(base x percent [/ 2 when halved] / 100), one floor at the end; a 1 deals
    exactly 1. Armor (extension) is subtracted after the table, never below 0.
    """
    base, kind, halved = base_damage(strength, weapon)
    die = dice.roll(slot_, D10)
    if die == 1:
        percent = None
        raw = 1
        log.add("dos.damage.clumsy", die=die)
    else:
        percent = DAMAGE_PERCENT[die]
        raw = base * percent // (200 if halved else 100)
        log.add("dos.damage.rolled", die=die, percent=percent, base=base, halved=halved, raw=raw)
    amount = max(0, raw - armor)
    if armor:
        log.add("dos.damage.armor", armor=armor, raw=raw, amount=amount)
    return die, percent, base, halved, amount, kind


def _light_at_zero(
    who: str, t: Target, options: DamageOptions, log: EventLog
) -> tuple[AppliedKind, int, bool]:
    """DOS-28: light damage on a target not beaten -> (applied kind, hp dealt against, beaten).

    With hp left: light. At 0 hp, with ``light_at_zero: full_bar`` (the source's reading): serious
    against a full bar (``max_hp``), once, and the target is beaten; with no ``max_hp`` to refill,
    or with ``no_refill``: serious against 0 hp. Never critical: it follows this rule, not the
    critical wounds'.
    """
    if t.hp > 0:
        return "light", t.hp, False
    if options.light_at_zero == "no_refill":
        log.add("dos.damage.light_as_serious", target=who)
        return "serious", 0, False
    if t.max_hp is None:
        log.add("dos.damage.no_full_bar", target=who)
        return "serious", 0, False
    log.add("dos.damage.full_bar", target=who, max_hp=t.max_hp)
    return "serious", t.max_hp, True


def _counts_as(
    who: str, t: Target, kind: DamageKind, options: DamageOptions, log: EventLog
) -> tuple[AppliedKind, int, bool]:
    """DOS-28: how damage of ``kind`` counts -> (applied kind, hp it is dealt against, beaten).

    Critical: GM-declared critical damage; with ``critical_wounds: at_zero_hp`` (the source's
    reading) serious damage dealt at 0 hp, incapacitated or not; with ``while_incapacitated`` any
    damage to an incapacitated target. Light damage counts as serious once the target is beaten,
    and follows :func:`_light_at_zero` before.
    """
    if kind == "critical" or (options.critical_wounds == "while_incapacitated" and t.incapacitated):
        return "critical", t.hp, t.beaten
    if kind == "light":
        if not t.beaten:
            return _light_at_zero(who, t, options, log)
        log.add("dos.damage.beaten", target=who)
    if t.hp == 0 and options.critical_wounds == "at_zero_hp":
        return "critical", 0, t.beaten
    return "serious", t.hp, t.beaten


def apply_damage(
    *,
    who: str,
    target: Target,
    amount: int,
    kind: DamageKind,
    options: DamageOptions,
    log: EventLog,
) -> tuple[Life, AppliedKind]:
    """DOS-28: the target's new life state after taking ``amount`` of ``kind``, and how it counted.

    - no damage (amount 0): nothing changes;
    - light damage while hp > 0 and not beaten: hp falls, never below 0, no status (even at 0);
    - light damage at 0 hp or once beaten, and serious damage: see :func:`_counts_as`; hp falls,
      never below 0; damage counting as serious (or critical) that leaves 0 hp incapacitates.
    """
    t = target
    if amount == 0:
        log.add("dos.damage.none", target=who)
        return {
            "hp": t.hp,
            "incapacitated": t.incapacitated,
            "critical": t.critical,
            "beaten": t.beaten,
        }, "none"
    applied, before, beaten = _counts_as(who, t, kind, options, log)
    hp = max(0, before - amount)
    log.add("dos.damage.applied", target=who, amount=amount, kind=applied, hp_before=before, hp=hp)
    if applied == "critical":
        log.add("dos.damage.critical", target=who)
    incapacitated = t.incapacitated
    if applied != "light" and hp == 0 and not incapacitated:
        incapacitated = True
        log.add("dos.damage.incapacitated", target=who)
    critical = t.critical or applied == "critical"
    return {
        "hp": hp,
        "incapacitated": incapacitated,
        "critical": critical,
        "beaten": beaten,
    }, applied


def damage_slots(req: DamageRequest) -> SlotSpec:
    return {"damage": D10} if req.weapon is not None else {}


def damage(req: DamageRequest, dice: DiceSource) -> DamageResult:
    """Damage by weapon (DOS-26) or GM-set (DOS-29), applied to the target (DOS-28)."""
    log = EventLog(SENTENCES)
    t = req.target
    die: int | None = None
    percent: int | None = None
    base: int | None = None
    halved = False
    armor = 0
    if req.weapon is not None:
        die, percent, base, halved, amount, kind = deal_damage(
            dice, slot_="damage", strength=req.strength, weapon=req.weapon, armor=req.armor, log=log
        )
        armor = req.armor
    else:
        assert req.amount is not None and req.kind is not None  # the model checks it
        amount, kind = req.amount, req.kind
        log.add("dos.damage.gm", amount=amount, kind=kind)
    life, applied = apply_damage(
        who="target", target=t, amount=amount, kind=kind, options=req.options, log=log
    )
    # The new state as a plain dict (``TargetState``): a copy of the request model's fields, in
    # declaration order (its serialiser's bytes), with the changed ones set in place.
    target = dict(t.__dict__)
    target.update(life)
    return {
        **foundry_trace(dice, log),
        "die": die,
        "percent": percent,
        "base": base,
        "halved": halved,
        "armor": armor,
        "amount": amount,
        "kind": kind,
        "applied_as": applied,
        "target": target,
    }


# ---------------------------------------------------------------- DOS-17..22, 27 attack


def defenses_left(d: Defender) -> dict[DefenseKind, int]:
    """DOS-18: block skill + 1 blocks and dodge skill dodges per turn."""
    return {"block": d.block + 1 - d.blocks_used, "dodge": d.dodge - d.dodges_used}


def choose_defense(
    choice: DefenseChoice, d: Defender, ranged: bool, loc: Loc | None
) -> DefenseKind | None:
    """The defense rolled against an attack (DOS-18, DOS-19, DOS-21).

    ``auto``: none against a ranged attack or for an incapacitated defender; otherwise, of the
    defenses with uses left, the one with the higher skill, ``block`` on equal skill (blocks are
    the more plentiful resource). An explicit choice the defender cannot make raises
    :class:`InvalidRequest` at ``loc``; with ``loc`` None (inside a turn) it becomes no defense.
    """
    if choice == "none":
        return None
    left = defenses_left(d)
    if choice == "auto":
        if ranged or d.incapacitated:
            return None
        block, dodge = left["block"] > 0, left["dodge"] > 0
        if block and dodge:
            return "block" if d.block >= d.dodge else "dodge"
        return "block" if block else "dodge" if dodge else None
    problem = None
    if d.incapacitated:
        problem = f"an incapacitated defender cannot {choice} (DOS-28)"
    elif left[choice] <= 0:
        allowed = d.block + 1 if choice == "block" else d.dodge
        used = d.blocks_used if choice == "block" else d.dodges_used
        rule = "block skill + 1" if choice == "block" else "dodge skill"
        problem = (
            f"the defender has no {choice} left this turn: {used} of {allowed} used "
            f"({rule}, DOS-18); choose another defense, `none` or `auto`"
        )
    if problem is None:
        return choice
    if loc is not None:
        raise InvalidRequest.at(loc, problem)
    return None


Reason = Literal["total", "luck", "bad_luck", "tie", "no_defense", "dc"]


def _attack_roll(
    dice: DiceSource,
    log: EventLog,
    slot_: str,
    who: str,
    *,
    attacker: Attacker,
    percent: int,
    ranged: Ranged | None,
) -> AttackRoll:
    """DOS-17, DOS-21: the attacker's pool and total; a ranged attack is a simple test on its DC."""
    pool = roll_pool(dice, slot_, attacker.skill, log)
    stat, result = attacker.dexterity, pool["result"]
    tot = total(stat, result, percent)
    if ranged is None:
        log.add(
            "dos.attack.total", attacker=who, stat=stat, result=result, percent=percent, total=tot
        )
        return {
            "roll": pool,
            "modifier_percent": percent,
            "total": tot,
            "dc": None,
            "outcome": None,
        }
    dc, out = ranged.dc, outcome(pool, tot, ranged.dc, ranged.ties)
    log.add(
        "dos.attack.ranged",
        attacker=who,
        stat=stat,
        result=result,
        percent=percent,
        total=tot,
        dc=dc,
        outcome=out,
    )
    return {"roll": pool, "modifier_percent": percent, "total": tot, "dc": dc, "outcome": out}


def _undefended(
    log: EventLog, attack_roll: AttackRoll, names: tuple[str, str]
) -> tuple[bool, Reason]:
    """DOS-19, DOS-21: no defense. A ranged attack that reached its DC hits; in melee the attack
    hits unless the attacker has bad luck."""
    if attack_roll["dc"] is not None:
        return True, "dc"
    hit = not attack_roll["roll"]["bad_luck"]
    log.add("dos.defense.none", defender=names[1], attacker=names[0], hit=hit)
    return hit, "no_defense" if hit else "bad_luck"


def _defend(
    dice: DiceSource,
    log: EventLog,
    slot_: str,
    whom: str,
    *,
    attack_roll: AttackRoll,
    defender: Defender,
    defense: DefenseKind,
    defense_percent: int,
) -> tuple[bool, Reason, DefenseRoll, dict[str, object]]:
    """DOS-18, DOS-20, DOS-22: the defender's block or dodge against the attack, an opposed test
    (equal totals: the defender holds). -> (hit, reason, defense roll, the defender's changes)."""
    percent = defense_percent  # within -100..+100 already; a runner's penalty may leave it
    if defender.running:
        percent = clamp_percent(percent + RUNNING_PERCENT)
    pool = roll_pool(dice, slot_, getattr(defender, defense), log)
    tot = total(defender.dexterity, pool["result"], percent)
    changes: dict[str, object]
    if defense == "block":
        used, allowed = defender.blocks_used + 1, defender.block + 1
        changes = {"blocks_used": used}
    else:
        used, allowed = defender.dodges_used + 1, defender.dodge
        changes = {"dodges_used": used}
    log.add(
        "dos.defense.total",
        defender=whom,
        kind=defense,
        stat=defender.dexterity,
        result=pool["result"],
        percent=percent,
        total=tot,
        used=used,
        allowed=allowed,
        running=defender.running,
    )
    defense_roll: DefenseRoll = {
        "kind": defense,
        "roll": pool,
        "modifier_percent": percent,
        "total": tot,
    }
    winner = opposed_winner(attack_roll["roll"], attack_roll["total"], pool, tot)
    return winner == "a", opposed_reason(winner, attack_roll["roll"], pool), defense_roll, changes


def _run_stop(
    dice: DiceSource, log: EventLog, slot_: str, whom: str, defense: DefenseKind
) -> tuple[RunStop, dict[str, object]]:
    """DOS-22: a runner that defended successfully rolls a d10: 1-5 it stops and loses its turn."""
    die = dice.roll(slot_, D10)
    stopped = die <= RUN_STOP_MAX
    log.add(
        f"dos.run.{'stopped' if stopped else 'keeps_running'}", defender=whom, kind=defense, die=die
    )
    return {"die": die, "stopped": stopped}, {"running": False, "stopped": True} if stopped else {}


def _location(dice: DiceSource, log: EventLog, slot_: str, aim: Location | None) -> Location:
    """DOS-27: the aimed location, or a d10 on the hit location table."""
    if aim is not None:
        log.add("dos.location.aimed", location=aim)
        return aim
    die = dice.roll(slot_, D10)
    location = LOCATION[die]
    log.add("dos.location.rolled", die=die, location=location)
    return location


def _wound(
    dice: DiceSource,
    log: EventLog,
    slot_: str,
    whom: str,
    *,
    attacker: Attacker,
    defender: Defender,
    options: DamageOptions,
) -> tuple[Damage, Life]:
    """DOS-26, DOS-28: the hit's damage, rolled and applied to the defender."""
    die, percent, base, halved, amount, kind = deal_damage(
        dice,
        slot_=slot_,
        strength=attacker.strength,
        weapon=attacker.weapon,
        armor=defender.armor,
        log=log,
    )
    life, applied = apply_damage(
        who=whom, target=defender, amount=amount, kind=kind, options=options, log=log
    )
    damage: Damage = {
        "die": die,
        "percent": percent,
        "base": base,
        "halved": halved,
        "armor": defender.armor,
        "amount": amount,
        "kind": kind,
        "applied_as": applied,
    }
    return damage, life


def _meet(
    dice: DiceSource,
    log: EventLog,
    slots: AttackSlots,
    names: tuple[str, str],
    *,
    attack_roll: AttackRoll,
    defender: Defender,
    defense: DefenseKind | None,
    defense_percent: int,
) -> tuple[bool, Reason, DefenseRoll | None, RunStop | None, dict[str, object]]:
    """DOS-18..22: whether the attack hits -> (hit, reason, defense roll, run stop, the changes to
    the defender's state). A ranged attack short of its DC misses; with no defense see
    :func:`_undefended`; a defense is an opposed test, and a runner who defends may stop.
    ``slots`` are the attack's slots (:func:`attack_slot_names`)."""
    if attack_roll["outcome"] in ("failure", "bad_luck"):  # a ranged attack short of its DC
        return False, "dc", None, None, {}
    if defense is None:
        return (*_undefended(log, attack_roll, names), None, None, {})
    whom = names[1]
    hit, reason, defense_roll, changes = _defend(
        dice,
        log,
        slots.defense,
        whom,
        attack_roll=attack_roll,
        defender=defender,
        defense=defense,
        defense_percent=defense_percent,
    )
    run_stop: RunStop | None = None
    if not hit and defender.running:
        run_stop, stop = _run_stop(dice, log, slots.run_stop, whom, defense)
        changes.update(stop)
    return hit, reason, defense_roll, run_stop, changes


def attack_core(
    dice: DiceSource,
    log: EventLog,
    *,
    prefix: str,
    names: tuple[str, str],
    attacker: Attacker,
    percent: int,
    defender: Defender,
    defense: DefenseKind | None,
    defense_percent: int,
    ranged: Ranged | None,
    aim: Location | None,
    options: DamageOptions,
) -> tuple[AttackResultPart, dict[str, object]]:
    """One attack resolved completely (DOS-17..22, DOS-26..28) -> (the result, the changes to the
    defender's state: the fields the attack changed, with their new values).

    Phases: the attack roll, the defense (or none) and run stop, the location, the damage. Slots
    under ``prefix``: ``attack``, ``defense``, ``run_stop``, ``location``, ``damage``."""
    who, whom = names
    slots = attack_slot_names(prefix)
    attack_roll = _attack_roll(
        dice, log, slots.attack, who, attacker=attacker, percent=percent, ranged=ranged
    )
    hit, reason, defense_roll, run_stop, changes = _meet(
        dice,
        log,
        slots,
        names,
        attack_roll=attack_roll,
        defender=defender,
        defense=defense,
        defense_percent=defense_percent,
    )
    log.add(f"dos.attack.{'hit' if hit else 'miss'}", attacker=who, defender=whom, reason=reason)
    location: Location | None = None
    damage: Damage | None = None
    if hit:
        location = _location(dice, log, slots.location, aim)
        damage, life = _wound(
            dice, log, slots.damage, whom, attacker=attacker, defender=defender, options=options
        )
        changes.update(life)
    part: AttackResultPart = {
        "hit": hit,
        "reason": reason,
        "attack": attack_roll,
        "defense": defense_roll,
        "damage": damage,
        "location": location,
        "aimed": aim is not None,
        "run_stop": run_stop,
    }
    return part, changes


#: An attack's slots, in this order (``attack_core`` reads them by position).
class AttackSlots(NamedTuple):
    """The slots of one attack's dice, one per phase (DOS-17..22)."""

    attack: str
    defense: str
    run_stop: str
    location: str
    damage: str


ATTACK_SLOTS = AttackSlots("attack", "defense", "run_stop", "location", "damage")


def attack_slot_names(prefix: str) -> AttackSlots:
    """The attack's slots under ``prefix`` (a turn's ``<actor>.<n>``), or bare (/dos/attack)."""
    if not prefix:
        return ATTACK_SLOTS
    return AttackSlots(*[f"{prefix}.{name}" for name in ATTACK_SLOTS])


def attack_slots(req: AttackRequest) -> SlotSpec:
    return dict.fromkeys(ATTACK_SLOTS, D10)


def attack(req: AttackRequest, dice: DiceSource) -> AttackResult:
    """One attack, melee or ranged, resolved completely (DOS-17..22, DOS-26..28)."""
    weapon = req.attacker.weapon
    ranged = weapon.ranged  # a Python property: read once
    if ranged and req.ranged is None:
        raise InvalidRequest.at(
            ("ranged",),
            f"a {weapon.kind} attack is a ranged attack (DOS-21): give `ranged: {{dc}}`",
        )
    if not ranged and req.ranged is not None:
        raise InvalidRequest.at(
            ("ranged",),
            f"a {weapon.kind} attack is melee: `ranged` is only for thrown or shooting weapons",
        )
    kind = choose_defense(req.defense, req.defender, ranged, ("defense",))
    log = EventLog(SENTENCES)
    defender = req.defender
    part, changes = attack_core(
        dice,
        log,
        prefix="",
        names=("attacker", "defender"),
        attacker=req.attacker,
        percent=req.percent,
        defender=defender,
        defense=kind,
        defense_percent=req.defense_percent,
        ranged=req.ranged,
        aim=req.aim,
        options=req.options,
    )
    # The new state as a plain dict (``DefenderState``): a copy of the request model's fields, in
    # declaration order (its serialiser's bytes: no alias, field serialiser, computed field or
    # nested model), with the changed ones set in place.
    state = dict(defender.__dict__)
    state.update(changes)
    # The part's reason is a str in its schema (a turn's part); attack_core sets it from the Literal.
    return {**foundry_trace(dice, log), **part, "defender": state}  # type: ignore[typeddict-item]


# ---------------------------------------------------------------- DOS-24, DOS-25 maneuvers


def maneuver_core(
    dice: DiceSource,
    log: EventLog,
    *,
    prefix: str,
    kind: ManeuverKind,
    sides: tuple[ManeuverSide, ManeuverSide],
    names: tuple[str, str],
) -> ManeuverPart:
    """An opposed test with the stat and skill each side uses for ``kind``; slots ``a``, ``b``."""
    results: list[ManeuverSideResult] = []
    for label, side, default, name in zip(("a", "b"), sides, MANEUVER[kind], names, strict=True):
        stat_name = side.stat or default[0]
        skill_name = side.skill or default[1]
        stat = side.dexterity if stat_name == "dexterity" else side.strength
        pool = roll_pool(dice, slot(prefix, label), getattr(side, skill_name), log)
        result = pool["result"]
        tot = total(stat, result, side.percent)
        log.add(
            "dos.maneuver.side",
            side=label,
            who=name,
            kind=kind,
            stat=stat_name,
            skill=skill_name,
            value=stat,
            result=result,
            percent=side.percent,
            total=tot,
        )
        results.append(
            {
                "stat": stat_name,
                "skill": skill_name,
                "roll": pool,
                "modifier_percent": side.percent,
                "total": tot,
            }
        )
    a, b = results
    winner = opposed_winner(a["roll"], a["total"], b["roll"], b["total"])
    success = winner == "a"
    log.add(
        f"dos.maneuver.{kind}.{'success' if success else 'failure'}",
        a=names[0],
        b=names[1],
        reason=opposed_reason(winner, a["roll"], b["roll"]),
    )
    return {"winner": winner, "success": success, "a": a, "b": b}


def maneuver_slots(req: ManeuverRequest) -> SlotSpec:
    return {"a": D10, "b": D10}


def maneuver(req: ManeuverRequest, dice: DiceSource) -> ManeuverResult:
    """Grab, break free, push or push by feints (DOS-24, DOS-25)."""
    log = EventLog(SENTENCES)
    part = maneuver_core(
        dice, log, prefix="", kind=req.kind, sides=(req.a, req.b), names=("a", "b")
    )
    return {**foundry_trace(dice, log), "kind": req.kind, **part}
