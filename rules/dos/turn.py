"""A whole DoS combat turn (DOS-14..29): actions, initiative, every declared action in order. Its
slots are numbered by the declarations (:func:`numbering`), never by what happens, so a script for
``k1.3.attack`` always means k1's third declared action (docs/systems/dos.md, "Turn slots").
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import DiceSource, SlotSpec
from rules.dos.combat import (
    ATTACK_SLOTS,
    actions_per_turn,
    attack_core,
    check_first,
    check_ids,
    check_refs,
    choose_defense,
    maneuver_core,
    raise_if,
    roll_initiative,
)
from rules.dos.models import (
    ActionKind,
    Attacker,
    AttackResultPart,
    CombatantState,
    DamageOptions,
    Declaration,
    Defender,
    InitiativeEntry,
    ManeuverKind,
    ManeuverPart,
    ManeuverSide,
    SkillName,
    TurnAction,
    TurnCombatant,
    TurnRequest,
    TurnResult,
)
from rules.dos.pool import D10
from rules.dos.sentences import SENTENCES
from rules.errors import FieldError, LimitExceeded, Loc
from rules.events import EventLog, foundry_trace
from rules.models import MAX_ATTEMPTS

MANEUVERS: tuple[ManeuverKind, ...] = ("grab", "break_free", "push", "feint_push")
TARGETED = ("attack", *MANEUVERS)
ALONE = ("run", "wait")
SKILL_OF_WEAPON = {
    "unarmed": "unarmed",
    "melee": "weapon",
    "thrown": "thrown",
    "shooting": "shooting",
}


def cost(d: Declaration) -> int:
    """Actions a declaration spends (run spends all and is declared alone; wait spends none)."""
    if d.action == "attack":
        return d.count
    if d.action in ALONE:
        return 0
    return 1


def numbering(c: TurnCombatant) -> list[int]:
    """The first action number n of each declaration: an attack takes ``count`` numbers, run and
    wait none, any other one (docs/systems/dos.md, "Turn slots")."""
    n, firsts = 1, []
    for d in c.declare:
        firsts.append(n)
        n += cost(d)
    return firsts


def turn_slots(req: TurnRequest) -> SlotSpec:
    declared = sum(cost(d) for c in req.combatants for d in c.declare)
    if declared > MAX_ATTEMPTS:
        raise LimitExceeded(
            f"the turn declares {declared} actions in all; at most {MAX_ATTEMPTS} per request",
            [FieldError(("combatants",), f"{declared} actions declared, limit {MAX_ATTEMPTS}")],
        )
    spec: dict[str, int | None] = {}
    if req.order is None:
        placed = set(req.first)
        spec.update({f"initiative.{c.id}": D10 for c in req.combatants if c.id not in placed})
    for c in req.combatants:
        for d, first in zip(c.declare, numbering(c), strict=True):
            for n in range(first, first + cost(d)):
                if d.action == "attack":
                    spec.update({f"{c.id}.{n}.{s}": D10 for s in ATTACK_SLOTS})
                elif d.action in MANEUVERS:
                    spec.update({f"{c.id}.{n}.a": D10, f"{c.id}.{n}.b": D10})
    return spec


@dataclass
class _Live:
    """A combatant's working state during the turn."""

    c: TurnCombatant
    actions: int
    state: Defender
    actions_used: int = 0
    moved: int = 0
    waited: bool = False


def _record(
    actor: str,
    n: int | None,
    action: ActionKind,
    *,
    target: str | None = None,
    skipped: str | None = None,
    attack: AttackResultPart | None = None,
    maneuver: ManeuverPart | None = None,
    metres: int | None = None,
) -> TurnAction:
    """One action of the turn as its record, every key given (those it does not have null)."""
    return {
        "actor": actor,
        "n": n,
        "action": action,
        "target": target,
        "skipped": skipped,
        "attack": attack,
        "maneuver": maneuver,
        "metres": metres,
    }


def _opponents(req: TurnRequest, c: TurnCombatant) -> list[str]:
    if c.opponents is not None:
        return list(c.opponents)
    return [o.id for o in req.combatants if o.side != c.side and not o.incapacitated]


@dataclass(frozen=True)
class _Actions:
    """DOS-14, per combatant id: whom it fights, their speeds' sum, and its actions this turn."""

    opponents: dict[str, list[str]]
    opponents_speed: dict[str, int]
    actions: dict[str, int]


def _count_actions(req: TurnRequest) -> _Actions:
    """DOS-14: each combatant's opponents (given, or everyone of another side still standing) and
    its actions per turn, floor(speed / the opponents' speeds)."""
    speeds = {c.id: c.speed for c in req.combatants}
    counts = _Actions({}, {}, {})
    for c in req.combatants:
        opponents = [o for o in _opponents(req, c) if o in speeds]
        counts.opponents[c.id] = opponents
        counts.opponents_speed[c.id] = sum(speeds[o] for o in opponents)
        counts.actions[c.id] = actions_per_turn(c.speed, counts.opponents_speed[c.id])
    return counts


def _check_ids_and_order(req: TurnRequest, known: set[str]) -> list[FieldError]:
    """Unique ids; opponents, ``order`` (DOS-15: every combatant once) and ``first`` known."""
    errors = check_ids([c.id for c in req.combatants], "combatants")
    for i, c in enumerate(req.combatants):
        if c.opponents is not None:
            errors += check_refs(
                c.opponents, known, ("combatants", i, "opponents"), c.id, "opponent"
            )
    if req.order is None:
        return errors + check_first(req.first, known, ("first",))
    errors += check_refs(req.order, known, ("order",), None, "id in order")
    missing = [c.id for c in req.combatants if c.id not in set(req.order)]
    if missing:
        errors.append(
            FieldError(("order",), f"order must list every combatant; missing: {missing}")
        )
    if req.first:
        errors.append(
            FieldError(("first",), "give `first` only when initiative is rolled (no `order`)")
        )
    return errors


def _check_target(
    d: Declaration, c: TurnCombatant, known: set[str], loc: Loc, what: str
) -> list[FieldError]:
    if d.action not in TARGETED:
        return (
            [] if d.target is None else [FieldError((*loc, "target"), f"{what} takes no `target`")]
        )
    if d.target is None:
        return [FieldError((*loc, "target"), f"{what} needs a `target`")]
    if d.target not in known:
        return [FieldError((*loc, "target"), f"{what}: '{d.target}' is not a combatant")]
    if d.target == c.id:
        return [FieldError((*loc, "target"), f"{what} cannot target itself")]
    return []


def _check_attack(
    d: Declaration, c: TurnCombatant, by_id: dict[str, TurnCombatant], loc: Loc, what: str
) -> list[FieldError]:
    """An attack: `ranged` exactly with a ranged weapon (DOS-21), no dodge against a target without
    one (DOS-18). Another action: none of the attack's fields."""
    if d.action != "attack":
        errors = [
            FieldError((*loc, field), f"{what}: `{field}` is for attacks")
            for field in ("aim", "ranged", "defense")
            if getattr(d, field) is not None
        ]
        if d.count != 1:
            errors.append(FieldError((*loc, "count"), f"{what}: `count` is for attacks"))
        return errors
    errors = []
    ranged = c.weapon.ranged
    if ranged and d.ranged is None:
        errors.append(
            FieldError(
                (*loc, "ranged"),
                f"{what}: a {c.weapon.kind} weapon attacks at range: give `ranged: {{dc}}`",
            )
        )
    if not ranged and d.ranged is not None:
        errors.append(
            FieldError((*loc, "ranged"), f"{what}: `ranged` needs a thrown or shooting weapon")
        )
    if d.defense == "dodge" and d.target in by_id and by_id[d.target].skills.dodge == 0:
        errors.append(
            FieldError(
                (*loc, "defense"),
                f"{what}: '{d.target}' has dodge skill 0 and so no dodge (DOS-18)",
            )
        )
    return errors


def _check_movement(
    d: Declaration, c: TurnCombatant, steps: int, loc: Loc, what: str
) -> list[FieldError]:
    """Run and wait are declared alone (DOS-22); one step per turn, of at most a quarter of the
    speed (DOS-23); `metres` only for a step. ``steps``: the steps declared so far, this one in."""
    errors = []
    if d.action in ALONE and len(c.declare) > 1:
        errors.append(FieldError((*loc, "action"), f"{what}: {d.action} must be declared alone"))
    if d.action != "step":
        if d.metres is not None:
            errors.append(FieldError((*loc, "metres"), f"{what}: `metres` is for a step"))
        return errors
    if steps > 1:
        errors.append(FieldError((*loc, "action"), f"{what}: one step per turn (DOS-23)"))
    if d.metres is not None and d.metres > c.speed // 4:
        errors.append(
            FieldError(
                (*loc, "metres"),
                f"{what}: at most floor(speed / 4) = {c.speed // 4} metres (DOS-23)",
            )
        )
    return errors


def _check_combatant(
    req: TurnRequest, i: int, known: set[str], by_id: dict[str, TurnCombatant], counts: _Actions
) -> list[FieldError]:
    """One combatant's defense and declarations, and the actions they spend (DOS-14)."""
    c = req.combatants[i]
    who = f"combatant '{c.id}'"
    at = ("combatants", i)
    errors: list[FieldError] = []
    if c.defense == "dodge" and c.skills.dodge == 0:
        errors.append(
            FieldError((*at, "defense"), f"{who}: defense `dodge` with dodge skill 0 (DOS-18)")
        )
    steps = 0
    for j, d in enumerate(c.declare):
        loc = (*at, "declare", j)
        what = f"{who}: declare[{j}] ({d.action})"
        steps += d.action == "step"
        errors += _check_target(d, c, known, loc, what)
        errors += _check_attack(d, c, by_id, loc, what)
        errors += _check_movement(d, c, steps, loc, what)
    spent = sum(cost(d) for d in c.declare)
    if spent > counts.actions[c.id]:
        errors.append(
            FieldError(
                (*at, "declare"),
                f"{who} declares {spent} actions but has {counts.actions[c.id]} this turn "
                f"(speed {c.speed} against opponents' {counts.opponents_speed[c.id]}, DOS-14)",
            )
        )
    return errors


def _validate(req: TurnRequest, counts: _Actions) -> None:
    """What the schema cannot say: ids, references, and each declaration against its combatant."""
    known = {c.id for c in req.combatants}
    raise_if(_check_ids_and_order(req, known))  # the declarations' checks need known, unique ids
    by_id = {c.id: c for c in req.combatants}
    errors: list[FieldError] = []
    for i in range(len(req.combatants)):
        errors += _check_combatant(req, i, known, by_id, counts)
    raise_if(errors)


def _start(
    dice: DiceSource, log: EventLog, req: TurnRequest, counts: _Actions
) -> tuple[list[str], list[InitiativeEntry] | None]:
    """DOS-14 and DOS-15: everyone's actions, then the order, given or rolled."""
    for c in req.combatants:
        log.add(
            "dos.actions.count",
            id=c.id,
            speed=c.speed,
            opponents=counts.opponents[c.id],
            opponents_speed=counts.opponents_speed[c.id],
            actions=counts.actions[c.id],
        )
    if req.order is not None:
        log.add("dos.initiative.order", order=list(req.order))
        return list(req.order), None
    return roll_initiative(dice, log, [(c.id, c.speed) for c in req.combatants], req.first)


def _live(req: TurnRequest, counts: _Actions) -> dict[str, _Live]:
    """Each combatant's working state: its defender state for the turn (DOS-18, DOS-22, DOS-28)."""
    live: dict[str, _Live] = {}
    for c in req.combatants:
        runs = any(d.action == "run" for d in c.declare)
        live[c.id] = _Live(
            c=c,
            actions=counts.actions[c.id],
            state=Defender(
                hp=c.hp,
                max_hp=c.max_hp,
                incapacitated=c.incapacitated,
                critical=c.critical,
                beaten=c.beaten,
                dexterity=c.dexterity,
                block=c.skills.block,
                dodge=c.skills.dodge,
                armor=c.armor,
                running=runs and not c.incapacitated,
            ),
        )
    return live


def _act(
    dice: DiceSource, log: EventLog, me: _Live, live: dict[str, _Live], options: DamageOptions
) -> list[TurnAction]:
    """One combatant's turn: nothing when incapacitated (DOS-28) or stopped running (DOS-22), else
    each declaration in order."""
    c = me.c
    if me.state.incapacitated:
        log.add("dos.turn.incapacitated", id=c.id)
        return [
            _record(c.id, None, d.action, target=d.target, skipped="incapacitated")
            for d in c.declare
        ]
    if me.state.stopped:
        log.add("dos.turn.stopped", id=c.id)
        return [_record(c.id, None, "run", skipped="stopped")]
    log.add("dos.turn.begins", id=c.id, actions=me.actions)
    results: list[TurnAction] = []
    for d, first in zip(c.declare, numbering(c), strict=True):
        if d.action == "attack":
            results += _attacks(dice, log, me, live, d, first=first, options=options)
        elif d.action in MANEUVERS:
            results.append(_maneuver(dice, log, me, live, d, n=first))
        else:
            results.append(_move(log, me, d, n=first))
    return results


def _move(log: EventLog, me: _Live, d: Declaration, *, n: int) -> TurnAction:
    """Run (DOS-22: all actions, speed metres), step (DOS-23: one action, a quarter of the speed
    at most) or wait."""
    c = me.c
    if d.action == "run":
        me.moved = c.speed
        me.actions_used = me.actions
        log.add("dos.turn.run", id=c.id, metres=c.speed)
        return _record(c.id, None, "run", metres=c.speed)
    if d.action == "step":
        most = c.speed // 4
        metres = most if d.metres is None else d.metres
        me.moved += metres
        me.actions_used += 1
        log.add("dos.turn.step", id=c.id, metres=metres, max_metres=most)
        return _record(c.id, n, "step", metres=metres)
    me.waited = True
    log.add("dos.turn.wait", id=c.id)
    return _record(c.id, None, "wait")


def _states(req: TurnRequest, live: dict[str, _Live], order: list[str]) -> list[CombatantState]:
    position = {id_: p for p, id_ in enumerate(order, start=1)}
    return [
        {
            "id": c.id,
            "actions": me.actions,
            "actions_used": me.actions_used,
            "initiative": position[c.id],
            "hp": me.state.hp,
            "max_hp": me.state.max_hp,
            "incapacitated": me.state.incapacitated,
            "critical": me.state.critical,
            "beaten": me.state.beaten,
            "blocks_used": me.state.blocks_used,
            "dodges_used": me.state.dodges_used,
            "running": me.state.running,
            "stopped": me.state.stopped,
            "moved": me.moved,
            "waited": me.waited,
        }
        for c in req.combatants
        for me in (live[c.id],)
    ]


def turn(req: TurnRequest, dice: DiceSource) -> TurnResult:
    """Resolve one combat turn (DOS-14..29). Phases: actions per turn, checks, initiative, each
    combatant's actions in initiative order, everyone's new state."""
    counts = _count_actions(req)
    _validate(req, counts)
    log = EventLog(SENTENCES)
    order, entries = _start(dice, log, req, counts)
    live = _live(req, counts)
    results: list[TurnAction] = []
    for id_ in order:
        results += _act(dice, log, live[id_], live, req.options)
    return {
        **foundry_trace(dice, log),
        "order": order,
        "initiative": entries,
        "actions": [
            {
                "id": c.id,
                "actions": counts.actions[c.id],
                "opponents_speed": counts.opponents_speed[c.id],
            }
            for c in req.combatants
        ],
        "results": results,
        "combatants": _states(req, live, order),
    }


def _attacks(
    dice: DiceSource,
    log: EventLog,
    me: _Live,
    live: dict[str, _Live],
    d: Declaration,
    *,
    first: int,
    options: DamageOptions,
) -> list[TurnAction]:
    c = me.c
    assert d.target is not None  # validated
    tgt = live[d.target]
    skill: str = SKILL_OF_WEAPON[c.weapon.kind]
    attacker = Attacker(
        dexterity=c.dexterity,
        strength=c.strength,
        skill=getattr(c.skills, skill),
        weapon=c.weapon,
    )
    out: list[TurnAction] = []
    for k in range(d.count):
        n = first + k
        if tgt.state.incapacitated and d.stop_when_down:
            log.add("dos.turn.target_down", id=c.id, target=d.target, skipped=d.count - k)
            out += [
                _record(
                    c.id,
                    first + m,
                    "attack",
                    target=d.target,
                    skipped="target_incapacitated",
                )
                for m in range(k, d.count)
            ]
            break
        choice = d.defense or (tgt.c.defense if not c.weapon.ranged else "none")
        kind = choose_defense(choice, tgt.state, c.weapon.ranged, None)
        part, changes = attack_core(
            dice,
            log,
            prefix=f"{c.id}.{n}",
            names=(c.id, d.target),
            attacker=attacker,
            percent=d.percent,
            defender=tgt.state,
            defense=kind,
            defense_percent=d.defense_percent,
            ranged=d.ranged,
            aim=d.aim,
            options=options,
        )
        if changes:
            tgt.state = tgt.state.model_copy(update=changes)
        me.actions_used += 1
        out.append(_record(c.id, n, "attack", target=d.target, attack=part))
    return out


def _side(c: TurnCombatant, kind: ManeuverKind, d: Declaration | None) -> ManeuverSide:
    skill: SkillName | None = None
    if kind == "push" and c.weapon.kind == "melee":
        skill = "weapon"  # DOS-25: strength + weapon combat for an armed pusher
    return ManeuverSide(
        dexterity=c.dexterity,
        strength=c.strength,
        unarmed=c.skills.unarmed,
        weapon=c.skills.weapon,
        dodge=c.skills.dodge,
        skill=skill,
        difficulty=d.difficulty if d else None,
        modifier_percent=d.modifier_percent if d else None,
    )


def _maneuver(
    dice: DiceSource, log: EventLog, me: _Live, live: dict[str, _Live], d: Declaration, *, n: int
) -> TurnAction:
    assert d.target is not None  # validated
    kind: ManeuverKind = d.action  # type: ignore[assignment]  # one of MANEUVERS here
    tgt = live[d.target]
    part = maneuver_core(
        dice,
        log,
        prefix=f"{me.c.id}.{n}",
        kind=kind,
        sides=(_side(me.c, kind, d), _side(tgt.c, kind, None)),
        names=(me.c.id, d.target),
    )
    me.actions_used += 1
    return _record(me.c.id, n, kind, target=d.target, maneuver=part)
